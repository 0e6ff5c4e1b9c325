import { type Kysely, PostgresAdapter, sql } from 'kysely';
import { columnTypes } from './column-types.js';

export async function up(db: Kysely<unknown>): Promise<void> {
  const t = columnTypes(db);
  await db.schema
    .createTable('builds')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('workspace_id', 'text', (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
    .addColumn('project_id', 'text', (c) => c.notNull().references('projects.id').onDelete('cascade'))
    .addColumn('sha', 'text', (c) => c.notNull())
    .addColumn('reported_by_id', 'text', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('created_at', t.timestamp, (c) => c.notNull())
    // A repeated report is a no-op: the constraint, not a read-then-write, decides which is first.
    .addUniqueConstraint('builds_project_sha_unique', ['project_id', 'sha'])
    .execute();
  await db.schema.createIndex('builds_project_idx').on('builds').columns(['project_id', 'id']).execute();

  await db.schema
    .createTable('build_deployments')
    .addColumn('build_id', 'text', (c) => c.notNull().references('builds.id').onDelete('cascade'))
    .addColumn('comment_id', 'text', (c) => c.notNull().references('comments.id').onDelete('cascade'))
    .addColumn('workspace_id', 'text', (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
    .addPrimaryKeyConstraint('build_deployments_pk', ['build_id', 'comment_id'])
    .execute();
  await db.schema.createIndex('build_deployments_comment_idx').on('build_deployments').column('comment_id').execute();

  if (db.getExecutor().adapter instanceof PostgresAdapter) {
    // Prefix matching compares SHAs as ranges: byte order, whatever the database's locale.
    await sql`alter table comments alter column commit_sha type text collate "C"`.execute(db);
  }
  // The comments a build report can still deploy, by commit: the matching statement's index.
  await db.schema
    .createIndex('comments_pending_deploy_idx')
    .on('comments')
    .columns(['project_id', 'commit_sha'])
    .where(sql<boolean>`status = 'applied' and deployed_at is null and commit_sha is not null`)
    .execute();

  // Fixed one-minute windows per key, shared by every server process on the database.
  await db.schema
    .createTable('rate_limits')
    .addColumn('key', 'text', (c) => c.notNull())
    .addColumn('window_start', 'bigint', (c) => c.notNull())
    .addColumn('count', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('rate_limits_pk', ['key', 'window_start'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('rate_limits').execute();
  await db.schema.dropIndex('comments_pending_deploy_idx').execute();
  await db.schema.dropTable('build_deployments').execute();
  await db.schema.dropTable('builds').execute();
}
