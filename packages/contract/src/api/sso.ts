// Single sign-on: discovering and starting it, its callback, and the workspace's SSO settings
// and domains (served by the server's modules/sso).
import { Type } from 'typebox';
import {
  PutSsoBody,
  SsoDiscovery,
  SsoDiscoveryQuery,
  SsoDomain,
  SsoDomainParams,
  SsoSettings,
  SsoStarted,
  StartSsoBody,
} from '../index.js';
import { endpoint } from './endpoint.js';

export const ssoEndpoints = {
  'GET /api/auth/sso': endpoint({
    summary: 'Find the single sign-on for an e-mail (by its domain) or a workspace',
    description:
      'What the sign-in page shows as "Continue with <displayName>": the workspace whose provider serves the e-mail’s domain (one of its allowed domains), or the workspace named (its sign-in link), or the workspace of the project a widget names (by key: the project whose allowed origins hold the asking page\'s origin, so that another workspace\'s project of the same key cannot hide it). 404 when there is none.',
    query: SsoDiscoveryQuery,
    answers: { 200: SsoDiscovery },
    problems: [404],
    public: true,
  }),
  'POST /api/auth/sso/start': endpoint({
    summary: 'Begin signing in with the workspace’s provider: the URL to open',
    description:
      'Authorization code flow with PKCE, state and nonce. The provider sends the browser back to /api/auth/sso/callback, which sends it on to the console’s sign-in page with a one-time code after "#" (never in a query); the console exchanges it (POST /api/auth/sso/exchange).',
    body: StartSsoBody,
    answers: { 200: SsoStarted },
    problems: [404, 503],
    public: true,
  }),
  'GET /api/auth/sso/callback': endpoint({
    summary: 'Where the provider sends the browser back (the redirect URL to register)',
    description:
      'Redirects to the console’s sign-in page: /sign-in#sso_code=<one-time code> on success, /sign-in#sso_error=<why> otherwise; for a sign-in a widget started, to /sso/done (the same after "#", with the page’s origin), which hands it to the widget’s page and closes.',
    query: Type.Object({}, { additionalProperties: true }),
    answers: { 302: Type.Null() },
    problems: [],
    public: true,
  }),
  'GET /api/workspace/sso': endpoint({
    summary: 'The workspace’s single sign-on (its client secret is never returned)',
    answers: { 200: SsoSettings },
    problems: [403],
  }),
  'POST /api/workspace/sso/domains/{domain}/check': endpoint({
    summary: 'Prove an e-mail domain: the server looks up its TXT record',
    description:
      'The record is the domain’s `record` in the settings (a TXT record at _svc-verification.<domain>). Proven, the domain routes sign-ins to this workspace. 409 while the record is not found (saying what was), or when another workspace of this server proved the domain first. Idempotent once proven.',
    params: SsoDomainParams,
    answers: { 200: SsoDomain },
    problems: [403, 404, 409],
  }),
  'PUT /api/workspace/sso': endpoint({
    summary: 'Set up single sign-on with an OpenID Connect provider',
    description:
      'The issuer is discovered before anything is saved (400 naming what failed). The client secret is encrypted at rest; omit it to keep the stored one. Each e-mail domain listed gets a DNS record to publish: it routes sign-ins (found by e-mail, newcomers joining) only once proven (POST /api/workspace/sso/domains/{domain}/check). Public mail domains are refused (400). requireForMembers refuses members’ passwords; admins keep theirs.',
    body: PutSsoBody,
    answers: { 200: SsoSettings },
    problems: [403, 409],
  }),
  'DELETE /api/workspace/sso': endpoint({
    summary: 'Stop signing in with single sign-on (everyone keeps or resets a password)',
    answers: { 204: Type.Null() },
    problems: [403, 404],
  }),
} as const;
