// Shared by the generated suites (fuzz, tenancy): two workspaces with every kind of
// resource and caller, inputs derived from each route's own schema, and row counts to prove
// that a refused request wrote nothing. Nothing here lists routes: they come from the app.
import { randomBytes } from 'node:crypto';
import { mentionToken, replaceMentions } from '@svc/contract';
import fc from 'fast-check';
import type { FastifyInstance, InjectOptions } from 'fastify';
import { sql } from 'kysely';
import type { RegisteredRoute } from '../src/http/server.js';
import { keepDomains } from '../src/modules/sso/domains.js';
import { addClient, addMember, call, createComment, createProject, dialect, signUp } from './helpers.js';
import { cleanJpeg, cleanPng, cleanWebp, jpegWithMetadata, pngChunk, pngWithMetadata, replayOf } from './images.js';

export type Role = 'anonymous' | 'admin' | 'member' | 'apiKey' | 'client' | 'limitedClient';
export const ROLES: readonly Role[] = ['anonymous', 'admin', 'member', 'apiKey', 'client', 'limitedClient'];

interface Identity {
  email: string;
  password?: string;
  accessToken?: string;
  apiKey?: string;
}

export interface World {
  app: FastifyInstance;
  /** Values of workspace A (the callers' own) by path parameter name, for routes to reach real rows. */
  own: Record<string, string[]>;
  /** Every id and key of workspace B, which no caller of A may reach. */
  foreign: Record<string, string[]>;
  /** Workspace B's id. */
  foreignWorkspace: string;
  /** For the project-limited client: a project of its own workspace it may not see. */
  otherProjectKey: string;
  /** Strings of B that must never appear in an answer to A. */
  foreignMarkers: string[];
  /** The people of A and of B by id, for texts that mention (`x-mentions`). */
  people: { own: string[]; foreign: string[] };
  identities: Record<Exclude<Role, 'anonymous'>, Identity>;
  tokens: Record<Role, string | undefined>;
}

/** Any JSON value the tests handle. */
type Json = any;

async function idsOf(app: FastifyInstance, table: string, column: string, workspaceId: string): Promise<string[]> {
  const rows = await app.database.db
    .selectFrom(table as 'comments')
    .select(column as 'id')
    .where('workspace_id', '=', workspaceId)
    .execute();
  return rows.map((row) => String(row.id));
}

const usersOf = (values: Record<string, string[]>) => (values.id ?? []).filter((id) => id.startsWith('usr_'));

