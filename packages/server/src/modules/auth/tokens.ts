import { hash, randomBytes } from 'node:crypto';

/** Bearer secrets carry a readable prefix so a leaked one is recognisable (and greppable). */
export const TOKEN_PREFIX = {
  session: 'svc_sess_',
  apiKey: 'svc_key_',
  access: 'svc_acc_',
  invite: 'svc_inv_',
  passwordReset: 'svc_rst_',
  challenge: 'svc_chl_',
  ssoState: 'svc_sst_',
  ssoExchange: 'svc_ssx_',
  ssoBinding: 'svc_ssb_',
} as const;

export type TokenKind = keyof typeof TOKEN_PREFIX;

export interface IssuedToken {
  token: string;
  hash: string;
}

/** 32 random bytes behind the prefix; only the SHA-256 hash is ever stored. */
export function issueToken(kind: TokenKind): IssuedToken {
  const token = TOKEN_PREFIX[kind] + randomBytes(32).toString('base64url');
  return { token, hash: hashToken(token) };
}

/** One-shot hashing: it runs on every authenticated request, polls included. */
export function hashToken(token: string): string {
  return hash('sha256', token, 'hex');
}

export function tokenKind(token: string): TokenKind | null {
  for (const [kind, prefix] of Object.entries(TOKEN_PREFIX)) {
    if (token.startsWith(prefix)) return kind as TokenKind;
  }
  return null;
}
