// What the parts of the application share, built once by `buildApp` (see `wiring.ts`): the
// database, the caches, the clock, the limits, the secret box, where comment events go and
// who waits for them. Services take it first — `(ctx, actor, input)` — and each names the part
// it reads (`Pick<AppContext, …>`), so that a test can hand one a context of its own.
import type { Kysely } from 'kysely';
import type { Caches } from './caches.js';
import type { CommentEventSink } from './changes/comment-events.js';
import type { CommentWatch } from './changes/comment-watch.js';
import type { Clock } from './clock.js';
import type { Config } from './config.js';
import type { Database } from './db/dialect/index.js';
import type { Tables } from './db/schema.js';
import type { AllowedOrigins } from './http/cors.js';
import type { PollPace } from './http/poll-pace.js';
import type { RateRules } from './limits/rules.js';
import type { SecretBox } from './secrets.js';

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
