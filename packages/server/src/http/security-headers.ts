import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import helmet, { type HelmetOptions } from 'helmet';

/** JSON answers: nothing in them may load anything or be framed. */
const apiPolicy = {
  useDefaults: false,
  directives: { defaultSrc: ["'none'"], frameAncestors: ["'none'"] },
} as const;

/**
 * The HTML pages the server renders (the demo page, the API reference): their own scripts
 * and styles only. Inline styles are allowed because the widget and Swagger UI set them.
 */
const pagePolicy = {
  useDefaults: false,
  directives: {
    defaultSrc: ["'self'"],
    scriptSrc: ["'self'"],
    styleSrc: ["'self'", "'unsafe-inline'"],
    // The widget shows the screenshot it is about to send from a blob: URL.
    imgSrc: ["'self'", 'data:', 'blob:'],
    connectSrc: ["'self'"],
    objectSrc: ["'none'"],
    baseUri: ["'self'"],
    formAction: ["'self'"],
    frameAncestors: ["'none'"],
  },
} as const;

/**
 * The console: its own scripts and styles only, nothing inline (its styles are set through the
 * CSSOM, which the policy does not restrict), no plugins, no base or form targets elsewhere.
 */
const consolePolicy = {
  useDefaults: false,
  directives: {
    defaultSrc: ["'self'"],
    scriptSrc: ["'self'"],
    styleSrc: ["'self'"],
    // Screenshots are fetched with the session's token and shown from a blob: URL.
    imgSrc: ["'self'", 'data:', 'blob:'],
    connectSrc: ["'self'"],
    objectSrc: ["'none'"],
    baseUri: ["'none'"],
    formAction: ["'self'"],
    frameAncestors: ["'none'"],
  },
} as const;

/** Headers helmet sets with `options`, computed once: they depend on nothing in a request. */
function helmetHeaders(options: HelmetOptions): Readonly<Record<string, string>> {
  const headers: Record<string, string> = {};
  const recorder = {
    setHeader: (name: string, value: string) => {
      headers[name.toLowerCase()] = value;
    },
    removeHeader: (name: string) => {
      delete headers[name.toLowerCase()];
    },
  };
  helmet(options)({} as IncomingMessage, recorder as unknown as ServerResponse, (error?: unknown) => {
    if (error) throw error;
  });
  return headers;
}

const common = { referrerPolicy: { policy: 'no-referrer' as const }, crossOriginEmbedderPolicy: false };

/**
 * Security headers of every API answer: nosniff, no referrer (an access link carries its
 * token in a page's address), HSTS, same-origin resource policy, a Content-Security-Policy
 * that allows nothing. Helmet's headers that only mean something for a page a browser renders
 * are left out: the polled unread-count, answered from memory, carries these too.
 */
export const apiSecurityHeaders = helmetHeaders({
  ...common,
  contentSecurityPolicy: apiPolicy,
  crossOriginOpenerPolicy: false,
  originAgentCluster: false,
  xDnsPrefetchControl: false,
  xDownloadOptions: false,
  xFrameOptions: false,
  xPermittedCrossDomainPolicies: false,
  xXssProtection: false,
});
const pageSecurityHeaders = helmetHeaders({ ...common, contentSecurityPolicy: pagePolicy });
/** The console's shell and assets: a page's full set, with the strict policy above. */
export const consoleSecurityHeaders = helmetHeaders({ ...common, contentSecurityPolicy: consolePolicy });

/**
 * Sets the security headers on every answer: the pages under `pagePrefixes` get a policy
 * that lets them run their own scripts. Every /api answer is `Cache-Control: no-store`
 * unless its route says otherwise (the polled unread-count).
 */
export function registerSecurityHeaders(app: FastifyInstance, pagePrefixes: readonly string[]): void {
  const isPage = (url: string) => pagePrefixes.some((prefix) => url === prefix || url.startsWith(`${prefix}/`));
  app.addHook('onRequest', (request, reply, done) => {
    reply.headers(isPage(request.routeOptions.url ?? '') ? pageSecurityHeaders : apiSecurityHeaders);
    done();
  });
  app.addHook('onRoute', (route) => {
    if (route.url.startsWith('/api/')) {
      route.onSend = [...[route.onSend ?? []].flat(), noStoreUnlessSet] as typeof route.onSend;
    }
  });
}

function noStoreUnlessSet(
  _request: FastifyRequest,
  reply: FastifyReply,
  payload: unknown,
  done: (error: null, payload: unknown) => void,
) {
  if (!reply.hasHeader('cache-control')) reply.header('cache-control', 'no-store');
  done(null, payload);
}