/** Two workspaces, each with projects, comments, replies, notifications, builds, keys and sessions. */
export async function buildWorld(app: FastifyInstance): Promise<World> {
  const populate = async (name: string) => {
    const marker = `${name.toLowerCase()}-${randomBytes(6).toString('hex')}`;
    const admin = await signUp(app, `${name} Admin`);
    const member = await addMember(app, admin, 'member', `${name} Member`);
    const project = await createProject(app, admin);
    const other = await createProject(app, admin);
    // One project keeps replays, so that a replay sent to its comments is stored (and checked).
    await call(app, 'PATCH', `/api/projects/${project.key}`, { token: admin.token, body: { replay: { on: true } } });
    const client = await addClient(app, admin, undefined, `${name} Client`);
    const limited = await addClient(app, admin, project.key, `${name} Limited`);
    const key = (await call(app, 'POST', '/api/me/api-keys', { token: member.token, body: { name: 'fuzz' } })).body;
    for (const [author, where] of [
      [client, project.key],
      [admin, other.key],
      [limited, project.key],
    ] as const) {
      const comment = await createComment(app, author, where, `${name} ${marker} feedback`);
      await call(app, 'POST', `/api/comments/${comment.id}/replies`, {
        token: member.token,
        body: { body: 'Looking' },
      });
      await call(app, 'POST', `/api/comments/${comment.id}/apply`, {
        token: member.token,
        body: { commitSha: 'abcdef1' },
      });
    }
    await call(app, 'POST', `/api/projects/${project.key}/builds`, { token: member.token, body: { sha: 'abcdef1' } });
    const workspaceId = admin.workspaceId;
    // A single sign-on domain listed (proven or not, the check of another workspace's is 404).
    const domain = `${marker}.test`;
    await keepDomains(app.database.db, workspaceId, [domain], new Date().toISOString());
    const values: Record<string, string[]> = {
      key: [project.key, other.key],
      domain: [domain],
      id: [
        ...(await idsOf(app, 'comments', 'id', workspaceId)),
        ...(await idsOf(app, 'notifications', 'id', workspaceId)),
        ...(await idsOf(app, 'api_keys', 'id', workspaceId)),
        ...(await idsOf(app, 'sessions', 'id', workspaceId)),
        ...(await idsOf(app, 'users', 'id', workspaceId)),
        ...(await idsOf(app, 'projects', 'id', workspaceId)),
        ...(await idsOf(app, 'builds', 'id', workspaceId)),
      ],
    };
    return { admin, member, client, limited, key, project, other, values, marker };
  };
  const a = await populate('Alpha');
  const b = await populate('Beta');
  const password = 'correct horse battery';
  return {
    app,
    own: a.values,
    foreign: b.values,
    foreignWorkspace: b.admin.workspaceId,
    otherProjectKey: a.other.key,
    foreignMarkers: [b.marker, b.admin.workspaceId, ...Object.values(b.values).flat()],
    people: { own: usersOf(a.values), foreign: usersOf(b.values) },
    identities: {
      admin: { email: a.admin.email, password },
      member: { email: a.member.email, password: 'another good password' },
      apiKey: { email: a.member.email, apiKey: a.key.key },
      client: { email: '', accessToken: a.client.accessToken },
      limitedClient: { email: '', accessToken: a.limited.accessToken },
    },
    tokens: {
      anonymous: undefined,
      admin: a.admin.token,
      member: a.member.token,
      apiKey: a.key.key,
      client: a.client.token,
      limitedClient: a.limited.token,
    },
  };
}

/**
 * New sessions for every caller: a route under test may have ended the old ones (logout).
 * When a route removed part of the world itself (a project, a member, a client link), the
 * world is built anew, so that the next route meets every kind of resource again.
 */
export async function signInAgain(world: World): Promise<void> {
  const { app } = world;
  const keys = [...new Set([...(world.own.key ?? []), world.otherProjectKey])];
  const projectsLeft = await app.database.db.selectFrom('projects').select('key').where('key', 'in', keys).execute();
  const complete = projectsLeft.length === keys.length;
  if (!complete || !(await trySignIn(world))) {
    Object.assign(world, await buildWorld(app));
  }
}

async function trySignIn(world: World): Promise<boolean> {
  for (const role of ROLES) {
    if (role === 'anonymous') continue;
    const identity = world.identities[role];
    if (identity.apiKey) {
      const me = await call(world.app, 'GET', '/api/me', { token: identity.apiKey });
      if (me.status !== 200) return false;
      continue;
    }
    const answer = identity.accessToken
      ? await call(world.app, 'POST', '/api/auth/quick-access', { body: { accessToken: identity.accessToken } })
      : await call(world.app, 'POST', '/api/auth/login', {
          body: { email: identity.email, password: identity.password },
        });
    // A session, not a second factor to answer (a route may have required one of admins).
    if (answer.status !== 200 || typeof answer.body.token !== 'string') return false;
    world.tokens[role] = answer.body.token;
  }
  return true;
}

/** Row counts of every table but the rate-limit counters (which count refusals by design), in one query. */
export async function rowCounts(app: FastifyInstance): Promise<Record<string, number>> {
  // This test database's own tables only: other test files' schemas come and go meanwhile.
  const listed =
    dialect === 'postgres'
      ? await sql<{
          name: string;
        }>`select table_name as name from information_schema.tables where table_schema = current_schema()`.execute(
          app.database.db,
        )
      : await sql<{
          name: string;
        }>`select name from sqlite_master where type = 'table' and name not like 'sqlite_%'`.execute(app.database.db);
  const tables = listed.rows
    .map((t) => t.name)
    .filter((name) => name !== 'rate_limits' && !name.startsWith('kysely_'))
    .sort();
  // A failed sign-in is refused and recorded: the audit log's record of it is the one write a refusal makes.
  const select = tables.map((name) =>
    name === 'audit_events'
      ? sql`(select count(*) from audit_events where action <> 'sign_in_failed') as ${sql.ref(name)}`
      : sql`(select count(*) from ${sql.table(name)}) as ${sql.ref(name)}`,
  );
  const result = await sql<Record<string, number>>`select ${sql.join(select)}`.execute(app.database.db);
  const row = result.rows[0] ?? {};
  return Object.fromEntries(Object.entries(row).map(([k, v]) => [k, Number(v)]));
}

