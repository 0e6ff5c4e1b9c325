import type { AnswerOf, CallOf, Endpoint } from '@svc/contract/endpoints';
import { endpointRequest } from '@svc/contract/endpoints';
import type { FeedbackHost } from '@svc/contract/mcp';
import { VIA_HEADER } from '@svc/contract/rules';
import type { FastifyInstance, FastifyRequest } from 'fastify';

interface Problem {
  title?: string;
  detail?: string;
  errors?: { path: string; message: string }[];
}

/**
 * The MCP tools' way into the API: each call is a request to this server itself, with the
 * caller's own bearer token and address, so every route's validation, role check, tenancy,
 * throttle and log apply exactly as to any other client.
 */
export function selfCallingHost(app: FastifyInstance, request: FastifyRequest, projectKey: string): FeedbackHost {
  const authorization = request.headers.authorization ?? '';
  const inject = async (method: string, path: string, body: unknown) => {
    const response = await app.inject({
      method: method as 'GET',
      url: path,
      headers: {
        authorization,
        [VIA_HEADER]: 'mcp',
        accept: 'application/json',
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(body === undefined ? {} : { payload: JSON.stringify(body) }),
      remoteAddress: request.ip,
    });
    if (response.statusCode >= 400) {
      let problem: Problem = {};
      try {
        problem = response.json<Problem>();
      } catch {
        // Every API refusal is a problem document; the status alone must do otherwise.
      }
      const what = [problem.title, problem.detail].filter(Boolean).join(': ');
      const fields = problem.errors?.map((e) => `; ${e.path || '/'}: ${e.message}`).join('') ?? '';
      throw new Error(`${method} ${path} was refused: ${response.statusCode} ${what}${fields}`);
    }
    return response;
  };
  return {
    project: { key: projectKey },
    async send<E extends Endpoint>(endpoint: E, call: CallOf<E>): Promise<AnswerOf<E>> {
      const { method, path } = endpointRequest(endpoint, call);
      return (await inject(method, path, (call as { body?: unknown }).body)).json<AnswerOf<E>>();
    },
    async image(path: string) {
      const response = await inject('GET', path, undefined);
      return {
        data: response.rawPayload.toString('base64'),
        mimeType: String(response.headers['content-type'] ?? 'application/octet-stream'),
      };
    },
  };
}
