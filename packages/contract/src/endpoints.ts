// The API as its clients see it: for each route, the body it takes, the query it reads and the
// answer it gives, derived from the endpoints' values in `api.ts` (the schemas the server
// validates with). The CLI, the widget and the agent interface call the server through
// `ApiClient`, so a schema change that breaks a client breaks its build. Type-only imports:
// nothing of this reaches a bundle but `endpointRequest`.
import type { Static, TSchema } from 'typebox';
import type { Api } from './api.js';
import type { ProblemDocument } from './vocabulary.js';

/** One route: what goes in (`body`, `query`) and what comes back on success (`answer`). */
interface Route<Answer, Body = undefined, Query = undefined> {
  answer: Answer;
  body: Body;
  query: Query;
}

/** The statuses of a success with something to read (a 304 is the answer already held). */
type Success = 200 | 201 | 202 | 204 | 302;
type Decoded<T> = T extends TSchema ? Static<T> : undefined;
type AnswerOfSpec<S> = S extends { raw: 'answer' }
  ? Blob
  : S extends { answers: infer A }
    ? Decoded<A[Extract<keyof A, Success>]>
    : never;
type BodyOfSpec<S> = S extends { raw: 'body' } ? Blob : S extends { body: infer B } ? Decoded<B> : undefined;
type QueryOfSpec<S> = S extends { query: infer Q } ? Decoded<Q> : undefined;

export type Endpoints = {
  -readonly [E in keyof Api]: Route<AnswerOfSpec<Api[E]>, BodyOfSpec<Api[E]>, QueryOfSpec<Api[E]>>;
};

export type Endpoint = keyof Endpoints;
export type AnswerOf<E extends Endpoint> = Endpoints[E]['answer'];

/** The path's `{name}` placeholders of an endpoint, as an object to fill them from. */
type ParamsOf<E extends string> = E extends `${string}{${infer Name}}${infer Rest}`
  ? { [K in Name | keyof ParamsOf<Rest>]: string }
  : Record<never, never>;

/** What a call of the endpoint takes: path parameters, query and body, each only when it has them. */
export type CallOf<E extends Endpoint> = (keyof ParamsOf<E> extends never
  ? { params?: never }
  : { params: ParamsOf<E> }) &
  (Endpoints[E]['query'] extends undefined ? { query?: never } : { query?: Endpoints[E]['query'] }) &
  (Endpoints[E]['body'] extends undefined ? { body?: never } : { body: Endpoints[E]['body'] });

/**
 * The answer of a call: the typed body on success, the problem document (or nothing)
 * otherwise; `pollIntervalMs`, the wait before the next poll the server asks for
 * (`X-Poll-Interval`, on the polled unread count).
 */
export type Answer<E extends Endpoint> =
  | { ok: true; status: number; data: AnswerOf<E>; etag: string | null; pollIntervalMs?: number | null }
  | {
      ok: false;
      status: number;
      data: ProblemDocument | undefined;
      etag: string | null;
      pollIntervalMs?: number | null;
    };

/** The client shape every consumer implements over its own transport (fetch with its own errors). */
export interface ApiClient {
  call<E extends Endpoint>(endpoint: E, call: CallOf<E>, headers?: Record<string, string>): Promise<Answer<E>>;
}

/** Splits an endpoint into its method and its path with the parameters filled in and encoded, plus the query. */
export function endpointRequest(
  endpoint: Endpoint,
  call: { params?: Record<string, string>; query?: object },
): { method: string; path: string } {
  const [method, template] = endpoint.split(' ') as [string, string];
  const params = call.params ?? {};
  let path = template.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(params[name] ?? ''));
  const query = new URLSearchParams();
  for (const [key, value] of Object.entries(call.query ?? {})) {
    if (value !== undefined && value !== null) query.set(key, String(value));
  }
  if (query.size) path += `?${query}`;
  return { method, path };
}
