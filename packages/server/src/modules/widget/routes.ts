import { LOCALES, PSEUDO_LOCALE } from '@svc/contract/i18n';
import type { FastifyPluginAsync } from 'fastify';
import { AppError } from '../../errors.js';
import { readBuiltFile } from '../../http/built-file.js';

/** Browsers re-check the scripts at most this often; the ETag makes the check a 304. */
const MAX_AGE_SECONDS = 300;

/** The widget, and the chunks it loads on demand (panel, anchoring, screenshot, each language but English). */
const SCRIPTS = [
  'widget.js',
  'widget-panel.js',
  'widget-anchoring.js',
  'widget-screenshot.js',
  'widget-markup.js',
  'widget-steps.js',
  'widget-replay.js',
  ...[...LOCALES.slice(1), PSEUDO_LOCALE].map((locale) => `widget-locale-${locale}.js`),
];

function readScript(name: string): { body: Buffer; etag: string } | null {
  const file = readBuiltFile(`@svc/widget/${name}`);
  return file && { body: file.body, etag: `"${file.sha256.toString('base64url').slice(0, 27)}"` };
}

/** GET /widget.js and its chunks: the built widget, with caching headers, for any page to embed. */
export const widgetRoutes: FastifyPluginAsync = async (app) => {
  for (const name of SCRIPTS) {
    const script = readScript(name);
    app.get(`/${name}`, { schema: { hide: true } }, async (request, reply) => {
      if (!script) {
        throw new AppError('unavailable', 'The widget is not built on this server: run npm run build.');
      }
      reply
        .header('cache-control', `public, max-age=${MAX_AGE_SECONDS}`)
        .header('etag', script.etag)
        .header('cross-origin-resource-policy', 'cross-origin');
      if (request.headers['if-none-match'] === script.etag) return reply.code(304).send();
      return reply.type('application/javascript; charset=utf-8').send(script.body);
    });
  }
};
