// A real OpenID provider (oidc-provider, a certified implementation) on a local port, for the
// single sign-on tests: its people are whatever claims a test gives them; its login and
// consent screens (the library's development interactions) are answered by `signInAt` as a
// browser would, following redirects and keeping cookies.
import type { AddressInfo } from 'node:net';
import { decodeJwt, decodeProtectedHeader, exportJWK, generateKeyPair, type JWK, SignJWT } from 'jose';
import Provider from 'oidc-provider';

export interface TestProvider {
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** The claims of an account (its id is its subject). */
  people: Map<string, Record<string, unknown>>;
  /** Rewrites the next ID token's claims and signs it again with the provider's key (a provider gone wrong). */
  tamperNextIdToken(change: (claims: Record<string, unknown>) => Record<string, unknown>): void;
  /** Goes through the provider's sign-in as `account`; the URL the provider sends the browser back to. */
  signInAt(authorizationUrl: string, account: string): Promise<URL>;
  close(): Promise<void>;
}

/** How long the test provider's ID tokens last. */
export const ID_TOKEN_TTL_S = 120;

export async function startTestProvider(redirectUri: string): Promise<TestProvider> {
  const { privateKey } = await generateKeyPair('RS256', { extractable: true });
  const jwk: JWK = { ...(await exportJWK(privateKey)), kid: 'test-key', use: 'sig', alg: 'RS256' };
  const people = new Map<string, Record<string, unknown>>();
  const clientId = 'feedback-comments';
  const clientSecret = 'a-client-secret-of-the-test-provider';
  let tamper: ((claims: Record<string, unknown>) => Record<string, unknown>) | null = null;

  // The issuer needs the port, which the listening server knows: listen first, then mount.
  const { createServer } = await import('node:http');
  let handler: ((req: import('node:http').IncomingMessage, res: import('node:http').ServerResponse) => void) | null =
    null;
  const server = createServer((req, res) => handler?.(req, res));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: clientId,
        client_secret: clientSecret,
        redirect_uris: [redirectUri],
        grant_types: ['authorization_code'],
        response_types: ['code'],
        token_endpoint_auth_method: 'client_secret_basic',
      },
    ],
    jwks: { keys: [jwk] },
    // ID tokens expire within minutes, so that a test can let one expire by moving the relying party's clock.
    ttl: { IdToken: ID_TOKEN_TTL_S },
    cookies: { keys: ['cookie-key-of-the-test-provider'] },
    claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name'] },
    features: { devInteractions: { enabled: true } },
    findAccount: async (_ctx, id) => ({
      accountId: id,
      claims: async () => ({ sub: id, ...(people.get(id) ?? {}) }),
    }),
  });
  // A provider gone wrong, on demand: the token endpoint's ID token rewritten and signed again.
  provider.use(async (ctx, next) => {
    await next();
    if (!tamper || ctx.path !== '/token' || ctx.status !== 200) return;
    const body = ctx.body as { id_token?: string };
    if (!body.id_token) return;
    const claims = tamper(decodeJwt(body.id_token) as Record<string, unknown>);
    tamper = null;
    body.id_token = await new SignJWT(claims)
      .setProtectedHeader(decodeProtectedHeader(body.id_token) as never)
      .sign(privateKey);
  });
  handler = provider.callback();

  return {
    issuer,
    clientId,
    clientSecret,
    people,
    tamperNextIdToken(change) {
      tamper = change;
    },
    async signInAt(authorizationUrl, account) {
      const cookies = new Map<string, string>();
      let url = authorizationUrl;
      let form: URLSearchParams | null = null;
      for (let step = 0; step < 20; step += 1) {
        const response: Response = await fetch(url, {
          method: form ? 'POST' : 'GET',
          redirect: 'manual',
          headers: {
            cookie: [...cookies].map(([name, value]) => `${name}=${value}`).join('; '),
            ...(form ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
          },
          ...(form ? { body: form.toString() } : {}),
        });
        for (const cookie of response.headers.getSetCookie()) {
          const [pair = ''] = cookie.split(';');
          const at = pair.indexOf('=');
          cookies.set(pair.slice(0, at), pair.slice(at + 1));
        }
        const location = response.headers.get('location');
        form = null;
        if (location) {
          const next = new URL(location, url);
          if (next.href.startsWith(redirectUri)) return next;
          url = next.href;
          continue;
        }
        const page: string = await response.text();
        if (response.status === 200 && /\/interaction\//.test(url)) {
          form = new URLSearchParams(
            page.includes('name="login"')
              ? { prompt: 'login', login: account, password: 'any' }
              : { prompt: 'consent' },
          );
          continue;
        }
        throw new Error(`The test provider answered ${response.status} at ${url}: ${page.slice(0, 300)}`);
      }
      throw new Error('The test provider kept redirecting');
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
