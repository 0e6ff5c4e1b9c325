import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import { performance } from 'node:perf_hooks';
import type { FastifyServerFactory } from 'fastify';
import { type AllowedOrigins, corsHeaders } from './cors.js';
import type { RouteRecorder } from './route-metrics.js';

/** A complete answer; `headers` include content-length when there is a body. May be shared by many requests. */
export interface FastAnswer {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly body?: string;
}

/** Answers from memory, or returns undefined and leaves the request to its Fastify route. */
export type FastAnswerer = (request: IncomingMessage) => FastAnswer | undefined;

interface Entry {
  answer: FastAnswerer;
  record: RouteRecorder;
}

/** The server options Fastify hands to a server factory (its defaults applied). */
interface ServerOptions {
  http?: http.ServerOptions | null;
  keepAliveTimeout?: number;
  requestTimeout?: number;
  connectionTimeout?: number;
  maxRequestsPerSocket?: number;
}

/**
 * GET URLs answered before Fastify parses and routes the request, when everything the
 * answer needs is already in memory. Only the polled unread-count is: every open widget
 * asks for it every few seconds, and Fastify's request pipeline (routing, hooks, reply,
 * request logger) costs more than the answer. Anything else (a query string, a caller or
 * a count not cached, an origin list due to be re-read) goes to the Fastify route, which
 * gives the same answer; its CORS headers and per-route metrics are applied here as there.
 */
export class FastPath {
  private readonly byUrl = new Map<string, Entry>();
  private closing = false;

  constructor(
    private readonly origins: AllowedOrigins,
    /** The recorder of a route's figures, the same one its Fastify route records with. */
    private readonly recorderFor: (method: string, url: string) => RouteRecorder,
  ) {}

  /** `url` must also be a Fastify GET route: the answerer may always decline. */
  add(url: string, answer: FastAnswerer): void {
    this.byUrl.set(url, { answer, record: this.recorderFor('GET', url) });
  }

  /** From now on every request goes to Fastify, which refuses new ones with 503 while it closes. */
  close(): void {
    this.closing = true;
  }

  /** Fastify's own HTTP/1 server and settings, with this in front of its handler. */
  readonly serverFactory: FastifyServerFactory = (handler, rawOptions) => {
    const options = rawOptions as ServerOptions;
    const server = http.createServer(options.http ?? {}, (request, response) => {
      if (!this.answer(request, response)) handler(request, response);
    });
    if (options.keepAliveTimeout !== undefined) server.keepAliveTimeout = options.keepAliveTimeout;
    if (options.requestTimeout !== undefined) server.requestTimeout = options.requestTimeout;
    if (options.connectionTimeout !== undefined) server.setTimeout(options.connectionTimeout);
    if (options.maxRequestsPerSocket) server.maxRequestsPerSocket = options.maxRequestsPerSocket;
    return server;
  };

  private answer(request: IncomingMessage, response: ServerResponse): boolean {
    const entry = request.method === 'GET' && request.url !== undefined ? this.byUrl.get(request.url) : undefined;
    if (entry === undefined || this.closing) return false;
    const started = performance.now();
    const origin = request.headers.origin;
    const allowed = origin === undefined ? false : this.origins.allows(origin);
    if (allowed === undefined) return false;
    const answer = entry.answer(request);
    if (answer === undefined) return false;
    response.writeHead(
      answer.status,
      allowed ? Object.assign(corsHeaders(origin as string), answer.headers) : answer.headers,
    );
    response.end(answer.body);
    entry.record(answer.status, (performance.now() - started) / 1000, true);
    return true;
  }
}
