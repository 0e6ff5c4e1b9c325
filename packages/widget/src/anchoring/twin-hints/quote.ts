// The text just before or after a twin, where it was its own among them (a table's title
// before its header row, not the same "Add to cart" before each card's title): it tells the
// pinned one from them where their items were reordered, each with its title.
import type { Anchor } from '@svc/contract';
import type { Masking } from '../../mask.js';
import { QUOTE_CONTEXT_MAX, textAround } from '../features.js';
import type { RootIndex } from '../root-index.js';
import { quoteSides } from '../similarity.js';
import { TWINS_READ_MAX, type TwinHint } from './hint.js';

/** On which side the text just before or after `el` (`prefix`, `suffix`) is its own among its twins. */
function ownSide(prefix: string, suffix: string, twins: Element[], masking: Masking): Anchor['twinsByQuote'] {
  // Without a text on either side, none is its own.
  if (!twins.length || twins.length > TWINS_READ_MAX || (!prefix && !suffix)) return undefined;
  const own = { before: Boolean(prefix), after: Boolean(suffix) };
  const around = (twin: Element, side: 'before' | 'after') => textAround(twin, side, QUOTE_CONTEXT_MAX, masking);
  for (const twin of twins) {
    const sides = quoteSides({ prefix, suffix }, around(twin, 'before'), around(twin, 'after'));
    if (sides.before) own.before = false;
    if (sides.after) own.after = false;
  }
  return own.before && own.after ? 'both' : own.before ? 'before' : own.after ? 'after' : undefined;
}

/** On which sides the text around `twin` is the pinned text's. */
export function sidesOf(index: RootIndex, twin: Element, text: NonNullable<Anchor['text']>) {
  const { prefix, suffix } = index.quoteOf(twin);
  return quoteSides(text, prefix, suffix);
}

export const byQuote: TwinHint = {
  record: (_el, twins, quote, masking) => ({ twinsByQuote: ownSide(quote.prefix, quote.suffix, twins, masking) }),
  // The one with both sides; or, where none has (the text beyond its item changed with their
  // order), the one with a side that was its own.
  tell(index, anchor, twins) {
    const own = anchor.twinsByQuote;
    const pinned = anchor.text;
    if (!own || !pinned) return undefined;
    const sides = twins.map((twin) => ({ twin, ...sidesOf(index, twin, pinned) }));
    const both = sides.filter(({ before, after }) => before && after);
    const ownSide = sides.filter(({ before, after }) => (before && own !== 'after') || (after && own !== 'before'));
    const [quoted, another] = both.length ? both : ownSide;
    return quoted && !another ? quoted.twin : undefined;
  },
};
