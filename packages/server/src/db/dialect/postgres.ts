import { createHash } from 'node:crypto';
import { CompiledQuery, Kysely, PostgresDialect, sql } from 'kysely';
import pg from 'pg';
import { ADD_TO_COMPACTED, foldedDeltas, ROLLUP_COLUMNS } from '../rollups.js';
import type { Db, Tables } from '../schema.js';
import { afterCommit, beforeCommit, holdLateWrites, inTransaction } from '../transaction.js';
import type { Change, ChangeHandler, Database, ShaRange } from './types.js';

// Read timestamptz as ISO 8601 strings, the shape the SQLite side stores and the API speaks.
const TIMESTAMPTZ_OID = 1184;
const INT8_OID = 20;
pg.types.setTypeParser(TIMESTAMPTZ_OID, (value) => new Date(value).toISOString());
// count(*) is bigint; our counts fit comfortably in a JS number.
pg.types.setTypeParser(INT8_OID, (value) => Number(value));

/** Arbitrary constant naming the start-up lock in pg_advisory_lock's key space. */
export const STARTUP_LOCK_KEY = 7_240_531_118;
/** Names the insight roll-ups' compaction in the same key space: one process folds at a time. */
const ROLLUP_LOCK_KEY = 7_240_531_120;
export const CHANGE_CHANNEL = 'svc_changes';
const RECONNECT_MS = 1000;

/**
 * Server settings for every connection, added to any the URL already carries: only short
 * statements run here, and JIT compilation cost more than it saved (it tripled the build
 * report's matching statement on a million comments).
 */
function withSessionSettings(url: string, settings = '-c jit=off'): string {
  const parsed = new URL(url);
  const options = parsed.searchParams.get('options');
  parsed.searchParams.set('options', `${options ? `${options} ` : ''}${settings}`);
  return parsed.toString();
}

/** The kinds of change the feed carries; a payload of any other kind is ignored. */
const CHANGE_KINDS: ReadonlySet<string> = new Set<Change['kind']>(['credential', 'unread', 'origins', 'comments']);

/**
 * Long reads (a year of insights, a search over every comment) that one server process has in
 * the database at once; more wait for the connection of theirs. The database's cores serve
 * every workspace's requests: a team looping on insights takes one (`bench/heavy-reads`:
 * another tenant's p99 4.1x alone with two, 3.5x with one).
 */
const LONG_READS_AT_ONCE = 1;

/** Statements each connection keeps prepared; past it, new statements are parsed on every run. */
const PREPARED_PER_CONNECTION = 500;

/** PostgreSQL's refusal to run a prepared `select *` whose columns a migration has changed since. */
const STALE_PLAN = '0A000';

/**
 * A connection that prepares each statement with parameters the first time it runs it,
 * named after its text, and runs it by name after that. Parsing and planning were most of
 * the database's time on a short write (a reply: 3.6 ms of about 5), and the server runs the
 * same few hundred statements all day. Those without parameters (begin, commit, DDL) are not
 * prepared; past PREPARED_PER_CONNECTION names (statements built with a varying number of
 * values) a statement is parsed each time, as before, so that memory stays bounded. When a
 * migration run by a newer server changes the columns of a prepared `select *`, PostgreSQL
 * refuses it once: outside a transaction it is run again unprepared, and on this connection
 * it stays unprepared.
 */
class PreparingClient extends pg.Client {
  private readonly prepared = new Set<string>();
  private readonly stale = new Set<string>();

  // pg's query has a dozen overloads; the promise form with values is the one Kysely uses.
  override query(config: any, values?: any, callback?: any): any {
    const promised = typeof config === 'string' && Array.isArray(values) && values.length > 0 && !callback;
    if (!promised) return super.query(config, values, callback);
    const name = `s${createHash('sha1').update(config).digest('base64url')}`;
    if (this.stale.has(name) || (!this.prepared.has(name) && this.prepared.size >= PREPARED_PER_CONNECTION)) {
      return super.query(config, values);
    }
    this.prepared.add(name);
    return super.query({ name, text: config, values }).catch((error: { code?: string }) => {
      if (error?.code !== STALE_PLAN) throw error;
      this.stale.add(name);
      // In a transaction the refusal has ended it: the retry fails too, and the refusal is what to report.
      return super.query(config, values).catch(() => Promise.reject(error));
    });
  }
}

/** What a transaction sends with its last statement: writes nobody reads back, and the changes it announces. */
type LastStatement = { writes: CompiledQuery[]; payloads: string[] };

/** `$n` placeholders outside quotes, moved up by `offset`. */
const renumbered = (text: string, offset: number) =>
  text.replace(/'(?:[^']|'')*'|"(?:[^"]|"")*"|\$(\d+)/g, (match, index?: string) =>
    index === undefined ? match : `$${Number(index) + offset}`,
  );

/**
 * Sends the writes and announcements of `last` in one statement: each write a data-modifying
 * `WITH` (PostgreSQL runs each once, whether or not the rest reads it), then `pg_notify` for
 * each announcement, delivered when the transaction commits.
 */
async function sendLast(db: Db, { writes, payloads }: LastStatement): Promise<void> {
  if (!writes.length && !payloads.length) return;
  const parameters: unknown[] = [];
  const parts = writes.map((write, index) => {
    const text = `w${index} as (${renumbered(write.sql, parameters.length)})`;
    parameters.push(...write.parameters);
    return text;
  });
  const calls = payloads.map((payload) => {
    parameters.push(CHANGE_CHANNEL, payload);
    return `pg_notify($${parameters.length - 1}, $${parameters.length})`;
  });
  const text = `${parts.length ? `with ${parts.join(', ')} ` : ''}select ${calls.join(', ') || '1'}`;
  await db.executeQuery(CompiledQuery.raw(text, parameters));
}

