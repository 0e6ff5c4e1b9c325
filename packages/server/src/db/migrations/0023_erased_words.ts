import { type Kysely, PostgresAdapter, sql } from 'kysely';

/**
 * SQLite's full-text indexes of comments and replies forget a deleted text's words: without
 * their secure-delete option a deletion only adds a note to the index, and the words stay in
 * its older pages until a merge, readable in the file and in every backup. Rebuilt once, so
 * that the words of texts deleted before go too. PostgreSQL's index is over the table's rows.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  if (db.getExecutor().adapter instanceof PostgresAdapter) return;
  for (const table of ['comments_fts', 'replies_fts']) {
    const fts = sql.raw(table);
    await sql`insert into ${fts}(${fts}, rank) values ('secure-delete', 1)`.execute(db);
    await sql`insert into ${fts}(${fts}) values ('rebuild')`.execute(db);
  }
}
