import { type PutSsoBody, type SsoSettings, withoutNameControls } from '@svc/contract';
import type { Actor } from '../../actor.js';
import type { Db } from '../../db/schema.js';
import { inTransaction } from '../../db/transaction.js';
import { forbidden, invalidField, notFound, unauthenticated } from '../../errors.js';
import type { Client } from '../../http/client.js';
import { routePath } from '../../http/route.js';
import { requireName } from '../../http/validation.js';
import { countEvent, refuseWhenExhausted } from '../../limits/rate-limit.js';
import { authorize } from '../../policy.js';
import { auditBy, recordAudit } from '../audit/audit.js';
import * as accounts from '../auth/repo.js';
import { userTarget } from '../auth/service.js';
import { hashToken, issueToken, tokenKind } from '../auth/tokens.js';
import { projectsWithKey } from '../projects/repo.js';
import type { TwoFactorDeps } from '../two-factor/service.js';
import { checkByDns, keepDomains, listDomains, presentDomain, provenBy, refusePublicMailDomains } from './domains.js';
import { authorizationRequest, describeFailure, discover, type Identity, ProviderError, redeem } from './oidc.js';
import * as repo from './repo.js';

export type SsoDeps = TwoFactorDeps;

/** How long a sign-in may stay at the provider, and how long its one-time code waits for the console. */
const ATTEMPT_TTL_MS = 10 * 60_000;
const EXCHANGE_TTL_MS = 2 * 60_000;

export const CALLBACK = 'GET /api/auth/sso/callback';
const CALLBACK_PATH = routePath(CALLBACK);
const redirectUriOf = (base: string) => `${base}${CALLBACK_PATH}`;

const iso = (ms: number) => new Date(ms).toISOString();

export async function settings(deps: SsoDeps, actor: Actor, base: string): Promise<SsoSettings> {
  authorize(actor, 'workspace.manageSecurity');
  const row = await repo.findProvider(deps.db, actor.workspaceId);
  const domains = row ? (await listDomains(deps.db, actor.workspaceId)).map(presentDomain) : [];
  return {
    configured: Boolean(row),
    issuer: row?.issuer ?? null,
    clientId: row?.client_id ?? null,
    displayName: row?.display_name ?? null,
    allowedDomains: domains.map((domain) => domain.domain),
    domains,
    newMemberRole: row?.new_member_role ?? null,
    requireForMembers: Boolean(row?.require_for_members),
    redirectUrl: redirectUriOf(base),
    signInUrl: `${base}/sign-in?sso=${encodeURIComponent(actor.workspaceId)}`,
    updatedAt: row?.updated_at ?? null,
  };
}

/**
 * Saves the workspace's provider once it answers discovery. Its e-mail domains are kept as
 * listed, each routing sign-ins once proven (see domains.ts); public mail domains are refused.
 */
export async function saveSettings(deps: SsoDeps, actor: Actor, body: PutSsoBody, base: string) {
  authorize(actor, 'workspace.manageSecurity');
  const existing = await repo.findProvider(deps.db, actor.workspaceId);
  const secret = body.clientSecret ?? (existing ? deps.secrets.open(existing.client_secret) : null);
  if (!secret) throw invalidField('/clientSecret', 'is required when single sign-on is first set up');
  const domains = [...new Set(body.allowedDomains.map((domain) => domain.toLowerCase()))];
  refusePublicMailDomains(domains, '/allowedDomains');
  const issuer = body.issuer.trim().replace(/\/+$/, '');
  try {
    await discover(issuer, deps.clock);
  } catch (error) {
    if (error instanceof ProviderError) throw invalidField('/issuer', error.message);
    throw error;
  }
  await inTransaction(deps.db, async (trx) => {
    await repo.saveProvider(trx, {
      workspace_id: actor.workspaceId,
      issuer,
      client_id: body.clientId.trim(),
      client_secret: deps.secrets.seal(secret),
      display_name: requireName(body.displayName, '/displayName'),
      new_member_role: body.newMemberRole,
      require_for_members: body.requireForMembers ? 1 : 0,
      updated_at: iso(deps.clock.now()),
    });
    await keepDomains(trx, actor.workspaceId, domains, iso(deps.clock.now()));
    await recordAudit(
      trx,
      auditBy(actor),
      'security_changed',
      null,
      `single sign-on: ${body.displayName.trim()} (${issuer})${body.requireForMembers ? ', required of members' : ''}`,
    );
  });
  return settings(deps, actor, base);
}

