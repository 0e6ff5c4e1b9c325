import { type Kysely, sql } from 'kysely';
import { columnTypes } from './column-types.js';

/**
 * Who triages a project. A row is a person's own choice to follow a project (`following` 1) or
 * to leave it (0); without one, admins follow every project and members the projects where they
 * are on a comment, so that nothing needs writing for the defaults and people of before follow
 * as those rules say. New comments of a project gather in one unread notification per follower
 * (`grouped_project_id`, `comment_count`): a unique index over the unread ones lets a single
 * upsert decide between a new item and one more comment in the item, however many arrive at once.
 * Notifications of before gather nothing and stand for one comment each.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const { timestamp } = columnTypes(db);
  await db.schema
    .createTable('project_followers')
    .addColumn('project_id', 'text', (c) => c.notNull().references('projects.id').onDelete('cascade'))
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('workspace_id', 'text', (c) => c.notNull())
    .addColumn('following', 'integer', (c) => c.notNull())
    .addColumn('chosen_at', timestamp, (c) => c.notNull())
    .addPrimaryKeyConstraint('project_followers_pk', ['project_id', 'user_id'])
    .execute();
  // "The projects I follow": a person's choices.
  await db.schema
    .createIndex('project_followers_user_idx')
    .on('project_followers')
    .columns(['user_id', 'project_id'])
    .execute();
  await db.schema.alterTable('notifications').addColumn('grouped_project_id', 'text').execute();
  await db.schema
    .alterTable('notifications')
    .addColumn('comment_count', 'integer', (c) => c.notNull().defaultTo(1))
    .execute();
  await db.schema
    .createIndex('notifications_new_comments_idx')
    .on('notifications')
    .columns(['recipient_id', 'grouped_project_id'])
    .unique()
    .where(sql<boolean>`read_at is null`)
    .execute();
}
