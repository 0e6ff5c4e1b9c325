import { type Mentionable, mentionedIds, mentionToken, replaceMentions } from '@svc/contract';
import type { Actor } from '../../actor.js';
import type { AppContext } from '../../context.js';
import type { Db } from '../../db/schema.js';
import { writeBeforeCommit } from '../../db/transaction.js';
import { invalidField } from '../../errors.js';
import { getProject } from '../projects/service.js';

// Mentions: a text names people by id (`<@usr_…>`, see the contract's mentions), each of whom
// must be able to read the comment. The stored text keeps their name beside the id, so that
// it reads without a lookup; a row per comment and person finds what mentions someone.

/**
 * Who can read the comments of a project: the team (admins, members, agents) and the clients
 * who see that project (those limited to another project do not), by name. Removed accounts
 * are nobody's to mention.
 */
export function readersOfProject(db: Db, workspaceId: string, projectId: string) {
  return db
    .selectFrom('users')
    .select(['id', 'name', 'role', 'kind'])
    .where('workspace_id', '=', workspaceId)
    .where('removed_at', 'is', null)
    .where((eb) => eb.or([eb('role', '!=', 'client'), eb('project_id', 'is', null), eb('project_id', '=', projectId)]))
    .orderBy('name')
    .orderBy('id');
}

/** The people a comment of the project (by its key) may mention, for the caller to choose from. */
export async function mentionablePeople(deps: Pick<AppContext, 'db'>, actor: Actor, projectKey: string) {
  const project = await getProject(deps, actor, projectKey);
  const people = await readersOfProject(deps.db, actor.workspaceId, project.id).execute();
  return people.map((person) => ({
    id: person.id,
    name: person.name,
    role: person.role,
    agent: person.kind === 'agent',
  }));
}

/**
 * The text to store, each mention with the person's name, and who it mentions. A mention of
 * someone who cannot read the comment (of another project, another workspace, nobody) is
 * refused, said the same way whoever the id is.
 */
export async function resolveMentions(
  db: Db,
  actor: Actor,
  projectId: string,
  text: string,
): Promise<{ text: string; mentioned: string[] }> {
  const ids = mentionedIds(text);
  if (ids.length === 0) return { text, mentioned: [] };
  const readers = await readersOfProject(db, actor.workspaceId, projectId).where('id', 'in', ids).execute();
  const byId = new Map<string, Mentionable>(readers.map((person) => [person.id, person]));
  if (ids.some((id) => !byId.has(id))) {
    throw invalidField(
      '/body',
      'mentions someone who cannot read this comment: only its project’s people can be mentioned',
    );
  }
  return { text: replaceMentions(text, (id) => mentionToken(byId.get(id) as Mentionable)), mentioned: ids };
}

/** Records who a comment's text or one of its replies mentions (once per person and comment). */
export async function recordMentions(db: Db, workspaceId: string, commentId: string, userIds: string[], at: string) {
  if (userIds.length === 0) return;
  // Nothing of the change reads it back: it may go with the last statement.
  await writeBeforeCommit(
    db,
    db
      .insertInto('comment_mentions')
      .values(
        userIds.map((userId) => ({
          comment_id: commentId,
          user_id: userId,
          workspace_id: workspaceId,
          created_at: at,
        })),
      )
      .onConflict((oc) => oc.columns(['comment_id', 'user_id']).doNothing()),
  );
}

/**
 * Shows `name` wherever a text mentions the person in place of `was`: the texts and replies that
 * hold their mention (found through the mentions' rows) are rewritten, and so are the
 * excerpts of those comments kept by timelines and notifications. Names change rarely (a
 * removed member's becomes "Former member"); reads never look names up.
 */
export async function renameInMentions(db: Db, workspaceId: string, person: Mentionable, was: string) {
  const mentioning = db
    .selectFrom('comment_mentions')
    .select('comment_id')
    .where('workspace_id', '=', workspaceId)
    .where('user_id', '=', person.id);
  const rewrite = (text: string) =>
    replaceMentions(text, (id, name) => mentionToken(id === person.id ? person : { id, name }));
  const stored = `%<@${person.id}|%`;
  for (const table of ['comments', 'replies'] as const) {
    const column = table === 'comments' ? 'id' : 'comment_id';
    const rows = await db
      .selectFrom(table)
      .select(['id', 'body'])
      .where(column, 'in', mentioning)
      .where('body', 'like', stored)
      .execute();
    for (const row of rows)
      await db
        .updateTable(table)
        .set({ body: rewrite(row.body) })
        .where('id', '=', row.id)
        .execute();
  }
  // Excerpts are text as it was read: the name is replaced where it follows an @.
  const shown = (text: string) => text.replaceAll(`@${was}`, `@${person.name}`);
  const excerpts = [
    { table: 'comment_events', column: 'note' },
    { table: 'notifications', column: 'excerpt' },
  ] as const;
  for (const { table, column } of excerpts) {
    const rows = await db
      .selectFrom(table)
      .select(['id', column])
      .where('comment_id', 'in', mentioning)
      .where(column, 'like', `%@${was}%`)
      .execute();
    for (const row of rows) {
      const text = (row as Record<string, string | null>)[column] ?? '';
      await db
        .updateTable(table)
        .set({ [column]: shown(text) })
        .where('id', '=', row.id)
        .execute();
    }
  }
}
