import type { Kysely } from 'kysely';

/**
 * Notes "Not fixed" written before a note's mentions were checked: the reply that holds one and
 * its timeline event's note are checked as a note is now. A mention of someone of the comment's
 * workspace who can read it (its team, a client of its project or of every project; removed
 * since or not) is kept under their own name, and recorded, so that "mentions me" finds it and
 * a rename reaches it; any other (another workspace's person, a client of another project, an
 * id of nobody) becomes the text it showed, "@" and the name it gave, and mentions nobody.
 */
export async function up(db: Kysely<any>): Promise<void> {
  const replies = await textsWithMentions(db, 'replies', 'body', 'replies.kind', 'user', 'Not fixed: %<@%');
  const notes = await textsWithMentions(db, 'comment_events', 'note', 'comment_events.kind', 'not_fixed', '%<@%');
  const ids = [...new Set([...replies, ...notes].flatMap((row) => idsIn(row.text)))];
  const people = new Map<string, Person>();
  for (let at = 0; at < ids.length; at += 500) {
    const rows = await db
      .selectFrom('users')
      .select(['id', 'name', 'workspace_id', 'role', 'project_id'])
      .where('id', 'in', ids.slice(at, at + 500))
      .execute();
    for (const row of rows) people.set(row.id, row);
  }
  for (const [table, column, rows] of [
    ['replies', 'body', replies],
    ['comment_events', 'note', notes],
  ] as const) {
    for (const row of rows) {
      const readers: string[] = [];
      const checked = row.text.replace(MENTION, (_: string, id: string, name = '') => {
        const person = people.get(id);
        if (!person || !canRead(person, row)) return `@${name || '…'}`;
        readers.push(id);
        return `<@${id}|${person.name.replace(/[<>|]/g, '').trim()}>`;
      });
      if (checked !== row.text) {
        await db
          .updateTable(table)
          .set({ [column]: checked })
          .where('id', '=', row.id)
          .execute();
      }
      for (const userId of new Set(readers)) {
        await db
          .insertInto('comment_mentions')
          .values({
            comment_id: row.comment_id,
            user_id: userId,
            workspace_id: row.workspace_id,
            created_at: row.created_at,
          })
          .onConflict((oc) => oc.columns(['comment_id', 'user_id']).doNothing())
          .execute();
      }
    }
  }
}

/** The rows of `table` of a `kind` whose `column` is like `pattern`, with their comment's workspace and project. */
const textsWithMentions = (
  db: Kysely<any>,
  table: 'replies' | 'comment_events',
  column: 'body' | 'note',
  kindColumn: string,
  kind: string,
  pattern: string,
) =>
  db
    .selectFrom(table)
    .innerJoin('comments', 'comments.id', `${table}.comment_id`)
    .select([
      `${table}.id as id`,
      `${table}.${column} as text`,
      `${table}.comment_id as comment_id`,
      'comments.workspace_id as workspace_id',
      'comments.project_id as project_id',
      `${table}.created_at as created_at`,
    ])
    .where(kindColumn, '=', kind)
    .where(`${table}.${column}`, 'like', pattern)
    .execute() as Promise<
    { id: string; text: string; comment_id: string; workspace_id: string; project_id: string; created_at: string }[]
  >;

/** Whether the person reads the comment: of its workspace, and of its team or a client of its project or of every project. */
const canRead = (person: Person, comment: { workspace_id: string; project_id: string }) =>
  person.workspace_id === comment.workspace_id &&
  (person.role !== 'client' || person.project_id === null || person.project_id === comment.project_id);

interface Person {
  id: string;
  name: string;
  workspace_id: string;
  role: string;
  project_id: string | null;
}

/** A mention as stored: the person's id, then their name as the text gave it (as of this release). */
const MENTION = /<@(usr_[0-9A-HJKMNP-TV-Z]{26})(?:\|([^<>|]*))?>/g;

const idsIn = (text: string) => Array.from(text.matchAll(MENTION), (match) => match[1] as string);
