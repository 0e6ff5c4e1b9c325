import type { ProjectConfig } from './config.js';
import { serverError } from './errors.js';

const REQUEST_TIMEOUT_MS = 30_000;

interface Problem {
  title?: string;
  detail?: string;
  code?: string;
  errors?: { path: string; message: string }[];
}

/** The server's HTTP API as the CLI uses it; every failure becomes exit code 1 with a reason. */
export class ApiClient {
  constructor(
    readonly config: ProjectConfig,
    private readonly apiKey: string,
  ) {}

  get projectPath(): string {
    return `/api/projects/${encodeURIComponent(this.config.project)}`;
  }

  async request<T>(method: string, path: string, body?: unknown): Promise<T> {
    const url = `${this.config.server}${path}`;
    let response: Response;
    try {
      response = await fetch(url, {
        method,
        headers: {
          authorization: `Bearer ${this.apiKey}`,
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
    try {
      return (text ? JSON.parse(text) : undefined) as T;
    } catch {
      throw serverError(`${method} ${url} answered ${response.status} with a body that is not JSON.`);
    }
  }

  /** Every item of a paginated list, following `nextCursor`. */
  /** Every item of a list, `pageSize` at a time (100, the most most lists take). */
  async listAll<T>(path: string, query: Record<string, string> = {}, pageSize = 100): Promise<T[]> {
    const items: T[] = [];
    let cursor: string | null = null;
    do {
      const params = new URLSearchParams({ ...query, limit: String(pageSize), ...(cursor ? { cursor } : {}) });
      const page: { items: T[]; nextCursor: string | null } = await this.request('GET', `${path}?${params}`);
      items.push(...page.items);
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
