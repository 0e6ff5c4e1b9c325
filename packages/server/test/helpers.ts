import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance, InjectOptions } from 'fastify';
import { sql } from 'kysely';
import pg from 'pg';
import { type AppOptions, buildApp } from '../src/app.js';
import type { Clock } from '../src/clock.js';
import type { Config, DatabaseConfig } from '../src/config.js';
import { openDatabase } from '../src/db/dialect/index.js';
import { CHANGE_CHANNEL, STARTUP_LOCK_KEY } from '../src/db/dialect/postgres.js';
import { migrateToLatest } from '../src/db/migrate.js';
// What Fastify's instances carry here (ctx, database…), for the packages that read this file through the server's declarations.
import type {} from '../src/types.js';

/** Which database this run of the suite uses: `DIALECT=postgres` with `TEST_DATABASE_URL`, else SQLite. */
export const dialect = process.env.DIALECT === 'postgres' ? 'postgres' : 'sqlite';

/** Runs `fn` on a connection of its own to the test server's database, closed after. */
async function onTestServer<T>(base: string, fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: base });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

/**
 * A fresh, empty database for one test app: SQLite in memory, or a schema of its own on
 * the PostgreSQL test server (dropped again by `dropTestDatabase`).
 */
export async function createTestDatabase(): Promise<{ database: DatabaseConfig; drop: () => Promise<void> }> {
  if (dialect === 'sqlite') return { database: { dialect: 'sqlite', file: ':memory:' }, drop: async () => {} };
  const base = process.env.TEST_DATABASE_URL;
  if (!base) throw new Error('DIALECT=postgres needs TEST_DATABASE_URL');
  const schema = `t_${randomBytes(6).toString('hex')}`;
  await onTestServer(base, (admin) => admin.query(`create schema ${schema}`));
  const url = new URL(base);
  url.searchParams.set('options', `-c search_path=${schema}`);
  return {
    database: { dialect: 'postgres', url: url.toString() },
    drop: async () => {
      await onTestServer(base, async (client) => {
        // Under the start-up lock: a migration running meanwhile in another test file lists
        // every schema of the database (Kysely's introspection), and one vanishing mid-query fails it.
        await client.query('select pg_advisory_lock($1)', [STARTUP_LOCK_KEY]);
        try {
          await client.query(`drop schema if exists ${schema} cascade`);
        } finally {
          await client.query('select pg_advisory_unlock($1)', [STARTUP_LOCK_KEY]);
        }
      });
    },
  };
}

/** Names the lock under which the first test process of a run makes the template database. */
const TEMPLATE_LOCK_KEY = 7_240_531_119;

/** The migrations' sources, hashed: a changed migration gets a template of its own. */
function migrationsDigest(): string {
  const dir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../src/db/migrations');
  const hash = createHash('sha1');
  for (const file of fs.readdirSync(dir).sort()) {
    if (!file.endsWith('.test.ts')) hash.update(file).update(fs.readFileSync(path.join(dir, file)));
  }
  return hash.digest('hex').slice(0, 12);
}

const withDatabaseName = (url: string, name: string) => {
  const parsed = new URL(url);
  parsed.pathname = `/${name}`;
  return parsed.toString();
};

let template: Promise<string> | undefined;

/**
 * A database at the latest migration that test databases are copied from: migrating one
 * for every test app took most of the PostgreSQL pass. Made once for the whole run by the
 * first process that needs it (under an advisory lock), under another name until it is complete.
 */
function templateDatabase(base: string): Promise<string> {
  template ??= (async () => {
    const name = `svc_template_${migrationsDigest()}`;
    await onTestServer(base, async (admin) => {
      await admin.query('select pg_advisory_lock($1)', [TEMPLATE_LOCK_KEY]);
      try {
        const made = await admin.query('select 1 from pg_database where datname = $1', [name]);
        if (!made.rowCount) {
          const building = `${name}_building`;
          await admin.query(`drop database if exists ${building}`);
          await admin.query(`create database ${building}`);
          const database = openDatabase({ dialect: 'postgres', url: withDatabaseName(base, building) });
          try {
            await migrateToLatest(database.db, await database.currentSchema());
          } finally {
            await database.close();
          }
          await admin.query(`alter database ${building} rename to ${name}`);
        }
      } finally {
        await admin.query('select pg_advisory_unlock($1)', [TEMPLATE_LOCK_KEY]);
      }
    });
    return name;
  })();
  return template;
}

