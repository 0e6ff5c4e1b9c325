import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import { AppError } from '../../errors.js';
import { route } from '../../http/route.js';
import { publicBase } from '../../http/server.js';
import * as service from './service.js';

const POPUP_PAGE = '/sso/done';

const POPUP_HTML = `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Signing in…</title></head>
<body style="font-family:system-ui,sans-serif;padding:24px">
<p id="said">Signing in… This window closes by itself; if it stays, close it and go back to the page.</p>
<script src="${POPUP_PAGE}.js"></script>
</body>
</html>
`;

const POPUP_SCRIPT = `(() => {
  const answer = new URLSearchParams(location.hash.slice(1));
  history.replaceState(null, '', location.pathname);
  const to = answer.get('to');
  if (window.opener && to) {
    window.opener.postMessage({ type: 'svc-sso', code: answer.get('sso_code'), error: answer.get('sso_error') }, to);
    window.close();
  }
  if (answer.get('sso_error')) document.getElementById('said').textContent = 'Single sign-on did not work: ' + answer.get('sso_error');
})();
`;

export const ssoRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const ctx = app.ctx;
  /** The address the provider sends people back to must be the one registered: the public URL when set. */
  const baseUrl = (request: FastifyRequest) => publicBase(request, ctx.config.publicUrl);

  route(
    app,
    'GET /api/auth/sso',
    {
      tags: ['accounts'],
      summary: 'Find the single sign-on for an e-mail (by its domain) or a workspace',
      description:
        'What the sign-in page shows as "Continue with <displayName>": the workspace whose provider serves the e-mail’s domain (one of its allowed domains), or the workspace named (its sign-in link), or the workspace of the project a widget names (by key: the project whose allowed origins hold the asking page\'s origin, so that another workspace\'s project of the same key cannot hide it). 404 when there is none.',
    },
    async (request) => service.discoverFor(ctx, request.query, request.headers.origin ?? null),
  );

  route(
    app,
    'POST /api/auth/sso/start',
    {
      tags: ['accounts'],
      summary: 'Begin signing in with the workspace’s provider: the URL to open',
      description:
        'Authorization code flow with PKCE, state and nonce. The provider sends the browser back to /api/auth/sso/callback, which sends it on to the console’s sign-in page with a one-time code after "#" (never in a query); the console exchanges it (POST /api/auth/sso/exchange).',
    },
    async (request) => {
      try {
        return await service.start(ctx, request.body.workspace, baseUrl(request), request.headers.origin ?? null);
      } catch (error) {
        if (error instanceof service.ProviderUnavailable) {
          throw new AppError('unavailable', `The workspace’s sign-in provider does not answer: ${error.message}`);
        }
        throw error;
      }
    },
  );

  route(
    app,
    service.CALLBACK,
    {
      tags: ['accounts'],
      summary: 'Where the provider sends the browser back (the redirect URL to register)',
      description:
        'Redirects to the console’s sign-in page: /sign-in#sso_code=<one-time code> on success, /sign-in#sso_error=<why> otherwise; for a sign-in a widget started, to /sso/done (the same after "#", with the page’s origin), which hands it to the widget’s page and closes.',
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

  // The popup's last page: hands the answer after '#' to the widget's page (its origin was
  // checked at the start and written by the server) and closes. Its script is a file: the
  // pages' Content-Security-Policy allows no inline script.
  app.get(POPUP_PAGE, { schema: { hide: true } }, async (_request, reply) =>
    reply
      .type('text/html; charset=utf-8')
      .header('cache-control', 'no-store')
      // It must still know the page that opened it (the pages' default, same-origin, would cut it off).
      .header('cross-origin-opener-policy', 'unsafe-none')
      .send(POPUP_HTML),
  );
  app.get(`${POPUP_PAGE}.js`, { schema: { hide: true } }, async (_request, reply) =>
    reply.type('text/javascript; charset=utf-8').header('cache-control', 'no-cache').send(POPUP_SCRIPT),
  );

  route(
    app,
    'GET /api/workspace/sso',
    { tags: ['workspace'], summary: 'The workspace’s single sign-on (its client secret is never returned)' },
    async (request) => service.settings(ctx, request.actor, baseUrl(request)),
  );

  route(
    app,
    'PUT /api/workspace/sso',
    {
      tags: ['workspace'],
      summary: 'Set up single sign-on with an OpenID Connect provider',
      description:
        'The issuer is discovered before anything is saved (400 naming what failed). The client secret is encrypted at rest; omit it to keep the stored one. Each e-mail domain listed gets a DNS record to publish: it routes sign-ins (found by e-mail, newcomers joining) only once proven (POST /api/workspace/sso/domains/{domain}/check). Public mail domains are refused (400). requireForMembers refuses members’ passwords; admins keep theirs.',
    },
    async (request) => service.saveSettings(ctx, request.actor, request.body, baseUrl(request)),
  );

  route(
    app,
    'POST /api/workspace/sso/domains/{domain}/check',
    {
      tags: ['workspace'],
      summary: 'Prove an e-mail domain: the server looks up its TXT record',
      description:
        'The record is the domain’s `record` in the settings (a TXT record at _svc-verification.<domain>). Proven, the domain routes sign-ins to this workspace. 409 while the record is not found (saying what was), or when another workspace of this server proved the domain first. Idempotent once proven.',
    },
    async (request) =>
      service.checkDomain({ ...ctx, dnsServers: ctx.config.dnsServers }, request.actor, request.params.domain),
  );

  route(
    app,
    'DELETE /api/workspace/sso',
    { tags: ['workspace'], summary: 'Stop signing in with single sign-on (everyone keeps or resets a password)' },
    async (request, reply) => {
      await service.removeSettings(ctx, request.actor);
      return reply.code(204).send(null);
    },
  );
};
