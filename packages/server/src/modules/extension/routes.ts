// GET /extension: the browser extension's own page on this server (each browser's download and
// install steps), and GET /extension/feedback-extension-<browser>.zip: the build, with this
// server's address written in (see builds.ts). Public, as /widget.js is: the extension holds no
// secret, and the person signs in from its settings page.
import type { FastifyPluginAsync } from 'fastify';
import { AppError } from '../../errors.js';
import { pageWords } from '../../http/page-language.js';
import { publicBase } from '../../http/server.js';
import { BROWSERS, type Browser, personalise, readExtensionBuilds, zipName, zipOf } from './builds.js';
import { extensionPage } from './page.js';
import { english, translations } from './page-words.js';

export const EXTENSION_PAGE = '/extension';

/** Zips kept per server address: one or two in practice (SVC_PUBLIC_URL, or the few names the server is reached by). */
const KEPT_ZIPS = 8;

export const extensionRoutes: FastifyPluginAsync = async (app) => {
  const builds = readExtensionBuilds();
  const version = builds
    ? (JSON.parse(String(builds.chromium.get('manifest.json'))) as { version: string }).version
    : null;
  const zips = new Map<string, Promise<Buffer>>();
  const zipFor = (browser: Browser, server: string): Promise<Buffer> => {
    const key = `${browser} ${server}`;
    let zip = zips.get(key);
    if (!zip && builds) {
      if (zips.size >= KEPT_ZIPS) zips.delete(zips.keys().next().value as string);
      zip = zipOf(personalise(builds[browser], server));
      zips.set(key, zip);
    }
    if (!zip)
      throw new AppError('unavailable', 'The browser extension is not built on this server: run npm run build.');
    return zip;
  };

  app.get(EXTENSION_PAGE, { schema: { hide: true } }, async (request, reply) =>
    reply
      .code(builds ? 200 : 503)
      .type('text/html; charset=utf-8')
      .header('cache-control', 'no-cache')
      .header('vary', 'accept-language')
      .send(
        extensionPage({
          server: publicBase(request, app.ctx.config.publicUrl),
          version,
          words: pageWords(request, english, translations),
        }),
      ),
  );
  for (const browser of BROWSERS) {
    app.get(`${EXTENSION_PAGE}/${zipName(browser)}`, { schema: { hide: true } }, async (request, reply) => {
      const zip = await zipFor(browser, publicBase(request, app.ctx.config.publicUrl));
      return reply
        .type('application/zip')
        .header('cache-control', 'no-cache')
        .header('content-disposition', `attachment; filename="${zipName(browser)}"`)
        .send(zip);
    });
  }
};
