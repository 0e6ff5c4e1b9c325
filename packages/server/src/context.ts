// What the parts of the application share, built once by `buildApp`: the database, the caches,
// the clock, the limits, the secret box, where comment events go and who waits for them.
// Services take it first — `(ctx, actor, input)` — and each names the part it reads
// (`Pick<AppContext, …>`), so that a test can hand one a context of its own.
import fs from 'node:fs';
import type { Kysely } from 'kysely';
import { type Caches, createCaches } from './caches.js';
import { type Clock, systemClock } from './clock.js';
import type { Config } from './config.js';
import { type Database, openDatabase } from './db/dialect/index.js';
import type { Tables } from './db/schema.js';
import { AllowedOrigins } from './http/cors.js';
import { PollPace } from './http/poll-pace.js';
import { type RateRules, rateRules } from './limits/rules.js';
import type { CommentEventSink } from './modules/comments/events.js';
import { CommentWatch, commentChangeKey } from './modules/comments/watch.js';
import { notificationSink } from './modules/notifications/service.js';
import { listAllowedOrigins } from './modules/projects/repo.js';
import { openSecretBox, type SecretBox } from './secrets.js';

/** The server package's version: in the API reference, GET /api/server and exports. */
const SERVER_VERSION = (
  JSON.parse(fs.readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string }
).version;

export interface AppContext {
  config: Config;
  version: string;
  /** The database: `database.db` to query, `database.changes` to hear other processes' writes. */
  database: Database;
  /** `database.db`, which most queries need alone. */
  db: Kysely<Tables>;
  /** What time it is: the system's, unless a test moves its own. */
  clock: Clock;
  caches: Caches;
  rules: RateRules;
  secrets: SecretBox;
  /** Where comment actions announce themselves: notifications, and the change feed. */
  events: CommentEventSink;
  /** Requests waiting for comments to change (long polls). */
  watch: CommentWatch;
  /** The origins allowed to call the API (every project's). */
  origins: AllowedOrigins;
  /** The interval the unread-count answer asks clients to poll at. */
  pace: PollPace;
  /** The configuration's policies, read by the services that apply them. */
  sessions: Config['sessions'];
  links: Config['links'];
}

export interface ContextOptions {
  clock?: Clock;
  /** Said once at start (a secret key file in use); the log, once there is one. */
  warn: (message: string) => void;
}

/** Opens the database and builds what every part shares; `closeContext` ends it. */
export function createContext(config: Config, options: ContextOptions): AppContext {
  const database = openDatabase(config.database);
  const origins = new AllowedOrigins(() => listAllowedOrigins(database.db));
  // A project's origins changed, in this process or another: re-read them before the next answer.
  database.changes.subscribe((change) => {
    if (change === 'reset' || change.kind === 'origins') origins.invalidate();
  });
  const clock = options.clock ?? systemClock;
  const notifications = notificationSink(database, clock);
  let secrets: SecretBox;
  try {
    secrets = openSecretBox(config, options.warn);
  } catch (error) {
    void database.close();
    throw error;
  }
  return {
    config,
    version: SERVER_VERSION,
    database,
    db: database.db,
    clock,
    caches: createCaches(database),
    rules: rateRules(config),
    secrets,
    events: {
      raise: notifications.raise,
      changed: (trx, where) => database.changes.publish(trx, { kind: 'comments', key: commentChangeKey(where) }),
    },
    watch: new CommentWatch(database.changes),
    origins,
    pace: new PollPace(config.pollFloorSeconds, config.pollAdaptive),
    sessions: config.sessions,
    links: config.links,
  };
}

/** Waiting requests answer at once, so that closing does not wait for them. */
export function stopWaiting(ctx: AppContext): void {
  ctx.watch.close();
}

/** Ends what the context holds open: the pace's sampling, the database. */
export async function closeContext(ctx: AppContext): Promise<void> {
  ctx.pace.close();
  await ctx.database.close();
}
