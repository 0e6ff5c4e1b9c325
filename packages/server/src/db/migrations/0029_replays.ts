import type { Kysely } from 'kysely';

/**
 * Replays of the moments before a comment, opt-in per project: whether the project's widget
 * keeps them (`replay_on`, off), how many seconds (`replay_seconds`, 60), and whether all text
 * is masked in them, not only what people type (`replay_mask_text`, off). Projects of the
 * release before keep none until an admin turns it on. A replay is stored as the comment's
 * attachment of kind `replay` (beside its screenshot): deleted with it, exported with it, and
 * counted in the workspace's `stored_bytes` by the triggers of 0025, which count every
 * attachment whatever its kind.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('projects')
    .addColumn('replay_on', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema
    .alterTable('projects')
    .addColumn('replay_seconds', 'integer', (c) => c.notNull().defaultTo(60))
    .execute();
  await db.schema
    .alterTable('projects')
    .addColumn('replay_mask_text', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
}
