import type { Kysely } from 'kysely';
import { columnTypes } from './column-types.js';

/**
 * Anchors that find their element again: the element's description beside its selector (JSON,
 * null for anchors of a selector alone), who last moved a comment's pin and when, and the query
 * parameters that make another page of a project.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const t = columnTypes(db);
  await db.schema.alterTable('comments').addColumn('anchor_detail', 'text').execute();
  await db.schema.alterTable('comments').addColumn('repinned_at', t.timestamp).execute();
  await db.schema
    .alterTable('comments')
    .addColumn('repinned_by_id', 'text', (column) => column.references('users.id'))
    .execute();
  await db.schema
    .alterTable('projects')
    .addColumn('page_params', 'text', (column) => column.notNull().defaultTo('[]'))
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('projects').dropColumn('page_params').execute();
  await db.schema.alterTable('comments').dropColumn('repinned_by_id').execute();
  await db.schema.alterTable('comments').dropColumn('repinned_at').execute();
  await db.schema.alterTable('comments').dropColumn('anchor_detail').execute();
}