/**
 * A fresh database at the latest migration for one test app: SQLite in memory (the app
 * migrates it), or on PostgreSQL a copy of the template database, dropped again by `drop`.
 */
export async function createMigratedTestDatabase(): Promise<{ database: DatabaseConfig; drop: () => Promise<void> }> {
  if (dialect === 'sqlite') return createTestDatabase();
  const base = process.env.TEST_DATABASE_URL;
  if (!base) throw new Error('DIALECT=postgres needs TEST_DATABASE_URL');
  const source = await templateDatabase(base);
  const name = `t_${randomBytes(6).toString('hex')}`;
  await onTestServer(base, (admin) => admin.query(`create database ${name} template ${source}`));
  return {
    database: { dialect: 'postgres', url: withDatabaseName(base, name) },
    drop: () =>
      onTestServer(base, async (client) => {
        // A server process a test killed may not have said goodbye yet.
        await client.query('select pg_terminate_backend(pid) from pg_stat_activity where datname = $1', [name]);
        await client.query(`drop database if exists ${name}`);
      }),
  };
}

const DAY_MS = 24 * 60 * 60 * 1000;

/** The key the test servers encrypt secrets with. */
export const TEST_SECRET_KEY = randomBytes(32);

/** The documented defaults (the configuration test holds them against loadConfig). */
export const DEFAULT_LIMITS: Config['limits'] = {
  signInFailuresPerAddress: 50,
  signInFailuresPerAccount: 10,
  // Tests sign the same people in far more often than anyone would: throttles.test.ts holds these to their word.
  signInsPerAccount: 100_000,
  signInsPerAddress: 100_000,
  accessLinkFailuresPerAddress: 50,
  signUpsPerAddress: 10,
  commentsPerMinute: 60,
  repliesPerMinute: 60,
  apiKeysPerHour: 30,
  apiKeysPerUser: 50,
  insightsPerMinute: 100_000,
  searchesPerMinute: 100_000,
  exportsPerHour: 100_000,
  // Tests upload far more often than anyone would: storage.test.ts holds the pace to its word.
  uploadsPerMinute: 100_000,
  uploadMegabytesPerHour: 100_000,
  storageQuotaMegabytes: 5 * 1024,
};

type ConfigOverrides = Partial<Omit<Config, 'sessions' | 'limits'>> & {
  sessions?: Partial<Config['sessions']>;
  limits?: Partial<Config['limits']>;
};

export function testConfig(database: DatabaseConfig, overrides: ConfigOverrides = {}): Config {
  return {
    port: 0,
    host: '127.0.0.1',
    database,
    demo: false,
    signup: 'open',
    buildRateLimit: 120,
    pollFloorSeconds: 1,
    pollAdaptive: true,
    logLevel: 'silent',
    logFormat: 'json',
    trustProxy: null,
    shutdownTimeoutMs: 10_000,
    metricsToken: null,
    publicUrl: null,
    auditRetentionDays: 365,
    links: { inviteTtlMs: 7 * DAY_MS, passwordResetTtlMs: DAY_MS },
    secretKeys: [TEST_SECRET_KEY],
    keyFile: path.join(os.tmpdir(), 'svc-test-unused-secret.key'),
    // Port 9 (discard) on loopback: a test that looks up a domain without its own DNS server fails at once.
    dnsServers: ['127.0.0.1:9'],
    ...overrides,
    sessions: { idleMs: 14 * DAY_MS, lifetimeMs: 90 * DAY_MS, ...overrides.sessions },
    limits: { ...DEFAULT_LIMITS, ...overrides.limits },
  };
}

/**
 * A clock a test moves forward instead of sleeping: the system's time plus what was advanced.
 * `stopped`: the time it was made at plus what was advanced, so that a wait it measures is exact.
 */
export function manualClock({ stopped = false } = {}): Clock & { advance(ms: number): void } {
  const start = Date.now();
  let offset = 0;
  return {
    now: () => (stopped ? start : Date.now()) + offset,
    advance: (ms) => {
      offset += ms;
    },
  };
}

/** Resolves once `count` requests of `app` wait for comments to change: a long poll has reached its wait. */
export async function waitersAre(app: FastifyInstance, count: number): Promise<void> {
  while (app.ctx.watch.size !== count) await new Promise((resolve) => setTimeout(resolve, 5));
}