type Schema = Record<string, Json>;

/**
 * A text that mentions (`x-mentions`): words and mentions of `people` (of both workspaces:
 * those of another are refused), by id alone or under any name, the way a client or a forger
 * writes them.
 */
const mentioningText = (people: readonly string[], maxLength: number) =>
  fc
    .array(
      fc.oneof(
        fc.string({ maxLength: 12 }),
        fc
          .tuple(fc.constantFrom(...people), fc.option(fc.constantFrom('Alpha Admin', 'Any name', '', 'x|y')))
          .map(([id, name]) => (name === null ? `<@${id}>` : `<@${id}|${name}>`)),
      ),
      { minLength: 1, maxLength: 4 },
    )
    .map((parts) => parts.join(' ').slice(0, maxLength));

/**
 * Values that fit `schema` (TypeBox's JSON Schema), for the fuzz's well-formed half; `people`:
 * the ids a text that mentions (`x-mentions`) may name.
 */
export function arbitraryFor(schema: Schema | undefined, people: readonly string[] = []): fc.Arbitrary<Json> {
  if (!schema) return fc.constant(undefined);
  if (schema.anyOf) return fc.oneof(...(schema.anyOf as Schema[]).map((option) => arbitraryFor(option, people)));
  if ('const' in schema) return fc.constant(schema.const);
  switch (schema.type) {
    case 'null':
      return fc.constant(null);
    case 'boolean':
      return fc.boolean();
    case 'integer':
      return fc.integer({ min: schema.minimum ?? -1_000_000, max: schema.maximum ?? 1_000_000 });
    case 'number':
      return fc.double({ min: schema.minimum ?? -1e9, max: schema.maximum ?? 1e9, noNaN: true });
    case 'string': {
      const max = Math.min(schema.maxLength ?? 60, 60);
      const min = schema.minLength ?? 0;
      if (schema.format === 'email') return fc.emailAddress().filter((e) => e.length <= (schema.maxLength ?? 254));
      if (schema.format === 'date-time') return fc.date({ noInvalidDate: true }).map((d) => d.toISOString());
      if (schema.format === 'date')
        return fc
          .date({ min: new Date('2000-01-01'), max: new Date('2999-12-31'), noInvalidDate: true })
          .map((d) => d.toISOString().slice(0, 10));
      const base = schema.pattern ? fc.stringMatching(new RegExp(schema.pattern, 'u')) : fc.string({ maxLength: max });
      const text = base.map((s) => s.slice(0, max)).filter((s) => s.length >= min);
      return schema['x-mentions'] && people.length ? fc.oneof(text, mentioningText(people, max)) : text;
    }
    case 'array':
      return fc.array(arbitraryFor(schema.items, people), { maxLength: Math.min(schema.maxItems ?? 4, 4) });
    case 'object': {
      const properties = (schema.properties ?? {}) as Record<string, Schema>;
      const record: Record<string, fc.Arbitrary<Json>> = {};
      for (const [name, property] of Object.entries(properties)) record[name] = arbitraryFor(property, people);
      return fc.record(record, { requiredKeys: (schema.required ?? []) as string[] });
    }
    default:
      return fc.anything();
  }
}

/** Values no schema of this API accepts where a string, number or object is expected. */
const hostileValue = fc.oneof(
  fc.constantFrom<Json>(
    null,
    true,
    0,
    -1,
    [],
    {},
    '',
    ' ',
    'a\u0000b',
    '\u0000',
    '\u001b[31m',
    'line\u000bfeed',
    '\u007f',
    '\ud800',
    'x'.repeat(20_000),
    { $ref: '#' },
    Array.from({ length: 500 }, () => 'x'),
  ),
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.integer(),
  fc.double(),
);

