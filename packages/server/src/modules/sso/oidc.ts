// The OpenID Connect relying party, through openid-client (certified): discovery of the
// provider, the authorization URL with PKCE, state and nonce, and the code grant, which
// validates the ID token (signature from the provider's keys, issuer, audience, expiry within
// a minute's clock skew, nonce).
import * as client from 'openid-client';
import type { Clock } from '../../clock.js';

export interface ProviderClient {
  issuer: string;
  clientId: string;
  clientSecret: string;
}

/** How long a provider's discovered metadata is kept before it is read again. */
const METADATA_TTL_MS = 60 * 60_000;
const TIMEOUT_S = 10;
const CLOCK_TOLERANCE_S = 60;

/** Plain http only for a provider on this machine (a development Keycloak, the tests'). */
const localHttp = (issuer: URL) =>
  issuer.protocol === 'http:' && ['localhost', '127.0.0.1', '[::1]'].includes(issuer.hostname);

/** Why a provider cannot be used, in words for the admin who configures it. */
export class ProviderError extends Error {}

const metadataCache = new Map<string, { metadata: client.ServerMetadata; at: number }>();

async function serverMetadata(issuer: string, now: number): Promise<client.ServerMetadata> {
  const cached = metadataCache.get(issuer);
  if (cached && now - cached.at < METADATA_TTL_MS) return cached.metadata;
  let url: URL;
  try {
    url = new URL(issuer);
  } catch {
    throw new ProviderError('The issuer is not a URL.');
  }
  if (url.protocol !== 'https:' && !localHttp(url)) throw new ProviderError('The issuer must be an https:// URL.');
  try {
    const config = await client.discovery(url, 'discovery', undefined, undefined, {
      timeout: TIMEOUT_S,
      ...(localHttp(url) ? { execute: [client.allowInsecureRequests] } : {}),
    });
    const metadata = config.serverMetadata();
    metadataCache.set(issuer, { metadata, at: now });
    return metadata;
  } catch (error) {
    throw new ProviderError(
      `The provider could not be discovered at ${issuer}/.well-known/openid-configuration: ${(error as Error).message}`,
    );
  }
}

/** The client for one sign-in, its clock set to the server's (tests move theirs). */
async function configurationOf(provider: ProviderClient, clock: Clock) {
  const now = clock.now();
  const config = new client.Configuration(
    await serverMetadata(provider.issuer, now),
    provider.clientId,
    {
      client_secret: provider.clientSecret,
      [client.clockSkew]: Math.round((now - Date.now()) / 1000),
      [client.clockTolerance]: CLOCK_TOLERANCE_S,
    },
    client.ClientSecretBasic(provider.clientSecret),
  );
  config.timeout = TIMEOUT_S;
  if (localHttp(new URL(provider.issuer))) client.allowInsecureRequests(config);
  return config;
}

/** Checks that the issuer answers discovery (before a configuration is saved). */
export async function discover(issuer: string, clock: Clock): Promise<void> {
  metadataCache.delete(issuer);
  await serverMetadata(issuer, clock.now());
}

/** Where to send the browser, and what to keep until the provider answers. */
export async function authorizationRequest(provider: ProviderClient, redirectUri: string, clock: Clock) {
  const config = await configurationOf(provider, clock);
  const codeVerifier = client.randomPKCECodeVerifier();
  const state = client.randomState();
  const nonce = client.randomNonce();
  const url = client.buildAuthorizationUrl(config, {
    redirect_uri: redirectUri,
    scope: 'openid email profile',
    response_type: 'code',
    code_challenge: await client.calculatePKCECodeChallenge(codeVerifier),
    code_challenge_method: 'S256',
    state,
    nonce,
  });
  return { url: url.href, state, nonce, codeVerifier };
}

/**
 * An error of the protocol checks in words: openid-client's own message wraps a more precise
 * one (`unexpected JWT "aud" (audience) claim value`), whose details name the claim.
 */
export function describeFailure(error: unknown): string {
  let message = error instanceof Error ? error.message : String(error);
  let claim: unknown;
  let cause: unknown = error instanceof Error ? error.cause : undefined;
  for (let depth = 0; cause && depth < 4; depth += 1) {
    if (cause instanceof Error) message = cause.message;
    else claim ??= (cause as { claim?: unknown }).claim;
    cause = (cause as { cause?: unknown }).cause;
  }
  return typeof claim === 'string' && !message.includes(`"${claim}"`) ? `${message} (${claim})` : message;
}

/** What the provider says of the person, once their ID token is validated. */
export interface Identity {
  subject: string;
  email: string | null;
  emailVerified: boolean;
  name: string | null;
}

/** Redeems the code of the provider's answer (`callbackUrl`, as the browser reached it); throws when anything is off. */
export async function redeem(
  provider: ProviderClient,
  callbackUrl: URL,
  expected: { state: string; nonce: string; codeVerifier: string },
  clock: Clock,
): Promise<Identity> {
  const config = await configurationOf(provider, clock);
  const tokens = await client.authorizationCodeGrant(config, callbackUrl, {
    pkceCodeVerifier: expected.codeVerifier,
    expectedState: expected.state,
    expectedNonce: expected.nonce,
    idTokenExpected: true,
  });
  const idToken = tokens.claims();
  if (!idToken) throw new Error('The provider sent no ID token.');
  // Providers that keep the e-mail out of the ID token give it at the userinfo endpoint, for
  // the same subject (checked).
  const claims: Record<string, unknown> & { sub: string } =
    idToken.email === undefined && tokens.access_token
      ? { ...idToken, ...(await client.fetchUserInfo(config, tokens.access_token, idToken.sub)) }
      : idToken;
  const text = (value: unknown) => (typeof value === 'string' && value.trim() ? value.trim() : null);
  return {
    subject: claims.sub,
    email: text(claims.email)?.toLowerCase() ?? null,
    // Some providers send "true" as a string; Microsoft Entra says it with xms_edov (the
    // e-mail's domain is verified by the tenant) when that optional claim is configured.
    emailVerified: claims.email_verified === true || claims.email_verified === 'true' || claims.xms_edov === true,
    name: text(claims.name) ?? text(claims.preferred_username),
  };
}