export async function removeSettings(deps: SsoDeps, actor: Actor) {
  authorize(actor, 'workspace.manageSecurity');
  await inTransaction(deps.db, async (trx) => {
    if (!(await repo.deleteProvider(trx, actor.workspaceId))) throw notFound('Single sign-on');
    await recordAudit(trx, auditBy(actor), 'security_changed', null, 'single sign-on removed');
  });
}

/** Checks the DNS record that proves one of the workspace's domains (admins); the domain, proven. */
export async function checkDomain(deps: SsoDeps & { dnsServers: readonly string[] }, actor: Actor, domain: string) {
  authorize(actor, 'workspace.manageSecurity');
  const checked = await checkByDns(
    deps.db,
    actor.workspaceId,
    domain,
    deps.dnsServers,
    iso(deps.clock.now()),
    deps.database.isUniqueViolation,
  );
  if (checked.newly) {
    await recordAudit(
      deps.db,
      auditBy(actor),
      'security_changed',
      null,
      `e-mail domain ${domain} proven by its DNS record`,
    );
  }
  return checked.domain;
}

/**
 * The workspace whose single sign-on serves this e-mail's domain, or the one named, or the
 * project's (its widget asks, from the page it runs on: `origin`).
 */
export async function discoverFor(
  deps: SsoDeps,
  query: { email?: string; workspace?: string; project?: string },
  origin: string | null,
) {
  let row: Awaited<ReturnType<typeof repo.findProvider>>;
  if (query.workspace) {
    row = await repo.findProvider(deps.db, query.workspace);
  } else if (query.project) {
    const project = projectAskedFrom(await projectsWithKey(deps.db, query.project), origin);
    row = project ? await repo.findProvider(deps.db, project.workspace_id) : undefined;
  } else if (query.email) {
    const workspaceId = await provenBy(deps.db, query.email.trim().toLowerCase().split('@').pop() ?? '');
    row = workspaceId ? await repo.findProvider(deps.db, workspaceId) : undefined;
  }
  if (!row) throw notFound('Single sign-on');
  return { workspaceId: row.workspace_id, displayName: row.display_name };
}

/**
 * The project a widget names by its key. A key is unique within a workspace, not across them,
 * so another workspace's project of the same key must not hide it: the one whose widget may
 * run on the asking page (an allowed origin) is meant; with none allowing it, the key's only
 * project. Two that allow the page (someone listed another's origin) name none for sure: the
 * embed's `data-workspace` names the workspace outright.
 */
function projectAskedFrom<P extends { allowed_origins: string }>(projects: P[], origin: string | null): P | undefined {
  const allowing = origin
    ? projects.filter((project) => (JSON.parse(project.allowed_origins) as string[]).includes(origin))
    : [];
  if (allowing.length === 1) return allowing[0];
  return allowing.length === 0 && projects.length === 1 ? projects[0] : undefined;
}

/** Members may not sign in with a password while the workspace requires single sign-on of them. */
export async function refusePasswordWhenRequired(db: Db, user: { workspace_id: string; role: string }) {
  if (user.role !== 'member') return;
  const row = await repo.findProvider(db, user.workspace_id);
  if (row?.require_for_members) {
    throw forbidden(
      `Your workspace signs its members in with ${row.display_name}: use “Continue with ${row.display_name}”.`,
    );
  }
}

const providerClient = (deps: SsoDeps, row: NonNullable<Awaited<ReturnType<typeof repo.findProvider>>>) => ({
  issuer: row.issuer,
  clientId: row.client_id,
  clientSecret: deps.secrets.open(row.client_secret),
});

