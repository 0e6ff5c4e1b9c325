import { type Kysely, PostgresAdapter, sql } from 'kysely';

/**
 * What each workspace stores of uploads (its images and screenshots, in bytes), counted once:
 * `stored_bytes`, kept by triggers in the statement that adds or deletes a row, however it is
 * deleted (a comment's or a project's foreign keys included), so that no code path can forget
 * it and a quota can read it at once rather than add up a workspace's rows. Counted from the
 * rows there already. `storage_quota_bytes`: the quota of this workspace, set by the operator;
 * null, the server's default (SVC_STORAGE_QUOTA_MB).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('workspaces')
    .addColumn('stored_bytes', 'bigint', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.alterTable('workspaces').addColumn('storage_quota_bytes', 'bigint').execute();
  const tables = ['images', 'attachments'] as const;
  if (db.getExecutor().adapter instanceof PostgresAdapter) {
    // Once a statement: a project's deletion takes thousands of images in one, and one update.
    await sql`create function count_stored_bytes() returns trigger language plpgsql as $$
      begin
        if tg_op in ('DELETE', 'UPDATE') then
          update workspaces w set stored_bytes = w.stored_bytes - gone.bytes
            from (select workspace_id, sum(size) as bytes from gone group by workspace_id) gone
            where w.id = gone.workspace_id;
        end if;
        if tg_op in ('INSERT', 'UPDATE') then
          update workspaces w set stored_bytes = w.stored_bytes + added.bytes
            from (select workspace_id, sum(size) as bytes from added group by workspace_id) added
            where w.id = added.workspace_id;
        end if;
        return null;
      end $$`.execute(db);
    for (const table of tables) {
      const on = sql.table(table);
      const name = (event: string) => sql.raw(`${table}_stored_${event}`);
      await sql`create trigger ${name('insert')} after insert on ${on}
        referencing new table as added for each statement execute function count_stored_bytes()`.execute(db);
      await sql`create trigger ${name('delete')} after delete on ${on}
        referencing old table as gone for each statement execute function count_stored_bytes()`.execute(db);
      await sql`create trigger ${name('update')} after update on ${on}
        referencing old table as gone new table as added for each statement execute function count_stored_bytes()`.execute(
        db,
      );
    }
  } else {
    const less = sql`update workspaces set stored_bytes = stored_bytes - old.size where id = old.workspace_id;`;
    const more = sql`update workspaces set stored_bytes = stored_bytes + new.size where id = new.workspace_id;`;
    for (const table of tables) {
      const on = sql.table(table);
      const name = (event: string) => sql.raw(`${table}_stored_${event}`);
      await sql`create trigger ${name('insert')} after insert on ${on} begin ${more} end`.execute(db);
      await sql`create trigger ${name('delete')} after delete on ${on} begin ${less} end`.execute(db);
      await sql`create trigger ${name('update')} after update of size, workspace_id on ${on} begin ${less} ${more} end`.execute(
        db,
      );
    }
  }
  await sql`update workspaces set stored_bytes =
    coalesce((select sum(size) from images where images.workspace_id = workspaces.id), 0)
    + coalesce((select sum(size) from attachments where attachments.workspace_id = workspaces.id), 0)`.execute(db);
}