/** Raw JSON texts no route may choke on. */
const HOSTILE_BODY_TEXTS = [
  '{"body": ',
  '{"x":1e400,"y":-1e400,"ok":1e400}',
  `${'['.repeat(5000)}${']'.repeat(5000)}`,
  `{"a":${'{"a":'.repeat(2000)}1${'}'.repeat(2000)}}`,
  '\ufeff{}',
  'null',
  '"just a string"',
  '[1,2,3]',
  '{"__proto__":{"polluted":true}}',
  '{"constructor":{"prototype":{"polluted":true}}}',
];

/** Path parameter values no route may choke on, already in URL form. */
const HOSTILE_PATH_VALUES = [
  '%zz',
  '%00',
  '%0d%0a',
  'a'.repeat(101),
  '..%2f..%2fetc%2fpasswd',
  '%E2%80%AE',
  '%F0%9F%92%A9',
  encodeURIComponent("cmt_' or 1=1 --"),
  '%ff%fe',
];

/** Query strings no route may choke on. */
const HOSTILE_QUERIES = [
  'limit=-1',
  'limit=1e400',
  'limit=abc',
  'limit=1&limit=2',
  'cursor=%00',
  'cursor=bm90LWFuLWlk',
  `cursor=${'A'.repeat(300)}`,
  'status=everything',
  'unread=maybe',
  'pageUrl=%zz',
  `pageUrl=${'x'.repeat(3000)}`,
  '__proto__[x]=1',
];

/** A PNG whose header declares `width` × `height` pixels (and holds none): a decompression bomb's shape. */
function declaringPng(width: number, height: number): Buffer {
  const header = Buffer.from(cleanPng.subarray(16, 29));
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  return Buffer.concat([cleanPng.subarray(0, 8), pngChunk('IHDR', header), cleanPng.subarray(33)]);
}

/** Bodies for a route that takes an upload: whole images, with metadata, cut short, lying about their size, not images at all. */
const UPLOAD_BODIES: readonly Buffer[] = [
  replayOf('Choose Team'),
  cleanPng,
  cleanJpeg,
  cleanWebp,
  pngWithMetadata(),
  jpegWithMetadata(),
  cleanPng.subarray(0, 40),
  cleanJpeg.subarray(0, cleanJpeg.length - 30),
  declaringPng(100_000, 100_000),
  declaringPng(0, 0),
  Buffer.from('{"body": "not an image"}'),
  Buffer.alloc(0),
  Buffer.concat([cleanPng.subarray(0, 8), Buffer.alloc(300, 0xff)]),
];

/** A request body of an upload route: bytes, in one of its types or another. */
function uploadArbitrary(types: readonly string[]) {
  return fc.record({
    payload: fc.oneof(
      fc.constantFrom(...UPLOAD_BODIES),
      fc.uint8Array({ maxLength: 200 }).map((a) => Buffer.from(a)),
    ),
    headers: fc.constantFrom<Record<string, string>>(
      ...types.map((type) => ({ 'content-type': type })),
      { 'content-type': 'application/octet-stream' },
      { 'content-type': 'application/json' },
      {},
    ),
  });
}

export interface FuzzRequest {
  options: InjectOptions;
  description: string;
}

function pathWith(route: RegisteredRoute, values: Record<string, string>): string {
  const path = route.url.replace(/:(\w+)/g, (_, name: string) => values[name] ?? 'x');
  return path.endsWith('*') ? `${path.slice(0, -1).replace(/\/?$/, '/')}${values['*'] ?? ''}` : path;
}

const paramNames = (route: RegisteredRoute) => [...route.url.matchAll(/:(\w+)/g)].map((m) => m[1] as string);

