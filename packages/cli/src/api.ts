import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import {
  type Answer,
  type AnswerOf,
  type ApiClient as ApiClientShape,
  type CallOf,
  type Endpoint,
  type Endpoints,
  endpointRequest,
} from '@svc/contract/endpoints';
import { VIA_HEADER } from '@svc/contract/rules';
import type { ProblemDocument } from '@svc/contract/vocabulary';
import type { ProjectConfig } from './config.js';
import { serverError } from './errors.js';
import { warn } from './output.js';
import { serverVersion, versionMismatch } from './server-version.js';

const REQUEST_TIMEOUT_MS = 30_000;

type Problem = ProblemDocument;

/** Endpoints that list pages of items, and what one item is. */
type ListEndpoint = {
  [E in Endpoint]: AnswerOf<E> extends { items: unknown[]; nextCursor: string | null } ? E : never;
}[Endpoint];
type ItemOf<E extends ListEndpoint> = AnswerOf<E>['items'][number];

/**
 * The server's HTTP API as the CLI uses it: `call` is the shared client shape (an answer for
 * every status), `send` the CLI's use of it, where every failure becomes exit code 1 with a reason.
 */
export class ApiClient implements ApiClientShape {
  /** Asked alongside the first request, warned about once. */
  private versionChecked: Promise<void> | null = null;
  /** 'mcp' when the calls are an agent's (`svc-cli mcp`): the server's timelines say so. */
  via: 'mcp' | null = null;

  constructor(
    readonly config: ProjectConfig,
    private readonly apiKey: string,
  ) {}

  /** The path parameters of the configured project. */
  get project(): { key: string } {
    return { key: this.config.project };
  }

  async call<E extends Endpoint>(endpoint: E, call: CallOf<E>): Promise<Answer<E>> {
    this.versionChecked ??= serverVersion(this.config.server).then((version) => {
      const mismatch = versionMismatch(this.config.server, version);
      if (mismatch) warn(mismatch);
    });
    const answer = await this.request(endpoint, call);
    await this.versionChecked;
    return answer;
  }

  private async request<E extends Endpoint>(endpoint: E, call: CallOf<E>): Promise<Answer<E>> {
    const { method, path } = endpointRequest(endpoint, call);
    const body = (call as { body?: unknown }).body;
    const url = `${this.config.server}${path}`;
    let response: Response;
    try {
      response = await fetch(url, {
        method,
        headers: {
          authorization: `Bearer ${this.apiKey}`,
          ...(this.via ? { [VIA_HEADER]: this.via } : {}),
          accept: 'application/json',
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
      });
    } catch (error) {
      const cause = (error as { cause?: { code?: string; message?: string } }).cause;
      const reason = cause?.code ?? cause?.message ?? (error as Error).message;
      throw serverError(
        `could not reach the server at ${this.config.server} (${reason}). Check the server URL (SVC_SERVER or .svc/config.json) and that it is running.`,
      );
    }
    const text = await response.text();
    if (!response.ok) throw serverError(this.describeFailure(method, path, response.status, text));
    let data: unknown;
    try {
      data = text ? JSON.parse(text) : undefined;
    } catch {
      throw serverError(`${method} ${url} answered ${response.status} with a body that is not JSON.`);
    }
    return { ok: true, status: response.status, data, etag: response.headers.get('etag') } as Answer<E>;
  }

  /** The bytes a GET answers (an image); a refusal throws the reason, like every call. */
  async download(path: string): Promise<{ bytes: Buffer; contentType: string }> {
    const url = `${this.config.server}${path}`;
    const response = await fetch(url, {
      headers: { authorization: `Bearer ${this.apiKey}` },
      signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
    }).catch((error: Error) => {
      throw serverError(`could not reach the server at ${this.config.server} (${error.message}).`);
    });
    if (!response.ok) throw serverError(this.describeFailure('GET', path, response.status, await response.text()));
    return {
      bytes: Buffer.from(await response.arrayBuffer()),
      contentType: response.headers.get('content-type') ?? '',
    };
  }

  /** Streams what a GET answers into `out` (an export, however large); the bytes written. */
  async stream(path: string, out: NodeJS.WritableStream): Promise<number> {
    const url = `${this.config.server}${path}`;
    const response = await fetch(url, { headers: { authorization: `Bearer ${this.apiKey}` } }).catch((error: Error) => {
      throw serverError(`could not reach the server at ${this.config.server} (${error.message}).`);
    });
    if (!response.ok || !response.body) {
      throw serverError(this.describeFailure('GET', path, response.status, await response.text()));
    }
    let bytes = 0;
    const body = Readable.fromWeb(response.body as import('node:stream/web').ReadableStream);
    body.on('data', (chunk: Buffer) => {
      bytes += chunk.length;
    });
    await pipeline(body, out);
    return bytes;
  }

  /** The answer's body; a refusal or an unreachable server throws the reason (exit code 1). */
  async send<E extends Endpoint>(endpoint: E, call: CallOf<E>): Promise<AnswerOf<E>> {
    const answer = await this.call(endpoint, call);
    return answer.data as AnswerOf<E>;
  }

  /** Every item of a list, `pageSize` at a time (100, the most most lists take), following `nextCursor`. */
  async listAll<E extends ListEndpoint>(endpoint: E, call: CallOf<E>, pageSize = 100): Promise<ItemOf<E>[]> {
    const items: ItemOf<E>[] = [];
    let cursor: string | null = null;
    do {
      const query = { ...(call as { query?: object }).query, limit: pageSize, ...(cursor ? { cursor } : {}) };
      const page = (await this.send(endpoint, { ...call, query } as CallOf<E>)) as Endpoints[E]['answer'];
      items.push(...(page.items as ItemOf<E>[]));
      cursor = page.nextCursor;
    } while (cursor);
    return items;
  }

  private describeFailure(method: string, path: string, status: number, text: string): string {
    let problem: Problem = {};
    try {
      problem = JSON.parse(text) as Problem;
    } catch {
      // Not a problem document (a proxy's error page, say): the status alone must do.
    }
    const what = [problem.title, problem.detail].filter(Boolean).join(': ') || text.slice(0, 200) || 'no details';
    const fields = problem.errors?.map((e) => `\n  ${e.path || '/'}: ${e.message}`).join('') ?? '';
    const hint =
      status === 401
        ? '\nThe API key was refused: check SVC_API_KEY (or .svc/credentials.env), or create a new key.'
        : status === 403
          ? '\nThe key belongs to an account that may not do this (client accounts cannot).'
          : status === 404
            ? `\nNot found in the key's workspace: check the project key "${this.config.project}"${path.startsWith('/api/comments/') ? ' and the comment id' : ''}.`
            : '';
    return `the server refused ${method} ${path}: ${status} ${what}${fields}${hint}`;
  }
}