export interface TestApp {
  app: FastifyInstance;
  close: () => Promise<void>;
  /**
   * Another app on the same database, as a second server process would be: on PostgreSQL with
   * connections of its own, so that its requests do not queue behind this one's (a race
   * between two requests needs both at the database at once); on SQLite, whose file one
   * process owns, this app itself. Closed with this one.
   */
  twin: () => Promise<FastifyInstance>;
}

export async function createTestApp(overrides: ConfigOverrides = {}, options: AppOptions = {}): Promise<TestApp> {
  const { database, drop } = await createMigratedTestDatabase();
  const app = await buildApp(testConfig(database, overrides), options);
  const twins: FastifyInstance[] = [];
  return {
    app,
    close: async () => {
      for (const twin of twins) await twin.close();
      await app.close();
      await drop();
    },
    twin: async () => {
      if (database.dialect !== 'postgres') return app;
      const twin = await buildApp(testConfig(database, overrides), options);
      twins.push(twin);
      return twin;
    },
  };
}

/**
 * A race: sends `requests` at once and, once `answered` of them have answered, runs `meanwhile`
 * (best through `TestApp.twin`, so that it reaches the database beside them). Tried with
 * several values of `answered`, it meets the requests at different points of their work.
 */
export async function amid<T, U>(
  requests: (() => Promise<T>)[],
  answered: number,
  meanwhile: () => Promise<U>,
): Promise<{ answers: T[]; meanwhile: U }> {
  let count = 0;
  const running = requests.map(async (request) => {
    const answer = await request();
    count++;
    return answer;
  });
  while (count < answered) await new Promise((resolve) => setImmediate(resolve));
  const done = await meanwhile();
  return { answers: await Promise.all(running), meanwhile: done };
}

/** Values of `answered` for `amid`: the racing change sent at once, then after a few answers. */
export const RACE_POINTS = [0, 1, 2, 4, 8] as const;

export interface Answer<T = any> {
  status: number;
  headers: Record<string, string | string[] | number | undefined>;
  body: T;
}

/** Calls the API as `token` (or anonymously), with a JSON body when given one. */
export async function call<T = any>(
  app: FastifyInstance,
  method: InjectOptions['method'],
  url: string,
  options: { token?: string; body?: unknown; headers?: Record<string, string> } = {},
): Promise<Answer<T>> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  const response = await app.inject({
    method,
    url,
    headers,
    ...(options.body === undefined ? {} : { payload: options.body as InjectOptions['payload'] }),
  });
  const text = response.body;
  return { status: response.statusCode, headers: response.headers, body: text ? JSON.parse(text) : undefined };
}

let counter = 0;
const unique = () => `${Date.now().toString(36)}${(counter++).toString(36)}${randomBytes(2).toString('hex')}`;

export interface Member {
  token: string;
  id: string;
  email: string;
  role: string;
  workspaceId: string;
}

/** A new workspace and its admin. */
export async function signUp(app: FastifyInstance, name = 'Ada Admin'): Promise<Member> {
  const email = `admin-${unique()}@example.test`;
  const answer = await call(app, 'POST', '/api/signup', {
    body: { workspaceName: `Workspace ${unique()}`, name, email, password: 'correct horse battery' },
  });
  if (answer.status !== 201) throw new Error(`signup failed: ${JSON.stringify(answer.body)}`);
  return {
    token: answer.body.token,
    id: answer.body.user.id,
    email,
    role: 'admin',
    workspaceId: answer.body.workspace.id,
  };
}

/** A member (or second admin) of the admin's workspace, signed in. */
export async function addMember(
  app: FastifyInstance,
  admin: Member,
  role: 'admin' | 'member' = 'member',
  name = 'Mo Member',
) {
  const email = `${role}-${unique()}@example.test`;
  const password = 'another good password';
  const added = await call(app, 'POST', '/api/workspace/members', {
    token: admin.token,
    body: { name, email, role, password },
  });
  if (added.status !== 201) throw new Error(`add member failed: ${JSON.stringify(added.body)}`);
  const login = await call(app, 'POST', '/api/auth/login', { body: { email, password } });
  return {
    token: login.body.token as string,
    id: added.body.user.id as string,
    email,
    role,
    workspaceId: admin.workspaceId,
  };
}

