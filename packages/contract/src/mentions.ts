// Mentions: `@Lena` in a comment or a reply, stored by person. A client sends `<@usr_…>` for
// each person chosen from the suggestions; the server keeps `<@usr_…|Lena Fischer>` (the name
// for showing the text without a lookup, rewritten when the person is renamed) and answers the
// text as people read it, `@Lena Fischer`. What a person types by hand, `@Lena`, stays text.

/** One mention as stored or sent: the person's id, then their name as last known. */
const MENTION = /<@(usr_[0-9A-HJKMNP-TV-Z]{26})(?:\|([^<>|]*))?>/g;

/** Someone who may be mentioned: who can read the comments of the project. */
export interface Mentionable {
  id: string;
  name: string;
}

/** A name as a mention holds it: without the characters that delimit one. */
const nameInToken = (name: string) => name.replace(/[<>|]/g, '').trim();

/** The stored form of a mention of `person`. */
export function mentionToken(person: Mentionable): string {
  return `<@${person.id}|${nameInToken(person.name)}>`;
}

/** The ids of the people a text mentions, each once, in order. */
export function mentionedIds(text: string): string[] {
  return [...new Set(Array.from(text.matchAll(MENTION), (match) => match[1] as string))];
}

/** The people a text mentions, each once, in order, by the name the text holds for them. */
export function mentionedPeople(text: string): Mentionable[] {
  const people = new Map<string, string>();
  for (const [, id, name] of text.matchAll(MENTION)) {
    if (!people.has(id as string)) people.set(id as string, name || '…');
  }
  return [...people].map(([id, name]) => ({ id, name }));
}

/** Rewrites each mention with what `rewrite` gives for its id and stored name. */
export function replaceMentions(text: string, rewrite: (id: string, name: string) => string): string {
  return text.includes('<@') ? text.replace(MENTION, (_, id: string, name?: string) => rewrite(id, name ?? '')) : text;
}

/**
 * The text as written: each mention by id alone (`<@usr_…>`), as a client sends it. A text's
 * limit is measured on this form, and an export holds it, so that the names a text shows
 * (which grow when a person is renamed) never push it past its limit.
 */
export function compactMentions(text: string): string {
  return replaceMentions(text, (id) => `<@${id}>`);
}

/** The text as people read it: each mention as `@` and the person's name. */
export function showMentions(text: string): string {
  return replaceMentions(text, (_, name) => `@${name || '…'}`);
}

/**
 * The mention being typed at the caret: an `@` at the start or after a space, then up to 30
 * characters of a name (no line break, at most two spaces). Null when there is none.
 */
export function mentionQueryAt(text: string, caret: number): { start: number; query: string } | null {
  const before = text.slice(0, caret);
  const match = /(^|\s)@([^\s@<>][^@<>\n]{0,29})?$/u.exec(before);
  if (!match) return null;
  const query = match[2] ?? '';
  if ((query.match(/ /g) ?? []).length > 2) return null;
  return { start: before.length - query.length - 1, query };
}

/**
 * The people a query suggests: whose name, or one of its words, starts with it (any case). A
 * space typed after a whole name ("@Lena Fischer ") matches nobody: the mention is written.
 */
export function suggestedPeople<P extends Mentionable>(people: P[], query: string, limit = 8): P[] {
  const wanted = query.toLocaleLowerCase();
  const matches = (person: P) => {
    const name = person.name.toLocaleLowerCase();
    return name.startsWith(wanted) || name.split(/\s+/).some((word) => word.startsWith(wanted));
  };
  return people.filter(matches).slice(0, limit);
}

/** Puts `@Name ` in place of the mention typed from `start` to the caret: the text and the new caret. */
export function insertMention(text: string, start: number, caret: number, person: Mentionable) {
  const inserted = `@${person.name} `;
  return { text: text.slice(0, start) + inserted + text.slice(caret), caret: start + inserted.length };
}

/**
 * The text to send: each `@Name` of a person chosen from the suggestions as their mention,
 * where it still reads as typed (a name edited since is left as text). Longer names first, so
 * that "@Ana Lima" is not taken for "@Ana".
 */
export function encodeMentions(text: string, chosen: Mentionable[]): string {
  let encoded = text;
  const byLength = [...new Map(chosen.map((person) => [person.id, person])).values()].sort(
    (a, b) => b.name.length - a.name.length,
  );
  for (const person of byLength) {
    const written = `@${person.name}`;
    let from = 0;
    for (;;) {
      const at = encoded.indexOf(written, from);
      if (at < 0) break;
      const after = encoded[at + written.length] ?? '';
      const before = at === 0 ? ' ' : (encoded[at - 1] as string);
      if (/\s|[([]/.test(before) && !/[\p{L}\p{N}_]/u.test(after)) {
        const token = `<@${person.id}>`;
        // The suggestion put a space after the name; one typed after it as well is not kept.
        const end = encoded.startsWith('  ', at + written.length) ? at + written.length + 1 : at + written.length;
        encoded = encoded.slice(0, at) + token + encoded.slice(end);
        from = at + token.length;
      } else from = at + written.length;
    }
  }
  return encoded;
}

/** How a suggestion names a person: an agent and a client said as such. */
export function suggestionName(
  person: Mentionable & { agent: boolean; role: string },
  t: (key: 'comment.agentName' | 'mention.clientName', values: { name: string }) => string,
): string {
  if (person.agent) return t('comment.agentName', { name: person.name });
  return person.role === 'client' ? t('mention.clientName', { name: person.name }) : person.name;
}
