import { type Kysely, sql } from 'kysely';
import { columnTypes } from './column-types.js';

/** Sessions expire when idle: when each was last used, and what signed in (for the list). */
export async function up(db: Kysely<unknown>): Promise<void> {
  const t = columnTypes(db);
  await db.schema.alterTable('sessions').addColumn('last_seen_at', t.timestamp).execute();
  await db.schema.alterTable('sessions').addColumn('user_agent', 'text').execute();
  await sql`update sessions set last_seen_at = created_at`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('sessions').dropColumn('user_agent').execute();
  await db.schema.alterTable('sessions').dropColumn('last_seen_at').execute();
}
