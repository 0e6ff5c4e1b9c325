import type { FastifyPluginAsync } from 'fastify';
import { AppError } from '../../errors.js';
import { readBuiltFile } from '../../http/built-file.js';

/** What the server hands out of the CLI: its bytes and their SHA-256, read once at start. */
export interface CliBundle {
  body: Buffer;
  sha256: string;
}

/** The single-file CLI built beside this server (the same version), or null when it is not built. */
export function readCliBundle(): CliBundle | null {
  const file = readBuiltFile('svc-cli/svc-cli.mjs');
  return file && { body: file.body, sha256: file.sha256.toString('hex') };
}

const notBuilt = () => new AppError('unavailable', 'The CLI is not built on this server: run npm run build.');

/**
 * GET /cli/svc-cli.mjs and /cli/svc-cli.mjs.sha256: the CLI for deploy jobs and agents,
 * downloaded from the server they talk to rather than from a public registry, and checked
 * with `sha256sum -c` (the checksum file names the file as it is saved: svc-cli.mjs).
 */
export const cliRoutes: FastifyPluginAsync<{ bundle: CliBundle | null }> = async (app, { bundle }) => {
  const etag = bundle ? `"${bundle.sha256.slice(0, 32)}"` : '';
  app.get('/cli/svc-cli.mjs', { schema: { hide: true } }, async (request, reply) => {
    if (!bundle) throw notBuilt();
    reply.header('cache-control', 'no-cache').header('etag', etag);
    if (request.headers['if-none-match'] === etag) return reply.code(304).send();
    return reply
      .type('text/javascript; charset=utf-8')
      .header('content-disposition', 'attachment; filename="svc-cli.mjs"')
      .send(bundle.body);
  });
  app.get('/cli/svc-cli.mjs.sha256', { schema: { hide: true } }, async (_request, reply) => {
    if (!bundle) throw notBuilt();
    return reply
      .header('cache-control', 'no-cache')
      .type('text/plain; charset=utf-8')
      .send(`${bundle.sha256}  svc-cli.mjs\n`);
  });
};