/** A quick-access (client) account, signed in through its access token. */
export async function addClient(app: FastifyInstance, inviter: Member, projectKey?: string, name = 'Cleo Client') {
  const created = await call(app, 'POST', '/api/workspace/quick-access', {
    token: inviter.token,
    body: { name, ...(projectKey ? { projectKey } : {}) },
  });
  if (created.status !== 201) throw new Error(`quick access failed: ${JSON.stringify(created.body)}`);
  const session = await call(app, 'POST', '/api/auth/quick-access', {
    body: { accessToken: created.body.accessToken },
  });
  return {
    token: session.body.token as string,
    id: created.body.user.id as string,
    email: '',
    role: 'client',
    workspaceId: inviter.workspaceId,
    accessToken: created.body.accessToken as string,
  };
}

export async function createProject(app: FastifyInstance, admin: Member, extra: Record<string, unknown> = {}) {
  const key = `p-${unique()}`.slice(0, 40);
  const answer = await call(app, 'POST', '/api/projects', {
    token: admin.token,
    body: { key, name: 'Site', ...extra },
  });
  if (answer.status !== 201) throw new Error(`create project failed: ${JSON.stringify(answer.body)}`);
  return answer.body as { id: string; key: string };
}

/** What the widget sends with a comment about the browser it was written in (no errors), for a test to add to. */
export const capturedContext = {
  viewport: { width: 1280, height: 720 },
  screen: { width: 1920, height: 1080 },
  devicePixelRatio: 1,
  language: 'en',
  timeZone: 'UTC',
  colorScheme: 'light',
  title: 'Pricing',
  url: 'https://app.example.test/pricing',
  buildSha: null,
  errors: [],
};

export async function createComment(
  app: FastifyInstance,
  user: Member,
  projectKey: string,
  body = 'The header overlaps the menu',
) {
  const answer = await call(app, 'POST', `/api/projects/${projectKey}/comments`, {
    token: user.token,
    body: { body, pageUrl: 'https://app.example.test/pricing', anchor: { selector: 'main > h1', x: 12, y: 8 } },
  });
  if (answer.status !== 201) throw new Error(`create comment failed: ${JSON.stringify(answer.body)}`);
  return answer.body as { id: string; status: string };
}

/**
 * Resolves once this process has heard every change published before: PostgreSQL delivers a
 * process's own NOTIFYs a moment after their commit, and its listener announces a reset when it
 * connects; on a busy machine either can land inside the next test. At once on SQLite.
 */
export async function changesHeard(app: FastifyInstance): Promise<void> {
  const { changes, db, name } = app.database;
  if (name !== 'postgres') return;
  const key = `heard-${randomBytes(6).toString('hex')}`;
  const heard = new Promise<void>((resolve) =>
    changes.subscribe((change) => {
      if (change !== 'reset' && change.key === key) resolve();
    }),
  );
  for (let waited = 0; !changes.heard(); waited += 20) {
    if (waited > 30_000) throw new Error('the change feed is not listening after 30 s');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  // Delivered in order: once this one is heard, every earlier one was. (An unread count of nobody.)
  await sql`select pg_notify(${CHANGE_CHANNEL}, ${`unread:${key}`})`.execute(db);
  await heard;
}

/** Counts rows of a table, to prove that a refused request wrote nothing. */
export async function countRows(
  app: FastifyInstance,
  table:
    | 'comments'
    | 'replies'
    | 'users'
    | 'projects'
    | 'labels'
    | 'api_keys'
    | 'sessions'
    | 'workspaces'
    | 'sso_providers'
    | 'refused_origins'
    | 'images'
    | 'attachments',
) {
  const row = await app.database.db
    .selectFrom(table)
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/**
 * An export's records (as JSON values) with every id made new, consistently (a reference still
 * names what it named), and the people's e-mails moved from example.test to elsewhere.test: a
 * file that imports as a workspace of its own beside the one it was taken from.
 */
export function withNewIds(records: unknown[]): Record<string, any>[] {
  const fresh = new Map<string, string>();
  let n = 0;
  const text = records
    .map((record) => JSON.stringify(record))
    .join('\n')
    .replace(/\b(ws|prj|lbl|usr|cmt|rpl|evt)_[0-9A-Z]{26}\b/g, (id, prefix: string) => {
      if (!fresh.has(id)) fresh.set(id, `${prefix}_COPY${String(++n).padStart(22, '0')}`);
      return fresh.get(id) as string;
    })
    .replaceAll('@example.test', '@elsewhere.test');
  return text.split('\n').map((line) => JSON.parse(line));
}