/**
 * A browser extension's own page (its settings page), which no web page can claim as its
 * origin: its sign-in comes back to it like a widget's. The code the popup hands there is
 * worth nothing without the binding, which only the page that started holds.
 */
const EXTENSION_PAGE = /^(chrome-extension|moz-extension):\/\/[a-z0-9-]+$/;

/**
 * A sign-in through the workspace's provider begins: the URL to send the browser to. Asked
 * from another origin (a widget on the app's page, which opens it in a popup), that origin
 * must be one a project of the workspace allows, or a browser extension's page: the popup
 * hands its code back there only.
 */
export async function start(deps: SsoDeps, workspaceId: string, base: string, origin: string | null) {
  const row = await repo.findProvider(deps.db, workspaceId);
  if (!row) throw notFound('Single sign-on');
  const returnOrigin = origin && origin !== new URL(base).origin ? origin : null;
  if (
    returnOrigin &&
    !EXTENSION_PAGE.test(returnOrigin) &&
    !(await repo.originAllowed(deps.db, workspaceId, returnOrigin))
  ) {
    throw forbidden(`${returnOrigin} is not an allowed origin of this workspace's projects.`);
  }
  let request: Awaited<ReturnType<typeof authorizationRequest>>;
  try {
    request = await authorizationRequest(providerClient(deps, row), redirectUriOf(base), deps.clock);
  } catch (error) {
    throw new ProviderUnavailable((error as Error).message);
  }
  const now = deps.clock.now();
  const binding = issueToken('ssoBinding');
  await repo.pruneAttempts(deps.db, iso(now - ATTEMPT_TTL_MS));
  await repo.insertAttempt(deps.db, {
    workspace_id: workspaceId,
    state_hash: hashToken(request.state),
    nonce: request.nonce,
    code_verifier: deps.secrets.seal(request.codeVerifier),
    binding_hash: binding.hash,
    return_origin: returnOrigin,
    created_at: iso(now),
  });
  return { url: request.url, binding: binding.token };
}

/** The provider did not answer discovery: nothing to send the browser to. */
export class ProviderUnavailable extends Error {}

/** Why a sign-in through the provider was refused, in words for the person signing in; where its widget waits, if one does. */
export class Refused extends Error {
  constructor(
    message: string,
    readonly returnOrigin: string | null = null,
  ) {
    super(message);
  }
}

/**
 * The provider's answer: the ID token checked, the account found (its linked subject, else
 * its verified e-mail) or made (an allowed domain, when the workspace lets people join); a
 * one-time code for the console to exchange for a session.
 */
export async function callback(
  deps: SsoDeps,
  callbackUrl: URL,
): Promise<{ code: string; returnOrigin: string | null }> {
  const params = callbackUrl.searchParams;
  const state = params.get('state') ?? '';
  const attempt = state ? await repo.takeAttempt(deps.db, hashToken(state)) : undefined;
  const now = deps.clock.now();
  if (!attempt || Date.parse(attempt.created_at) + ATTEMPT_TTL_MS < now) {
    throw new Refused('This sign-in was not started here, was already used, or took too long: start it again.');
  }
  const returnOrigin = attempt.return_origin;
  if (params.get('error')) {
    throw new Refused(`The provider refused: ${params.get('error_description') ?? params.get('error')}.`, returnOrigin);
  }
  const row = await repo.findProvider(deps.db, attempt.workspace_id);
  if (!row) throw new Refused('This workspace no longer signs in with single sign-on.', returnOrigin);
  let identity: Identity;
  try {
    identity = await redeem(
      providerClient(deps, row),
      callbackUrl,
      { state, nonce: attempt.nonce, codeVerifier: deps.secrets.open(attempt.code_verifier) },
      deps.clock,
    );
  } catch (error) {
    throw new Refused(`The provider's answer could not be accepted: ${describeFailure(error)}`, returnOrigin);
  }
  const user = await accountFor(deps, row, identity).catch((error: unknown) => {
    throw error instanceof Refused ? new Refused(error.message, returnOrigin) : error;
  });
  const { token, hash } = issueToken('ssoExchange');
  await repo.insertExchange(deps.db, {
    workspace_id: row.workspace_id,
    state_hash: hash,
    nonce: '',
    code_verifier: '',
    user_id: user.id,
    exchange_hash: hash,
    binding_hash: attempt.binding_hash,
    return_origin: null,
    created_at: iso(now),
  });
  return { code: token, returnOrigin };
}

