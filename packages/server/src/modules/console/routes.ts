// The console, served by the server on its own origin: the HTML shell at every console page
// (a reload or a shared link works), hashed assets cached for a year, a strict CSP.
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyPluginAsync, FastifyReply } from 'fastify';
import { AppError, notFound } from '../../errors.js';
import { consoleSecurityHeaders } from '../../http/security-headers.js';

/** Every address the console answers at; anything else stays a 404 problem. */
export const CONSOLE_PAGES = [
  '/',
  '/sign-in',
  '/sign-up',
  '/invite',
  '/reset',
  '/mine',
  '/comments',
  '/comments/:id',
  '/insights',
  '/projects',
  '/projects/:key/install',
  '/projects/:key/builds',
  '/people',
  '/agents',
  '/labels',
  '/api-keys',
  '/audit',
  '/account',
];

const TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
};

interface Built {
  shell: Buffer;
  etag: string;
  dir: string;
}

function readConsole(): Built | null {
  try {
    const file = fileURLToPath(import.meta.resolve('@svc/console/index.html'));
    const shell = fs.readFileSync(file);
    return {
      shell,
      etag: `"${createHash('sha256').update(shell).digest('base64url').slice(0, 27)}"`,
      dir: path.dirname(file),
    };
  } catch {
    return null;
  }
}

export const consoleRoutes: FastifyPluginAsync = async (app) => {
  const built = readConsole();
  const requireBuilt = () => {
    if (!built) throw new AppError('unavailable', 'The console is not built on this server: run npm run build.');
    return built;
  };
  /** A file of the build, by a name without any path in it. */
  const sendFile = (reply: FastifyReply, relative: string, cacheControl: string) => {
    const { dir } = requireBuilt();
    const type = TYPES[path.extname(relative)];
    if (!type || relative.includes('..')) throw notFound('File');
    let body: Buffer;
    try {
      body = fs.readFileSync(path.join(dir, relative));
    } catch {
      throw notFound('File');
    }
    return reply.headers(consoleSecurityHeaders).header('cache-control', cacheControl).type(type).send(body);
  };

  for (const url of CONSOLE_PAGES) {
    app.get(url, { schema: { hide: true } }, async (request, reply) => {
      const { shell, etag } = requireBuilt();
      reply.headers(consoleSecurityHeaders).header('cache-control', 'no-cache').header('etag', etag);
      if (request.headers['if-none-match'] === etag) return reply.code(304).send();
      return reply.type('text/html; charset=utf-8').send(shell);
    });
  }
  // Names carry their content's hash: a new build is a new name, so a year of caching is safe.
  app.get<{ Params: { file: string } }>('/assets/:file', { schema: { hide: true } }, async (request, reply) =>
    sendFile(reply, path.join('assets', path.basename(request.params.file)), 'public, max-age=31536000, immutable'),
  );
  app.get('/favicon.svg', { schema: { hide: true } }, async (_request, reply) =>
    sendFile(reply, 'favicon.svg', 'public, max-age=86400'),
  );
};
