// How alike two readings of an element are: texts, addresses, neighbours, lists of classes.

export const lower = (text: string) => text.toLowerCase();

/** How alike two texts are, 0-1: equal, one inside the other, or the words they share. */
export function similarity(a: string, b: string): number {
  if (a === b) return a ? 1 : 0;
  if (!a || !b) return 0;
  const x = lower(a);
  const y = lower(b);
  if (x === y) return 0.95;
  const [short, long] = x.length < y.length ? [x, y] : [y, x];
  // Words added to it, or it is a part of a longer text: alike as far as it goes, and at least
  // half when it is whole words of the other ("22%" and "22% up").
  const at = long.indexOf(short);
  if (at >= 0) {
    const whole = !/\w/.test(long[at - 1] ?? '') && !/\w/.test(long[at + short.length] ?? '');
    return Math.max(short.length / long.length, whole ? 0.5 : 0);
  }
  const words = (text: string) => new Set(text.split(/[\s,.;:!?()"'“”‘’/|-]+/).filter(Boolean));
  const p = words(x);
  const q = words(y);
  if (p.size < 2 && q.size < 2) return bigrams(x, y);
  let shared = 0;
  for (const word of p) if (q.has(word)) shared += 1;
  return (2 * shared) / (p.size + q.size);
}

/** Dice's coefficient over character pairs, for texts without spaces (one word, or Chinese and Japanese). */
export function bigrams(x: string, y: string): number {
  if (x.length < 2 || y.length < 2) return 0;
  const pairs = new Map<string, number>();
  for (let i = 0; i < x.length - 1; i += 1) {
    const pair = x.slice(i, i + 2);
    pairs.set(pair, (pairs.get(pair) ?? 0) + 1);
  }
  let shared = 0;
  for (let i = 0; i < y.length - 1; i += 1) {
    const pair = y.slice(i, i + 2);
    const left = pairs.get(pair) ?? 0;
    if (left > 0) {
      pairs.set(pair, left - 1);
      shared += 1;
    }
  }
  return (2 * shared) / (x.length + y.length - 2);
}

/** Links and sources: the same address (1), the same but for its query, fragment or a build hash in the file name (0.9), or another (0). */
export function sameUrl(a: string, b: string): number {
  if (a === b) return 1;
  const bare = (url: string) => url.replace(/[?#].*$/, '').replace(/[.-][\da-f]{6,}(?=\.\w+$)/i, '');
  return bare(a) === bare(b) ? 0.9 : 0;
}

/** For a neighbour's text: the same (1), one inside the other (½), or not (0). */
export function sameText(a: string, b: string): number {
  if (!a || !b) return a === b ? 1 : 0;
  const x = lower(a);
  const y = lower(b);
  if (x === y) return 1;
  return x.includes(y) || y.includes(x) ? 0.5 : 0;
}

/** How much of the text right next to the element is unchanged: the end of what comes before it, the start of what follows. */
export function adjacent(was: string, now: string, side: 'before' | 'after'): number {
  const span = Math.min(24, was.length);
  if (!span) return 1;
  let same = 0;
  while (same < span) {
    const a = side === 'before' ? was[was.length - 1 - same] : was[same];
    const b = side === 'before' ? now[now.length - 1 - same] : now[same];
    if (a === undefined || a !== b) break;
    same += 1;
  }
  return same / span;
}

/** On which sides the text just before and after an element (`prefix`, `suffix`) is the pinned one's (see `adjacent`). */
export const quoteSides = (pinned: { prefix?: string; suffix?: string }, prefix: string, suffix: string) => ({
  before: adjacent(pinned.prefix ?? '', prefix, 'before') === 1,
  after: adjacent(pinned.suffix ?? '', suffix, 'after') === 1,
});

export const jaccard = (a: readonly string[], b: readonly string[]) => {
  if (!a.length && !b.length) return 1;
  const set = new Set(b);
  const shared = a.filter((item) => set.has(item)).length;
  return shared / (a.length + b.length - shared);
};

/** A neighbour's text seen only in part in the text recorded around an element (cut at 64 characters) counts from this length. */
const PART_SEEN = 16;

/**
 * Whether `text` stood in what was recorded just before (`before`) or after an element: what
 * follows holds it from a word's start, what came before up to a word's end; where the record
 * is cut, at least 16 characters of it (the start of what follows, the end of what came before).
 * Its other end need not be a word break: the texts of two elements may touch.
 */
export function stoodBeside(text: string, before: string, after: string): boolean {
  if (!text) return false;
  const enough = (part: string) => part.length === text.length || part.length >= PART_SEEN;
  const breaks = (around: string) => [...around.matchAll(/ /g)].map((match) => match.index);
  const following = [-1, ...breaks(after)].map((at) => after.slice(at + 1, at + 1 + text.length));
  const preceding = [...breaks(before), before.length].map((at) => before.slice(Math.max(0, at - text.length), at));
  return (
    following.some((part) => enough(part) && text.startsWith(part)) ||
    preceding.some((part) => enough(part) && text.endsWith(part))
  );
}
