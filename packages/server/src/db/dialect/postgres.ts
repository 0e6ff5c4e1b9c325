import { Kysely, PostgresDialect, sql } from 'kysely';
import pg from 'pg';
import type { Db, Tables } from '../schema.js';
import { afterCommit, beforeCommit } from '../transaction.js';
import type { Change, ChangeHandler, Database, DayBounds, ShaRange } from './types.js';

// Read timestamptz as ISO 8601 strings, the shape the SQLite side stores and the API speaks.
const TIMESTAMPTZ_OID = 1184;
const INT8_OID = 20;
pg.types.setTypeParser(TIMESTAMPTZ_OID, (value) => new Date(value).toISOString());
// count(*) is bigint; our counts fit comfortably in a JS number.
pg.types.setTypeParser(INT8_OID, (value) => Number(value));

/** Arbitrary constant naming the start-up lock in pg_advisory_lock's key space. */
export const STARTUP_LOCK_KEY = 7_240_531_118;
export const CHANGE_CHANNEL = 'svc_changes';
const RECONNECT_MS = 1000;

/**
 * Server settings for every connection, added to any the URL already carries: only short
 * statements run here, and JIT compilation cost more than it saved (it tripled the build
 * report's matching statement on a million comments).
 */
function withSessionSettings(url: string): string {
  const parsed = new URL(url);
  const options = parsed.searchParams.get('options');
  parsed.searchParams.set('options', `${options ? `${options} ` : ''}-c jit=off`);
  return parsed.toString();
}

/** The kinds of change the feed carries; a payload of any other kind is ignored. */
const CHANGE_KINDS: ReadonlySet<string> = new Set<Change['kind']>(['credential', 'unread', 'origins', 'comments']);

/** Announces `payloads` on the change channel: one statement, delivered when `db`'s transaction commits. */
async function notify(db: Db, payloads: string[]): Promise<void> {
  if (!payloads.length) return;
  const calls = payloads.map((payload) => sql`pg_notify(${CHANGE_CHANNEL}, ${payload})`);
  await sql`select ${sql.join(calls)}`.execute(db);
}

export function postgresDatabase(databaseUrl: string): Database {
  const url = withSessionSettings(databaseUrl);
  const pool = new pg.Pool({ connectionString: url, max: 10 });
  // An idle client that loses its connection must not crash the process.
  pool.on('error', () => {});
  const db = new Kysely<Tables>({ dialect: new PostgresDialect({ pool }) });

  const handlers: ChangeHandler[] = [];
  /** Payloads of a transaction still to be announced, by transaction. */
  const queued = new WeakMap<object, string[]>();
  const emit = (change: Change | 'reset') => {
    for (const handler of handlers) handler(change);
  };
  let listening = false;
  let closed = false;
  let listener: pg.Client | null = null;

  // One connection per process LISTENs for the changes every process announces. While it
  // is down, nothing may be cached; when it comes back, whatever was cached is dropped.
  const listen = async () => {
    const client = new pg.Client({ connectionString: url });
    listener = client;
    const lost = () => {
      if (listener !== client) return;
      listening = false;
      listener = null;
      emit('reset');
      client.end().catch(() => {});
      if (!closed) setTimeout(() => void listen(), RECONNECT_MS).unref();
    };
    client.on('error', lost);
    client.on('end', lost);
    client.on('notification', (message) => {
      const payload = message.payload ?? '';
      const split = payload.indexOf(':');
      const kind = payload.slice(0, split);
      if (CHANGE_KINDS.has(kind)) emit({ kind: kind as Change['kind'], key: payload.slice(split + 1) });
    });
    try {
      await client.connect();
      await client.query(`LISTEN ${CHANGE_CHANNEL}`);
      if (listener === client && !closed) {
        emit('reset');
        listening = true;
      }
    } catch {
      lost();
    }
  };

  return {
    name: 'postgres',
    db,
    withStartupLock: (fn) =>
      db.connection().execute(async (conn) => {
        await sql`select pg_advisory_lock(${STARTUP_LOCK_KEY})`.execute(conn);
        try {
          return await fn();
        } finally {
          await sql`select pg_advisory_unlock(${STARTUP_LOCK_KEY})`.execute(conn);
        }
      }),
    isUniqueViolation: (error) =>
      typeof error === 'object' && error !== null && 'code' in error && error.code === '23505',
    currentSchema: async () => {
      const { rows } = await sql<{ schema: string }>`select current_schema() as schema`.execute(db);
      return rows[0]?.schema;
    },
    changes: {
      publish: async (trx, change) => {
        const payload = `${change.kind}:${change.key}`;
        // The changes of one transaction are announced together, in its last statement.
        const waiting = queued.get(trx);
        if (waiting) waiting.push(payload);
        else if (beforeCommit(trx, (db) => notify(db, queued.get(trx) ?? []))) queued.set(trx, [payload]);
        else await notify(trx, [payload]);
        // This process hears its own NOTIFY too, but a moment later; act at commit.
        afterCommit(trx, () => emit(change));
      },
      subscribe: (handler) => {
        handlers.push(handler);
        if (!listener && !closed) void listen();
      },
      heard: () => listening,
    },
    // `= any(array(…))`: the matching ids are looked up first, then fetched by primary key. As
    // a plain `in (…)`, a rare word's estimate can lead the planner to walk every comment by id.
    lockComment: async (trx, workspaceId, id) => {
      await sql`select id from comments where workspace_id = ${workspaceId} and id = ${id} for update`.execute(trx);
    },
    commentHasWord: (word) =>
      sql<boolean>`comments.id = any(array(select id from comments where to_tsvector('simple', body) @@ plainto_tsquery('simple', ${word})
        union select comment_id from replies where to_tsvector('simple', body) @@ plainto_tsquery('simple', ${word})))`,
    // pg parses json; an aggregate over no row is null.
    jsonArrayOf: (column, filter) => sql`json_agg(${column}) filter (where ${filter})`,
    parseJsonArray: (value) => (Array.isArray(value) ? value : []),
    daysTable: (days) =>
      sql<DayBounds>`(select * from unnest(${days.map((d) => d.day)}::text[], ${days.map((d) => d.starts)}::timestamptz[], ${days.map((d) => d.ends)}::timestamptz[]) as d(day, starts, ends))`,
    rangesTable: (ranges) =>
      sql<ShaRange>`(select * from unnest(${ranges.map((r) => r.lo)}::text[], ${ranges.map((r) => r.hi)}::text[], ${ranges.map((r) => r.sha)}::text[]) as r(lo, hi, sha))`,
    ping: async () => {
      await sql`select 1`.execute(db);
    },
    close: async () => {
      closed = true;
      listening = false;
      const client = listener;
      listener = null;
      await client?.end().catch(() => {});
      await db.destroy();
    },
  };
}
