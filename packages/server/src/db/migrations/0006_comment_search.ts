import { type Kysely, PostgresAdapter, sql } from 'kysely';

/**
 * Finding comments across projects: indexes for the workspace-wide list and its filters, and
 * full-text search over comment and reply bodies (SQLite: FTS5 tables kept by triggers;
 * PostgreSQL: GIN indexes on the bodies' text search vectors, 'simple' configuration so no
 * language's stemming is assumed).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  for (const [name, columns] of [
    ['comments_workspace_idx', ['workspace_id', 'id']],
    ['comments_workspace_status_idx', ['workspace_id', 'status', 'id']],
    ['comments_workspace_page_idx', ['workspace_id', 'page_url', 'id']],
    ['comments_author_idx', ['author_id', 'id']],
  ] as const) {
    await db.schema
      .createIndex(name)
      .on('comments')
      .columns([...columns])
      .execute();
  }
  if (db.getExecutor().adapter instanceof PostgresAdapter) {
    await sql`create index comments_body_search_idx on comments using gin (to_tsvector('simple', body))`.execute(db);
    await sql`create index replies_body_search_idx on replies using gin (to_tsvector('simple', body))`.execute(db);
    return;
  }
  for (const table of ['comments', 'replies']) {
    const fts = sql.raw(`${table}_fts`);
    const source = sql.raw(table);
    await sql`create virtual table ${fts} using fts5(body, content=${sql.lit(table)}, content_rowid='rowid')`.execute(
      db,
    );
    await sql`create trigger ${sql.raw(`${table}_fts_insert`)} after insert on ${source} begin
      insert into ${fts}(rowid, body) values (new.rowid, new.body);
    end`.execute(db);
    await sql`create trigger ${sql.raw(`${table}_fts_delete`)} after delete on ${source} begin
      insert into ${fts}(${fts}, rowid, body) values ('delete', old.rowid, old.body);
    end`.execute(db);
    await sql`create trigger ${sql.raw(`${table}_fts_update`)} after update of body on ${source} begin
      insert into ${fts}(${fts}, rowid, body) values ('delete', old.rowid, old.body);
      insert into ${fts}(rowid, body) values (new.rowid, new.body);
    end`.execute(db);
    await sql`insert into ${fts}(${fts}) values ('rebuild')`.execute(db);
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  if (db.getExecutor().adapter instanceof PostgresAdapter) {
    await sql`drop index replies_body_search_idx`.execute(db);
    await sql`drop index comments_body_search_idx`.execute(db);
  } else {
    for (const table of ['comments', 'replies']) {
      for (const trigger of ['insert', 'delete', 'update'])
        await sql.raw(`drop trigger ${table}_fts_${trigger}`).execute(db);
      await sql.raw(`drop table ${table}_fts`).execute(db);
    }
  }
  for (const name of [
    'comments_author_idx',
    'comments_workspace_page_idx',
    'comments_workspace_status_idx',
    'comments_workspace_idx',
  ]) {
    await db.schema.dropIndex(name).execute();
  }
}
