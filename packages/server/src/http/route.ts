// Registers an API route from its endpoint's value in the contract (`@svc/contract/api`): the
// method and path, its summary and description, the schemas it validates and answers with, the
// problems it documents, whether it is public and whether it answers conditionally all come
// from there. The route adds what only the server knows: the feature it belongs to (its tag),
// Fastify's options, and its handler, whose request and reply are typed from the same schemas.
import type { SwaggerTransform } from '@fastify/swagger';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { type Api, api, type EndpointSpec } from '@svc/contract/api';
import type {
  ContextConfigDefault,
  FastifyInstance,
  HTTPMethods,
  LogLevel,
  RawReplyDefaultExpression,
  RawRequestDefaultExpression,
  RawServerDefault,
  RouteGenericInterface,
  RouteHandlerMethod,
} from 'fastify';
import { problemResponses } from './problem.js';

export type Endpoint = keyof Api;

/** The Fastify schema an endpoint's value makes, as the type provider reads it. */
type SchemaOf<S> = (S extends { params: infer P } ? { params: P } : unknown) &
  (S extends { query: infer Q } ? { querystring: Q } : unknown) &
  (S extends { body: infer B } ? { body: B } : unknown) &
  (S extends { answers: infer A } ? { response: A } : unknown);

export type RouteHandler<E extends Endpoint> = RouteHandlerMethod<
  RawServerDefault,
  RawRequestDefaultExpression,
  RawReplyDefaultExpression,
  RouteGenericInterface,
  ContextConfigDefault,
  SchemaOf<Api[E]>,
  TypeBoxTypeProvider
>;

/**
 * What a route adds to its endpoint: the feature serving it (the API reference groups by it),
 * and Fastify's options where it needs them. What the endpoint does is said in the contract.
 */
export interface RouteOptions {
  tags: string[];
  logLevel?: LogLevel;
  bodyLimit?: number;
}

/** A success's schema as served: JSON, or the content types the endpoint names for its status. */
function answersOf(spec: EndpointSpec): Record<number, unknown> {
  return Object.fromEntries(
    Object.entries(spec.answers).map(([status, schema]) => {
      const types = spec.types?.[Number(status)];
      if (!types) return [status, schema];
      const content = Object.fromEntries(types.map((type) => [type, { schema }]));
      return [status, { description: (schema as { description?: string }).description ?? 'The answer', content }];
    }),
  );
}

/** A raw body as the API reference shows it: bytes, in each type the endpoint takes. */
const documentedBody =
  (types: readonly string[]): SwaggerTransform =>
  ({ schema, url }) => ({
    schema: {
      ...schema,
      body: { type: 'string', format: 'binary', description: 'The bytes of the file' },
      consumes: [...types],
    },
    url,
  });

/** The route's path as Fastify writes it: `{id}` → `:id`. */
export const routePath = (endpoint: Endpoint) => (endpoint.split(' ')[1] ?? '').replace(/\{(\w+)\}/g, ':$1');

export function route<E extends Endpoint>(
  app: FastifyInstance,
  endpoint: E,
  options: RouteOptions,
  handler: RouteHandler<E>,
): void {
  const spec: EndpointSpec = api[endpoint];
  const { tags, ...fastify } = options;
  const description = typeof spec.description === 'function' ? spec.description(app.ctx.config) : spec.description;
  app.route({
    ...fastify,
    method: endpoint.split(' ')[0] as HTTPMethods,
    url: routePath(endpoint),
    schema: {
      tags,
      summary: spec.summary,
      ...(description === undefined ? {} : { description }),
      ...(spec.params ? { params: spec.params } : {}),
      ...(spec.query ? { querystring: spec.query } : {}),
      ...(spec.body ? { body: spec.body } : {}),
      response: { ...answersOf(spec), ...problemResponses(...spec.problems) },
      // The API reference says which routes take no token.
      ...(spec.public ? { security: [] } : {}),
    },
    config: {
      public: spec.public === true,
      conditional: spec.conditional === true,
      // Only the API reference sees this body: the route reads the bytes with its own parser.
      ...(spec.bodyTypes ? { swaggerTransform: documentedBody(spec.bodyTypes), bodyTypes: spec.bodyTypes } : {}),
    },
    handler: handler as RouteHandlerMethod,
  });
}
