// Single sign-on: a workspace's OpenID Connect provider (Google Workspace, Microsoft Entra,
// Okta, Keycloak, Authentik, GitLab…), who may sign in through it, and the sign-in itself.
import { type Static, Type } from 'typebox';
import { Email } from './accounts.js';
import { Line, Name, Nullable, Timestamp } from './common.js';

export const Domain = Type.String({
  maxLength: 253,
  pattern: '^([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\\.)+[a-z]{2,63}$',
  description: 'A lower-case e-mail domain, such as acme.com',
});

const NewMemberRole = Nullable(
  Type.Union([Type.Literal('member'), Type.Literal('admin')], {
    description:
      'The role of someone of an allowed domain who signs in for the first time; null: only people already in the workspace sign in',
  }),
);

/** Where a domain's proof is published: a TXT record at this name under the domain, holding the value. */
export const DOMAIN_PROOF_LABEL = '_svc-verification';
export const DOMAIN_PROOF_PREFIX = 'svc-domain-verification=';

export const SsoDomain = Type.Object({
  domain: Type.String(),
  proven: Type.Boolean({
    description: 'Only a proven domain routes sign-ins: found by e-mail on the sign-in page, and lets newcomers join',
  }),
  provenAt: Nullable(Timestamp),
  provenBy: Nullable(
    Type.Union([Type.Literal('dns'), Type.Literal('operator')], {
      description: "dns: its TXT record, checked by the server; operator: the server's operator approved it",
    }),
  ),
  record: Type.Object(
    { type: Type.Literal('TXT'), name: Type.String(), value: Type.String() },
    { description: "The DNS record that proves the workspace holds the domain: add it at the domain's DNS host" },
  ),
});
export type SsoDomain = Static<typeof SsoDomain>;

export const SsoDomainParams = Type.Object({ domain: Domain });

export const SsoSettings = Type.Object({
  configured: Type.Boolean(),
  issuer: Nullable(Type.String()),
  clientId: Nullable(Type.String()),
  displayName: Nullable(Type.String({ description: 'Shown as "Continue with <displayName>"' })),
  allowedDomains: Type.Array(Type.String()),
  domains: Type.Array(SsoDomain, { description: 'The allowed domains, each with its proof' }),
  newMemberRole: NewMemberRole,
  requireForMembers: Type.Boolean({
    description: 'Members may not sign in with a password; admins keep theirs, the way back in if the provider fails',
  }),
  redirectUrl: Type.String({ description: 'The redirect URL to register at the provider' }),
  signInUrl: Type.String({ description: 'A sign-in page address that offers this provider at once' }),
  updatedAt: Nullable(Timestamp),
});
export type SsoSettings = Static<typeof SsoSettings>;

export const PutSsoBody = Type.Object(
  {
    issuer: Line({
      minLength: 8,
      maxLength: 500,
      description: 'The issuer URL (its /.well-known/openid-configuration is read)',
    }),
    clientId: Line({ minLength: 1, maxLength: 500 }),
    clientSecret: Type.Optional(
      Line({ minLength: 1, maxLength: 2000, description: 'Required the first time; omitted, the stored one is kept' }),
    ),
    displayName: Name(60),
    allowedDomains: Type.Array(Domain, { maxItems: 50 }),
    newMemberRole: NewMemberRole,
    requireForMembers: Type.Boolean(),
  },
  {
    examples: [
      {
        issuer: 'https://accounts.google.com',
        clientId: '1234-abc.apps.googleusercontent.com',
        clientSecret: 'GOCSPX-…',
        displayName: 'Google',
        allowedDomains: ['acme.com'],
        newMemberRole: 'member',
        requireForMembers: false,
      },
    ],
  },
);
export type PutSsoBody = Static<typeof PutSsoBody>;

export const SsoDiscoveryQuery = Type.Object({
  email: Type.Optional(Email),
  workspace: Type.Optional(Line({ minLength: 1, maxLength: 40, description: 'A workspace id' })),
  project: Type.Optional(Line({ minLength: 1, maxLength: 40, description: 'A project key (the widget asks so)' })),
});
export type SsoDiscoveryQuery = Static<typeof SsoDiscoveryQuery>;

export const SsoDiscovery = Type.Object({
  workspaceId: Type.String(),
  displayName: Type.String(),
});
export type SsoDiscovery = Static<typeof SsoDiscovery>;

export const StartSsoBody = Type.Object(
  { workspace: Line({ minLength: 1, maxLength: 40, description: 'The workspace id discovery gave' }) },
  { examples: [{ workspace: 'ws_01J…' }] },
);
export type StartSsoBody = Static<typeof StartSsoBody>;

export const SsoStarted = Type.Object({
  url: Type.String({ description: "The provider's authorization URL: open it in the browser" }),
  binding: Type.String({
    description:
      'Keep it in this browser (not in a URL) and send it with the one-time code: a code is exchanged only by the browser that started its sign-in',
  }),
});

export const SsoExchangeBody = Type.Object(
  {
    code: Line({ minLength: 1, maxLength: 200, description: 'The one-time code the sign-in page received' }),
    binding: Line({ minLength: 1, maxLength: 200, description: 'What POST /api/auth/sso/start answered with the URL' }),
  },
  { examples: [{ code: 'svc_ssx_…', binding: 'svc_ssb_…' }] },
);
export type SsoExchangeBody = Static<typeof SsoExchangeBody>;
