import { type Mentionable, mentionedIds, mentionToken, replaceMentions } from '@svc/contract';
import type { Actor } from '../../actor.js';
import type { AppContext } from '../../context.js';
import type { Database } from '../../db/dialect/index.js';
import type { Db } from '../../db/schema.js';
import { writeBeforeCommit } from '../../db/transaction.js';
import { invalidField } from '../../errors.js';
import { readersOfProject } from '../projects/repo.js';
import { getProject } from '../projects/service.js';
import { excerpt } from './excerpt.js';

// Mentions: a text names people by id (`<@usr_…>`, see the contract's mentions), each of whom
// must be able to read the comment. The stored text keeps their name beside the id, so that
// it reads without a lookup; a row per comment and person finds what mentions someone.
//
// Three texts hold mentions, each by this one rule: a comment's, a reply's, and the note of a
// verdict "Not fixed" (its reply, and its timeline event's note). Every other text (a label's
// or a project's name, a page's title, a priority's note) holds `<@…>` as plain text. A text's
// limit is measured as written, each mention by id alone (`compactMentions`): the names it
// shows may grow with a rename without pushing it past its limit, and an export holds it so.

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
 * The text to store, each mention with the person's name (whatever name the text gave), and
 * who it mentions. A mention of someone who cannot read the comment (of another project,
 * another workspace, removed, nobody) is refused, said the same way whoever the id is; `path`
 * names the field. In a change, the people are locked first (`lockMentioned`).
 */
export async function resolveMentions(
  db: Db,
  actor: Actor,
  projectId: string,
  text: string,
  path = '/body',
): Promise<{ text: string; mentioned: string[] }> {
  const ids = mentionedIds(text);
  if (ids.length === 0) return { text, mentioned: [] };
  const readers = await readersOfProject(db, actor.workspaceId, projectId).where('id', 'in', ids).execute();
  const byId = new Map<string, Mentionable>(readers.map((person) => [person.id, person]));
  if (ids.some((id) => !byId.has(id))) {
    throw invalidField(
      path,
      'mentions someone who cannot read this comment: only its project’s people can be mentioned',
    );
  }
  return { text: replaceMentions(text, (id) => mentionToken(byId.get(id) as Mentionable)), mentioned: ids };
}

/**
 * Locks the people `text` mentions (to share) until the change `trx` commits, before the
 * comment's lock: a removal, which renames them in every text that mentions them, then comes
 * wholly before the mention is resolved (and refuses it) or wholly after (and renames it).
 */
export async function lockMentioned(database: Database, trx: Db, workspaceId: string, text: string) {
  const ids = mentionedIds(text);
  if (ids.length) await database.lockRows(trx, { table: 'users', workspaceId, ids }, 'share');
}

/**
 * Records who a text of the comment mentions, and tells them (not the writer), but those the
 * same change tells already (`toldAlready`): one notification per person and action.
 */
export async function mention(
  deps: Pick<AppContext, 'events'>,
  db: Db,
  actor: Actor,
  commentId: string,
  mentioned: string[],
  text: string,
  now: string,
  toldAlready: (string | null)[] = [],
) {
  if (mentioned.length === 0) return;
  await recordMentions(db, actor.workspaceId, commentId, mentioned, now);
  const told = mentioned.filter((id) => !toldAlready.includes(id));
  if (told.length === 0) return;
  await deps.events.raise(db, {
    type: 'CommentMentioned',
    workspaceId: actor.workspaceId,
    commentId,
    actorId: actor.id,
    mentionedIds: told,
    excerpt: excerpt(text),
  });
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
 * Shows `name` wherever a text mentions the person in place of `was`: the texts, replies and
 * notes of "Not fixed" that hold their mention (found through the mentions' rows) are
 * rewritten, and so are the excerpts of those comments kept by timelines and notifications,
 * each cut again to an excerpt's length. Names change rarely (a removed member's becomes
 * "Former member"); reads never look names up.
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
  const notes = await db
    .selectFrom('comment_events')
    .select(['id', 'note'])
    .where('comment_id', 'in', mentioning)
    .where('kind', '=', 'not_fixed')
    .where('note', 'like', stored)
    .execute();
  for (const row of notes)
    await db
      .updateTable('comment_events')
      .set({ note: rewrite(row.note ?? '') })
      .where('id', '=', row.id)
      .execute();
  // Excerpts are text as it was read: the name is replaced where it follows an @.
  const shown = (text: string) => excerpt(text.replaceAll(`@${was}`, `@${person.name}`));
  const excerpts = [
    { table: 'comment_events', column: 'note' },
    { table: 'notifications', column: 'excerpt' },
  ] as const;
  for (const { table, column } of excerpts) {
    let query = db
      .selectFrom(table)
      .select(['id', column])
      .where('comment_id', 'in', mentioning)
      .where(column, 'like', `%@${was}%`);
    if (table === 'comment_events') query = query.where('kind', '=', 'replied');
    const rows = await query.execute();
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
