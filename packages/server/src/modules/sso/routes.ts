import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import { AppError } from '../../errors.js';
import { pageWords } from '../../http/page-language.js';
import { route } from '../../http/route.js';
import { publicBase } from '../../http/server.js';
import { english, POPUP_PAGE, POPUP_SCRIPT, popupPage, translations } from './popup-page.js';
import * as service from './service.js';

export const ssoRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const ctx = app.ctx;
  /** The address the provider sends people back to must be the one registered: the public URL when set. */
  const baseUrl = (request: FastifyRequest) => publicBase(request, ctx.config.publicUrl);

  route(app, 'GET /api/auth/sso', { tags: ['accounts'] }, async (request) =>
    service.discoverFor(ctx, request.query, request.headers.origin ?? null),
  );

  route(app, 'POST /api/auth/sso/start', { tags: ['accounts'] }, async (request) => {
    try {
      return await service.start(ctx, request.body.workspace, baseUrl(request), request.headers.origin ?? null);
    } catch (error) {
      if (error instanceof service.ProviderUnavailable) {
        throw new AppError('unavailable', `The workspace’s sign-in provider does not answer: ${error.message}`);
      }
      throw error;
    }
  });

  route(
    app,
    service.CALLBACK,
    {
      tags: ['accounts'],
    },
    async (request, reply) => {
      const base = baseUrl(request);
      const url = new URL(request.url, base);
      let answer: URLSearchParams;
      let returnOrigin: string | null;
      try {
        const signedIn = await service.callback(ctx, url);
        answer = new URLSearchParams({ sso_code: signedIn.code });
        returnOrigin = signedIn.returnOrigin;
      } catch (error) {
        if (!(error instanceof service.Refused)) throw error;
        request.log.info({ reason: error.message }, 'single sign-on refused');
        answer = new URLSearchParams({ sso_error: error.message });
        returnOrigin = error.returnOrigin;
      }
      reply.header('cache-control', 'no-store');
      // A widget's popup hands the answer to the page that opened it; the console reads it itself.
      if (returnOrigin) answer.set('to', returnOrigin);
      return reply.redirect(`${base}${returnOrigin ? POPUP_PAGE : '/sign-in'}#${answer}`, 302);
    },
  );

  // The popup's last page (popup-page.ts), in the person's language.
  app.get(POPUP_PAGE, { schema: { hide: true } }, async (request, reply) =>
    reply
      .type('text/html; charset=utf-8')
      .header('cache-control', 'no-store')
      .header('vary', 'accept-language')
      // It must still know the page that opened it (the pages' default, same-origin, would cut it off).
      .header('cross-origin-opener-policy', 'unsafe-none')
      .send(popupPage(pageWords(request, english, translations))),
  );
  app.get(`${POPUP_PAGE}.js`, { schema: { hide: true } }, async (_request, reply) =>
    reply.type('text/javascript; charset=utf-8').header('cache-control', 'no-cache').send(POPUP_SCRIPT),
  );

  route(app, 'GET /api/workspace/sso', { tags: ['workspace'] }, async (request) =>
    service.settings(ctx, request.actor, baseUrl(request)),
  );

  route(app, 'PUT /api/workspace/sso', { tags: ['workspace'] }, async (request) =>
    service.saveSettings(ctx, request.actor, request.body, baseUrl(request)),
  );

  route(app, 'POST /api/workspace/sso/domains/{domain}/check', { tags: ['workspace'] }, async (request) =>
    service.checkDomain({ ...ctx, dnsServers: ctx.config.dnsServers }, request.actor, request.params.domain),
  );

  route(app, 'DELETE /api/workspace/sso', { tags: ['workspace'] }, async (request, reply) => {
    await service.removeSettings(ctx, request.actor);
    return reply.code(204).send(null);
  });
};