/** A request to `route` built from its own schema, or from one of the hostile variants. */
export function requestArbitrary(route: RegisteredRoute, world: World): fc.Arbitrary<FuzzRequest> {
  const schema = (route.schema ?? {}) as Schema;
  const paramValue = (name: string) =>
    fc.oneof(
      fc.constantFrom(...(world.own[name] ?? ['x'])).map(encodeURIComponent),
      arbitraryFor(schema.params?.properties?.[name] ?? { type: 'string' }).map((v) => encodeURIComponent(String(v))),
      fc.constantFrom(...HOSTILE_PATH_VALUES),
    );
  const wildcard = fc.constantFrom('api/projects', 'docs/static/index.css', 'nothing/here', '%zz', '..%2f..%2f', '');
  const params = fc.record({
    ...Object.fromEntries(paramNames(route).map((name) => [name, paramValue(name)])),
    ...(route.url.endsWith('*') ? { '*': wildcard } : {}),
  });
  const query = fc.oneof(
    arbitraryFor(schema.querystring).map((q: Record<string, unknown> | undefined) =>
      q ? new URLSearchParams(Object.entries(q).map(([k, v]): [string, string] => [k, String(v)])).toString() : '',
    ),
    fc.constantFrom(...HOSTILE_QUERIES),
  );
  const bodySchema = schema.body as Schema | undefined;
  const people = [...world.people.own, ...world.people.foreign];
  const mutateField = (value: Json) =>
    bodySchema?.properties
      ? fc
          .tuple(fc.constantFrom(...Object.keys(bodySchema.properties)), hostileValue)
          .map(([field, hostile]) => JSON.stringify({ ...(value ?? {}), [field]: hostile }))
      : hostileValue.map((hostile) => JSON.stringify(hostile));
  const body = fc.oneof(
    arbitraryFor(bodySchema, people).map((value) => (value === undefined ? undefined : JSON.stringify(value))),
    arbitraryFor(bodySchema, people).chain(mutateField),
    fc.constantFrom(...HOSTILE_BODY_TEXTS),
  );
  const headers = fc.constantFrom<Record<string, string>>(
    { 'content-type': 'application/json' },
    { 'content-type': 'application/json' },
    { 'content-type': 'application/json', 'content-encoding': 'gzip' },
    { 'content-type': 'text/plain' },
    { 'content-type': 'application/json; charset=latin1' },
  );
  const hasBody = !['GET', 'HEAD', 'OPTIONS'].includes(route.method);
  if (route.bodyTypes) {
    return fc
      .record({ params, query, upload: uploadArbitrary(route.bodyTypes) })
      .map(({ params: values, query: q, upload }) => {
        const url = `${pathWith(route, values as Record<string, string>)}${q ? `?${q}` : ''}`;
        return {
          options: { method: route.method, url, headers: upload.headers, payload: upload.payload } as InjectOptions,
          description: `${route.method} ${url} ${upload.headers['content-type'] ?? '(no type)'}: ${upload.payload.length} bytes`,
        };
      });
  }
  return fc
    .record({ params, query, body: hasBody ? body : fc.constant(undefined), headers, binary: fc.boolean() })
    .map(({ params: values, query: q, body: text, headers: h, binary }) => {
      const url = `${pathWith(route, values as Record<string, string>)}${q ? `?${q}` : ''}`;
      // Now and then the bytes themselves are not UTF-8.
      const payload =
        text !== undefined && binary ? Buffer.concat([Buffer.from(text), Buffer.from([0xff, 0xfe])]) : text;
      return {
        options: {
          method: route.method,
          url,
          headers: text === undefined ? {} : h,
          remoteAddress: `10.${(url.length * 7) % 250}.0.${(q.length * 3) % 250}`,
          ...(payload === undefined ? {} : { payload }),
        } as InjectOptions,
        description: `${route.method} ${url} ${typeof payload === 'string' ? payload.slice(0, 200) : '<bytes>'}`,
      };
    });
}

/**
 * The query strings a route is tried with besides none: each switch of its query (a boolean)
 * turned on, since a switch may take the request down another path (`?now=true`).
 */
export function switchQueries(route: RegisteredRoute): string[] {
  const properties = ((route.schema?.querystring as Schema | undefined)?.properties ?? {}) as Record<string, Schema>;
  return Object.entries(properties)
    .filter(([, property]) => property.type === 'boolean')
    .map(([name]) => `?${name}=true`);
}

/**
 * The example body of a route (from its schema's `examples`), for requests that must pass
 * validation; for a route that takes an upload, an image or a replay (send it with `exampleHeaders`).
 */
export function exampleBody(route: RegisteredRoute): unknown {
  if (route.bodyTypes) return takesReplay(route) ? replayOf('Choose Team') : cleanPng;
  const body = route.schema?.body as Schema | undefined;
  return body?.examples?.[0];
}

