// The tables of who signs in and how: workspaces, people and agents, sessions, API keys,
// second factors, single sign-on and one-time links (invitations, password resets). The rest
// of the schema, and the `Tables` every query is typed by, are in schema.ts.
import type { Role, TwoFactorRequired } from '@svc/contract';
import type { Generated } from 'kysely';

/** Timestamps are ISO 8601 strings in both dialects (as in schema.ts). */
type Timestamp = string;

export interface WorkspaceTable {
  id: string;
  name: string;
  created_at: Timestamp;
  two_factor_required: Generated<TwoFactorRequired>;
  /** The language of those whose browser speaks none the apps do; null: English. */
  default_locale: Generated<string | null>;
  /** The digest of the export's header an import made it from; null: made on this server. */
  imported_from: Generated<string | null>;
  /** The bytes of its images and screenshots, kept by triggers (see migration 0025): never written here. */
  stored_bytes: Generated<number>;
  /** Its storage quota, set by the operator; null: the server's default. */
  storage_quota_bytes: Generated<number | null>;
}

export interface UserTable {
  id: string;
  workspace_id: string;
  email: string | null;
  name: string;
  role: Role;
  password_hash: string | null;
  access_token_hash: string | null;
  /** Set for a quick-access account limited to one project. */
  project_id: string | null;
  created_at: Timestamp;
  /** Set when an admin removed the account: it signs in no more, its comments stay. */
  removed_at: Timestamp | null;
  last_sign_in_at: Timestamp | null;
  /** The TOTP seed, sealed (see secrets.ts); set once enrolment is confirmed. */
  totp_secret: Generated<string | null>;
  /** A seed shown for enrolment, not yet confirmed with a code. */
  totp_pending_secret: Generated<string | null>;
  totp_enabled_at: Generated<Timestamp | null>;
  /** The last 30-second step a code was accepted for: a code is good once. */
  totp_last_step: Generated<number | null>;
  /** `<issuer>|<sub>` of the single sign-on provider that signed this account in. */
  sso_subject: Generated<string | null>;
  /** The language this person chose for the widget and the console; null: as the page or browser says. */
  locale: Generated<string | null>;
  /** 'agent': an agent's account, which acts through its API keys only (no e-mail, no password). */
  kind: Generated<'person' | 'agent'>;
}

/**
 * An e-mail domain of a workspace's single sign-on: it routes sign-ins (discovery by e-mail,
 * newcomers joining) only once proven; one workspace on a server proves a domain.
 */
export interface SsoDomainTable {
  id: string;
  workspace_id: string;
  /** Lower case. */
  domain: string;
  /** The value the domain's TXT record must hold. */
  token: string;
  proven_at: Timestamp | null;
  proven_by: 'dns' | 'operator' | null;
  created_at: Timestamp;
}

export interface SsoProviderTable {
  workspace_id: string;
  issuer: string;
  client_id: string;
  /** Sealed (see secrets.ts). */
  client_secret: string;
  display_name: string;
  /** The role of someone who joins on first sign-in; null: nobody joins that way. */
  new_member_role: 'admin' | 'member' | null;
  require_for_members: number;
  updated_at: Timestamp;
}

export interface SsoAttemptTable {
  id: string;
  workspace_id: string;
  state_hash: string;
  nonce: string;
  /** Sealed PKCE verifier. */
  code_verifier: string;
  /** Set once the provider answered: whom the one-time exchange code signs in. */
  user_id: string | null;
  exchange_hash: string | null;
  /** The hash of the secret the starting browser keeps; the exchange asks for it. */
  binding_hash: string | null;
  /** Set when a widget started it: the origin of the page its popup hands the code to. */
  return_origin: string | null;
  created_at: Timestamp;
}

export interface RecoveryCodeTable {
  id: string;
  workspace_id: string;
  user_id: string;
  code_hash: string;
  used_at: Timestamp | null;
}

/** Between a right password and a session: the second factor, or enrolling one. */
export interface SignInChallengeTable {
  id: string;
  workspace_id: string;
  user_id: string;
  token_hash: string;
  purpose: 'code' | 'enrol';
  pending_secret: string | null;
  attempts: Generated<number>;
  created_at: Timestamp;
}

export interface SessionTable {
  id: string;
  workspace_id: string;
  user_id: string;
  token_hash: string;
  created_at: Timestamp;
  /** When the session was last used, recorded at most every few minutes. */
  last_seen_at: Timestamp;
  /** The browser or client that signed in, for the sessions list. */
  user_agent: string | null;
}

export interface ApiKeyTable {
  id: string;
  workspace_id: string;
  user_id: string;
  name: string;
  key_hash: string;
  last_four: string;
  created_at: Timestamp;
  last_used_at: Timestamp | null;
}

/** An invitation or a password reset: a link that works once, until it expires. */
export interface OneTimeLinkTable {
  id: string;
  workspace_id: string;
  purpose: 'invite' | 'password_reset';
  token_hash: string;
  /** Invitations: who is invited, and as what. */
  email: string | null;
  role: 'admin' | 'member' | null;
  /** Password resets: whose password. */
  user_id: string | null;
  created_by_id: string | null;
  created_at: Timestamp;
  expires_at: Timestamp;
}
