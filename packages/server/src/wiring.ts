// Builds the application context (see context.ts) from the configuration: opens the database
// and makes what the parts share, once; and ends it.
import fs from 'node:fs';
import { createCaches } from './caches.js';
import { CommentWatch, commentChangeKey } from './changes/comment-watch.js';
import { type Clock, systemClock } from './clock.js';
import type { Config } from './config.js';
import type { AppContext } from './context.js';
import { openDatabase } from './db/dialect/index.js';
import { AllowedOrigins } from './http/cors.js';
import { PollPace } from './http/poll-pace.js';
import { rateRules } from './limits/rules.js';
import { notificationSink } from './modules/notifications/service.js';
import { listAllowedOrigins } from './modules/projects/repo.js';
import { openSecretBox, type SecretBox } from './secrets.js';

/** The server package's version: in the API reference, GET /api/server and exports. */
const SERVER_VERSION = (
  JSON.parse(fs.readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string }
).version;

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