/** The headers the example body goes with: an upload's content type. */
export function exampleHeaders(route: RegisteredRoute): Record<string, string> {
  if (!route.bodyTypes) return {};
  return { 'content-type': takesReplay(route) ? 'application/gzip' : 'image/png' };
}

/** A route that takes a replay (rrweb's events, gzipped) rather than an image. */
const takesReplay = (route: RegisteredRoute) => route.bodyTypes?.includes('application/gzip') ?? false;

export { paramNames, pathWith };

/**
 * A request to a route whose body holds mentions (`mentionFields`), to one of the caller's own
 * resources, well formed but for its text: its example with one such text written of words and
 * mentions of people of both workspaces, each switch of the example either way (a verdict's note
 * is read when it is not ok). So that the rule of mentions is met, and what it lets through is
 * stored, far more often than a request made wholly at random is.
 */
export function mentioningRequest(route: RegisteredRoute, world: World): fc.Arbitrary<FuzzRequest> {
  const example = (exampleBody(route) ?? {}) as Record<string, unknown>;
  const switches = Object.keys(example).filter((key) => typeof example[key] === 'boolean');
  const people = [...world.people.own, ...world.people.foreign];
  // A comment's route is sent to the comments of the caller's workspace, not to its other ids.
  const own = (name: string) =>
    (world.own[name] ?? ['x']).filter((value) => !route.url.startsWith('/api/comments/') || value.startsWith('cmt_'));
  const values = fc.record(Object.fromEntries(paramNames(route).map((name) => [name, fc.constantFrom(...own(name))])));
  return fc
    .tuple(values, fc.constantFrom(...mentionFields(route)), mentioningText(people, 200), fc.boolean())
    .map(([params, field, text, on]) => {
      const body = JSON.stringify({
        ...example,
        ...Object.fromEntries(switches.map((key) => [key, on])),
        [field]: text,
      });
      const url = pathWith(
        route,
        Object.fromEntries(Object.entries(params).map(([k, v]) => [k, encodeURIComponent(v)])),
      );
      return {
        options: {
          method: route.method,
          url,
          headers: { 'content-type': 'application/json' },
          payload: body,
        } as InjectOptions,
        description: `${route.method} ${url} ${body}`,
      };
    });
}

/** The fields of a route's body that hold mentions (`x-mentions` in the contract), by name. */
export function mentionFields(route: RegisteredRoute): string[] {
  const properties = ((route.schema?.body as Schema | undefined)?.properties ?? {}) as Record<string, Schema>;
  return Object.entries(properties)
    .filter(([, property]) => [property, ...((property.anyOf as Schema[]) ?? [])].some((p) => p['x-mentions']))
    .map(([name]) => name);
}

/**
 * Every stored mention that breaks the rule of mentions: of someone of another workspace than
 * the text's, or shown under another name than the person's own. The texts that hold mentions
 * are comments', replies' and the notes of verdicts "Not fixed".
 */
export async function strayMentions(app: FastifyInstance): Promise<string[]> {
  const { db } = app.database;
  const people = new Map(
    (await db.selectFrom('users').select(['id', 'name', 'workspace_id']).execute()).map((user) => [user.id, user]),
  );
  const texts = [
    ...(await db
      .selectFrom('comments')
      .select(['id', 'workspace_id', 'body as text'])
      .where('body', 'like', '%<@%')
      .execute()),
    ...(await db
      .selectFrom('replies')
      .select(['id', 'workspace_id', 'body as text'])
      .where('body', 'like', '%<@%')
      .execute()),
    ...(await db
      .selectFrom('comment_events')
      .select(['id', 'workspace_id', 'note as text'])
      .where('kind', '=', 'not_fixed')
      .where('note', 'like', '%<@%')
      .execute()),
  ];
  const stray: string[] = [];
  for (const { id, workspace_id, text } of texts) {
    replaceMentions(text ?? '', (userId, name) => {
      const person = people.get(userId);
      if (person?.workspace_id !== workspace_id) stray.push(`${id} mentions ${userId} of another workspace`);
      else if (mentionToken(person) !== `<@${userId}|${name}>`) stray.push(`${id} shows ${userId} as "${name}"`);
      return '';
    });
  }
  return stray;
}