async function accountFor(
  deps: SsoDeps,
  row: NonNullable<Awaited<ReturnType<typeof repo.findProvider>>>,
  identity: Identity,
) {
  const workspaceId = row.workspace_id;
  const subject = `${row.issuer}|${identity.subject}`;
  const linked = await repo.findBySubject(deps.db, workspaceId, subject);
  if (linked?.removed_at) throw new Refused('This account was removed from the workspace.');
  if (linked) {
    const user = await accounts.findUserById(deps.db, workspaceId, linked.id);
    if (user) return user;
  }
  if (!identity.email || !identity.emailVerified) {
    throw new Refused(
      'The provider did not vouch for your e-mail address (email_verified): ask an admin to check the provider’s settings.',
    );
  }
  const email = identity.email;
  // The same words whether the e-mail has an account in another workspace or none: a refusal
  // never tells one workspace's provider who is on the server elsewhere.
  const notHere = () =>
    new Refused(
      `${email} is not in this workspace, and its domain may not join by itself: ask an admin to invite you.`,
    );
  const existing = await accounts.findUserByEmail(deps.db, email);
  if (existing) {
    if (existing.workspace_id !== workspaceId) throw notHere();
    if (existing.role === 'client') throw new Refused('Client accounts sign in through their link.');
    await repo.linkSubject(deps.db, workspaceId, existing.id, subject);
    return existing;
  }
  // Newcomers join only by a domain the workspace has proven it holds.
  const domain = email.split('@').pop() ?? '';
  if (!row.new_member_role || (await provenBy(deps.db, domain)) !== workspaceId) throw notHere();
  const role = row.new_member_role;
  return inTransaction(deps.db, async (trx) => {
    const user = await accounts.createUser(trx, deps.clock, {
      workspace_id: workspaceId,
      email,
      name: providedName(identity.name, email),
      role,
    });
    await repo.linkSubject(trx, workspaceId, user.id, subject);
    await recordAudit(
      trx,
      { workspaceId, actor: { id: user.id, name: user.name }, address: null },
      'member_added',
      userTarget(user),
      `${role}, by signing in with ${row.display_name}`,
    );
    return user;
  });
}

/**
 * The browser that started the sign-in trades the one-time code, with the secret it kept, for
 * its account (signed in by sign-in/service.ts). Without that secret the code is spent for nothing: a provider's answer for someone
 * else's sign-in, slipped into this browser (login cross-site request forgery), signs nobody in.
 */
export async function exchange(deps: SsoDeps, body: { code: string; binding: string }, client: Client) {
  await refuseWhenExhausted(deps.db, deps.rules.signInFailuresPerAddress, client.address, deps.clock.now());
  const row =
    tokenKind(body.code) === 'ssoExchange' ? await repo.takeExchange(deps.db, hashToken(body.code)) : undefined;
  const user =
    row?.user_id &&
    row.binding_hash === hashToken(body.binding) &&
    Date.parse(row.created_at) + EXCHANGE_TTL_MS >= deps.clock.now()
      ? await accounts.findUserById(deps.db, row.workspace_id, row.user_id)
      : undefined;
  if (!user) {
    await countEvent(deps.db, deps.rules.signInFailuresPerAddress, client.address, deps.clock.now());
    throw unauthenticated('This sign-in code is not valid, was used, or expired: sign in again.');
  }
  return user;
}

/**
 * A newcomer's name as their provider gives it (else their e-mail's local part). Nobody typed
 * it here, so what a name may not hold (controls, direction overrides) is dropped rather than
 * the sign-in refused.
 */
function providedName(given: string | null, email: string): string {
  const local = email.split('@')[0] ?? '';
  const name =
    withoutNameControls(given ?? '').trim() || withoutNameControls(local).trim() || withoutNameControls(email);
  return name.slice(0, 100);
}
