// The HTTP side of the server: Fastify with what every request gets (its id, its logger, the
// proxies trusted, the time limits and the body size), the table of routes the generated test
// suites walk, and the plumbing registered before any route (validation, problem details,
// security headers, conditional GETs, CORS).
import { randomBytes } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import fastJsonStringify from 'fast-json-stringify';
import Fastify, {
  type FastifyBaseLogger,
  type FastifyInstance,
  type FastifyRequest,
  type FastifySchema,
  type HTTPMethods,
} from 'fastify';
import type { Config } from '../config.js';
import { requestForLog } from '../logging.js';
import { registerConditionalGet } from './conditional.js';
import type { FastPath } from './fast-path.js';
import { clientErrorResponse, registerProblemHandlers, sendFrameworkError } from './problem.js';
import { registerSecurityHeaders } from './security-headers.js';
import { registerJsonParser, registerValidators } from './validation.js';

/** A route as registered, with its schema: what the route table holds and the generated test suites walk. */
export interface RegisteredRoute {
  method: HTTPMethods;
  url: string;
  schema: FastifySchema | undefined;
  public: boolean;
  hidden: boolean;
  /** The content types of a raw body (an upload), when it takes one. */
  bodyTypes?: readonly string[];
}

/** Request bodies are small JSON documents; anything larger is refused with 413. */
export const BODY_LIMIT = 64 * 1024;

/** A client's X-Request-Id is kept only when it is a short token of safe characters. */
const SAFE_REQUEST_ID = /^[A-Za-z0-9._:-]{1,64}$/;

/**
 * Request ids: the client's X-Request-Id when it is safe to log, else one unique across
 * processes (a random process prefix and a counter, cheap per request).
 */
function requestIds(): (request: IncomingMessage) => string {
  const prefix = randomBytes(4).toString('hex');
  let next = 0;
  return (request) => {
    const given = request.headers['x-request-id'];
    return typeof given === 'string' && SAFE_REQUEST_ID.test(given) ? given : `${prefix}-${(next++).toString(36)}`;
  };
}

/**
 * A route that logs only warnings and worse (the polled unread-count) shares one logger
 * instead of creating a child per request; its error logs carry the request id themselves.
 */
function quietRouteLoggers(): Parameters<FastifyInstance['setChildLoggerFactory']>[0] {
  const shared = new Map<string, FastifyBaseLogger>();
  return function childLogger(logger, bindings, options) {
    const level = options.level;
    if (level === 'warn' || level === 'error') {
      const quiet = shared.get(level) ?? logger.child({}, { level });
      shared.set(level, quiet);
      return quiet;
    }
    return logger.child(bindings, options);
  };
}

/** Fastify's trustProxy for the configured proxies: a number of hops counts from the socket inwards. */
function trustedProxies(trust: number | string[]): string[] | ((address: string, hop: number) => boolean) {
  return typeof trust === 'number' ? (_address, hop) => hop < trust : trust;
}

const HEADERS_TIMEOUT_MS = 15_000;
const REQUEST_TIMEOUT_MS = 90_000;

export interface HttpOptions {
  /** Where log lines go; standard output (written synchronously) when not given. */
  logStream?: { write(line: string): void };
}

/**
 * Response serializers by schema, one per process whatever the apps it builds (as Fastify
 * compiles them, with no shared schemas): the routes' schemas are the contract's, so a second
 * app (each test's) compiles none again. Compiling them was most of building an app.
 */
const serializers = new WeakMap<object, (data: unknown) => string>();
function serializerOf(schema: object): (data: unknown) => string {
  let serialize = serializers.get(schema);
  if (!serialize) {
    serialize = fastJsonStringify(schema);
    serializers.set(schema, serialize);
  }
  return serialize;
}

/** Fastify as the server runs it, its sockets made by `fastPath`; it listens on nothing yet. */
export function createHttpServer(config: Config, fastPath: FastPath, options: HttpOptions = {}) {
  const app = Fastify({
    serverFactory: fastPath.serverFactory,
    bodyLimit: BODY_LIMIT,
    // Behind the configured proxies, request.ip (the throttles' client address) and
    // request.protocol come from X-Forwarded-For and -Proto; otherwise from the socket.
    ...(config.trustProxy === null ? {} : { trustProxy: trustedProxies(config.trustProxy) }),
    // genReqId reads (and checks) the header itself.
    requestIdHeader: false,
    genReqId: requestIds(),
    // A path Fastify cannot decode (bad percent-encoding, an over-long id) is answered
    // like every other error.
    frameworkErrors: (error, _request, reply) => sendFrameworkError(reply, error),
    // What Node cannot read as HTTP at all is answered as problem details too.
    clientErrorHandler: (error, socket) => {
      if (socket.writable) socket.end(clientErrorResponse(error));
      else socket.destroy(error);
    },
    // Requests are logged with their method, URL and addresses, never headers or bodies; a
    // secret someone put in a URL's query (an old access link to a page we serve) is masked.
    logger: {
      level: config.logLevel,
      serializers: { req: requestForLog },
      ...(options.logStream ? { stream: options.logStream } : {}),
    },
  }).withTypeProvider<TypeBoxTypeProvider>();

  app.setSerializerCompiler(({ schema }) => serializerOf(schema as object));
  // Slow clients hold no socket for ever: the headers within 15 s, the whole request (a long
  // poll waits up to 60 s) within 90 s.
  app.server.headersTimeout = HEADERS_TIMEOUT_MS;
  app.server.requestTimeout = REQUEST_TIMEOUT_MS;
  app.setChildLoggerFactory(quietRouteLoggers());
  const routeTable: RegisteredRoute[] = [];
  app.decorate('routeTable', routeTable);
  app.addHook('onRoute', (route) => {
    for (const method of [route.method].flat()) {
      if (method === 'HEAD') continue;
      routeTable.push({
        method,
        url: route.url,
        schema: route.schema,
        public: route.config?.public === true,
        hidden: route.schema?.hide === true,
        ...(route.config?.bodyTypes ? { bodyTypes: route.config.bodyTypes } : {}),
      });
    }
  });
  app.decorateRequest('actor', null as never);
  app.addHook('preClose', async () => fastPath.close());
  return app;
}

/** What every route is answered with: validation and its errors, problem details, security headers (`htmlPages` may run scripts), ETags. */
export function registerPlumbing(app: FastifyInstance, htmlPages: string[]): void {
  registerValidators(app);
  registerJsonParser(app);
  registerProblemHandlers(app);
  registerSecurityHeaders(app, htmlPages);
  registerConditionalGet(app);
}

/** The server's address as people reach it: SVC_PUBLIC_URL when set, else the address of `request`. */
export function publicBase(request: FastifyRequest, publicUrl: string | null): string {
  return publicUrl ?? `${request.protocol}://${request.host}`;
}
