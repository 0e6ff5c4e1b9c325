import { isIP } from 'node:net';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Line } from '@svc/contract';
import { Type } from 'typebox';
import { AppError, forbidden } from '../../errors.js';
import { selfCallingHost } from './host.js';

/** The MCP SDK, loaded on the first MCP request: most servers and processes never serve one. */
const mcpLibrary = async () => ({
  ...(await import('@svc/contract/mcp')),
  ...(await import('@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js')),
});

const LOOPBACK_NAMES = new Set(['localhost', '127.0.0.1', '[::1]']);

/**
 * The names a request may address this server by, against DNS rebinding (a page on another
 * site whose name was pointed at this server): loopback names, IP addresses, and the host of
 * SVC_PUBLIC_URL. Any other name is refused until SVC_PUBLIC_URL names it.
 */
function trustedHostname(hostname: string, publicHostname: string | null): boolean {
  return LOOPBACK_NAMES.has(hostname) || isIP(hostname.replace(/^\[|\]$/g, '')) !== 0 || hostname === publicHostname;
}

function checkAddressing(host: string | undefined, origin: string | undefined, publicUrl: string | null): void {
  const publicAddress = publicUrl ? new URL(publicUrl) : null;
  const hostname = host ? new URL(`http://${host}`).hostname : '';
  if (!trustedHostname(hostname, publicAddress?.hostname ?? null)) {
    throw forbidden(
      `This server does not answer MCP requests addressed to "${host ?? ''}": set SVC_PUBLIC_URL to the address agents use.`,
    );
  }
  // Agents send no Origin; a browser does, and only this server's own pages or a local tool may call.
  if (origin === undefined) return;
  let from: URL | null = null;
  try {
    from = new URL(origin);
  } catch {
    // Refused below.
  }
  if (!from || (from.origin !== publicAddress?.origin && !LOOPBACK_NAMES.has(from.hostname))) {
    throw forbidden(`MCP requests from pages of ${origin} are not allowed.`);
  }
}

const McpQuery = Type.Object({
  project: Line({ minLength: 1, maxLength: 40, description: 'The key of the project whose feedback the tools serve' }),
});

/**
 * MCP over Streamable HTTP, stateless: every POST is one JSON-RPC exchange with a fresh
 * server whose tools call this API with the caller's own API key. No session, no stream to
 * resume, so GET and DELETE are refused (405) as the transport allows.
 */
export const mcpRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { watch, version } = app.ctx;
  const { publicUrl } = app.ctx.config;
  app.post(
    '/mcp',
    {
      config: { authenticated: true },
      schema: { hide: true, querystring: McpQuery },
    },
    async (request, reply) => {
      checkAddressing(request.headers.host, request.headers.origin, publicUrl);
      if (request.actor.credential.kind !== 'apiKey') {
        throw forbidden('MCP takes an API key as its bearer token, not a session token.');
      }
      const projectKey = request.query.project;
      const host = selfCallingHost(app, request, projectKey);
      if ((request.body as { method?: unknown } | null)?.method === 'initialize') {
        await host.send('GET /api/projects/{key}', { params: { key: projectKey } }).catch(() => {
          throw new AppError('not_found', `No project "${projectKey}" in this API key's workspace.`);
        });
      }

      const { feedbackMcpServer, WebStandardStreamableHTTPServerTransport } = await mcpLibrary();
      const server = feedbackMcpServer(host, 'svc', version);
      const transport = new WebStandardStreamableHTTPServerTransport({
        sessionIdGenerator: undefined,
        enableJsonResponse: true,
      });
      await server.connect(transport);
      try {
        const headers = new Headers();
        for (const [name, value] of Object.entries(request.headers)) {
          if (typeof value === 'string') headers.set(name, value);
        }
        const response = await transport.handleRequest(
          new Request(`http://localhost${request.url}`, {
            method: 'POST',
            headers,
            body: JSON.stringify(request.body),
          }),
          { parsedBody: request.body },
        );
        reply.code(response.status);
        response.headers.forEach((value, name) => {
          reply.header(name, value);
        });
        // A wait answered because the server is closing: the connection must not linger as keep-alive.
        if (watch.closed) reply.header('connection', 'close');
        const body = await response.text();
        return reply.send(body === '' ? undefined : body);
      } finally {
        await server.close();
      }
    },
  );

  const notOffered = async () => {
    throw new AppError(
      'method_not_allowed',
      'This MCP endpoint is stateless: send each JSON-RPC message as a POST.',
      undefined,
      {
        allow: 'POST',
      },
    );
  };
  app.get('/mcp', { schema: { hide: true } }, notOffered);
  app.delete('/mcp', { schema: { hide: true } }, notOffered);
};
