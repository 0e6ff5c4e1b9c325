// What people wrote, as written: the people it mentions shown as mentions, a long text cut.

import type { ComponentChildren } from 'preact';
import { useId, useState } from 'preact/hooks';
import { t } from '../../i18n.js';

/** How much of a long text shows until "Read all of it": its start, so that the actions stay near. */
const BODY_SHOWN = 480;

/** Whom a text mentions, as the API names them. */
type Mentioned = readonly { id: string; name: string }[];

/**
 * A text with the people it mentions shown as mentions: each `@` and name of them (an `@` typed
 * by hand before a name stays as typed), and the spaces after one as one (a text written
 * before the suggestions kept a single space could hold two).
 */
export function MentionText({ text, mentions }: { text: string; mentions: Mentioned }) {
  if (!mentions.length) return <>{text}</>;
  const names = mentions
    .map((person) => `@${person.name}`.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
    .sort((a, b) => b.length - a.length);
  const mention = new RegExp(`(${names.join('|')})(?![\\p{L}\\p{N}_])( {2,})?`, 'gu');
  const parts: ComponentChildren[] = [];
  let from = 0;
  for (const match of text.matchAll(mention)) {
    parts.push(text.slice(from, match.index));
    parts.push(
      <span key={match.index} class="mention">
        {match[1]}
      </span>,
    );
    if (match[2]) parts.push(' ');
    from = match.index + match[0].length;
  }
  parts.push(text.slice(from));
  return <>{parts}</>;
}

/** What was said; a long text is cut to its first lines until asked for whole. */
export function BodyText({ text, mentions }: { text: string; mentions: Mentioned }) {
  const [whole, setWhole] = useState(false);
  const long = text.length > BODY_SHOWN;
  const id = useId();
  return (
    <div>
      <p id={id} class={`body-text comment-body${long && !whole ? ' cut' : ''}`}>
        <MentionText text={text} mentions={mentions} />
      </p>
      {long ? (
        <button type="button" class="link" aria-expanded={whole} aria-controls={id} onClick={() => setWhole(!whole)}>
          {whole ? t('comment.readLess') : t('comment.readAll')}
        </button>
      ) : null}
    </div>
  );
}