/**
 * One connection for a thread's long reads (an export): every transaction on it read-only,
 * so that a write sent there by mistake is refused by the database itself.
 */
export function postgresReadingConnection(databaseUrl: string): Kysely<Tables> {
  const url = withSessionSettings(databaseUrl, '-c jit=off -c default_transaction_read_only=on');
  const pool = new pg.Pool({ connectionString: url, max: 1 });
  pool.on('error', () => {});
  return new Kysely<Tables>({ dialect: new PostgresDialect({ pool }) });
}

export function postgresDatabase(databaseUrl: string): Database {
  const url = withSessionSettings(databaseUrl);
  const pool = new pg.Pool({ connectionString: url, max: 10, Client: PreparingClient });
  // An idle client that loses its connection must not crash the process.
  pool.on('error', () => {});
  const db = new Kysely<Tables>({ dialect: new PostgresDialect({ pool }) });
  const readPool = new pg.Pool({ connectionString: url, max: LONG_READS_AT_ONCE, Client: PreparingClient });
  readPool.on('error', () => {});
  const reads = new Kysely<Tables>({ dialect: new PostgresDialect({ pool: readPool }) });

  const handlers: ChangeHandler[] = [];
  /** By transaction: what its last statement will send. */
  const lastStatements = new WeakMap<object, LastStatement>();
  /** The last statement of `trx`, or null outside a transaction begun by `inTransaction` or a `readThenWrite`. */
  const lastOf = (trx: Db): LastStatement | null => {
    const known = lastStatements.get(trx);
    if (known) return known;
    const last: LastStatement = { writes: [], payloads: [] };
    if (!beforeCommit(trx, (db) => sendLast(db, last))) return null;
    lastStatements.set(trx, last);
    return last;
  };
  // Each statement is a round trip to another process: the writes of a transaction that
  // nothing reads back go with its last statement.
  holdLateWrites(db, (trx, write) => {
    const last = lastOf(trx);
    last?.writes.push(write);
    return last !== null;
  });
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
    reads,
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
    isForeignKeyViolation: (error) =>
      typeof error === 'object' && error !== null && 'code' in error && error.code === '23503',
    currentSchema: async () => {
      const { rows } = await sql<{ schema: string }>`select current_schema() as schema`.execute(db);
      return rows[0]?.schema;
    },
    changes: {
      publish: async (trx, change) => {
        const payload = `${change.kind}:${change.key}`;
        // The changes of one transaction are announced together, in its last statement.
        const last = lastOf(trx);
        if (last) last.payloads.push(payload);
        else await sendLast(trx, { writes: [], payloads: [payload] });
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
    // The deltas taken and folded in one statement: one appended meanwhile waits for the next fold.
    compactInsightRollups: () =>
      inTransaction(db, async (trx) => {
        const { rows } = await sql<{ ok: boolean }>`select pg_try_advisory_xact_lock(${ROLLUP_LOCK_KEY}) as ok`.execute(
          trx,
        );
        if (!rows[0]?.ok) return 0;
        const folded = await sql`with deltas as (delete from insight_rollups where compacted = 0 returning *)
          insert into insight_rollups ${ROLLUP_COLUMNS} select * from (${foldedDeltas('deltas')}) as folded
          ${ADD_TO_COMPACTED('least', 'greatest')}`.execute(trx);
        return Number(folded.numAffectedRows ?? 0);
      }),
    lockComment: async (trx, workspaceId, id) => {
      await sql`select id from comments where workspace_id = ${workspaceId} and id = ${id} for update`.execute(trx);
    },
    lockRows: async (trx, rows, mode) => {
      const lock = { share: sql`for share`, update: sql`for no key update`, delete: sql`for update` }[mode];
      if (rows.table === 'workspaces') {
        await sql`select id from workspaces where id = ${rows.workspaceId} ${lock}`.execute(trx);
      } else if (rows.table === 'comments') {
        await sql`select id from comments where workspace_id = ${rows.workspaceId}
          and project_id = ${rows.projectId} order by id ${lock}`.execute(trx);
      } else if (rows.ids.length > 0) {
        // In one order, so that two changes locking the same rows never wait for each other.
        await sql`select id from ${sql.table(rows.table)} where workspace_id = ${rows.workspaceId}
          and id = any(${[...rows.ids]}::text[]) order by id ${lock}`.execute(trx);
      }
    },
    commentHasWord: (word) =>
      sql<boolean>`comments.id = any(array(select id from comments where to_tsvector('simple', body) @@ plainto_tsquery('simple', ${word})
        union select comment_id from replies where to_tsvector('simple', body) @@ plainto_tsquery('simple', ${word})))`,
    // pg parses json; an aggregate over no row is null.
    jsonArrayOf: (column, filter) => sql`json_agg(${column}) filter (where ${filter})`,
    parseJsonArray: (value) => (Array.isArray(value) ? value : []),
    rangesTable: (ranges) =>
      sql<ShaRange>`(select * from unnest(${ranges.map((r) => r.lo)}::text[], ${ranges.map((r) => r.hi)}::text[], ${ranges.map((r) => r.sha)}::text[]) as r(lo, hi, sha))`,
    // Deleted rows stay in the table's pages until VACUUM reclaims them (autovacuum does), and
    // in the write-ahead log until its segments are recycled: the server cannot erase them on
    // its own. The README says what the operator does.
    eraseDeleted: async () => {},
    ping: async () => {
      await sql`select 1`.execute(db);
    },
    close: async () => {
      closed = true;
      listening = false;
      const client = listener;
      listener = null;
      await client?.end().catch(() => {});
      await reads.destroy();
      await db.destroy();
    },
  };
}
