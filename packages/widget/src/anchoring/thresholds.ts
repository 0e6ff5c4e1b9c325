// The tuned numbers of finding a pinned element again (`resolve.ts`), each with what it
// decides. `bench/anchoring` measures them: change one, and run it before and after.

// Whether the best candidate is taken: its share of the description (`score`), how well it
// carries the element's identity, the text around it and its sides, and its lead on rivals.

/** Taken at all only above this share of the description... */
export const ACCEPT = 0.55;
/** ...or above this one when its own text is exactly the same. */
export const ACCEPT_BY_TEXT = 0.4;
/** A rival as much itself as the best must be told apart by the text around them, by this much: its place alone does not tell (a copy inserted before an element takes its place). */
export const AROUND_MARGIN = 0.15;
/** A candidate whose identity agrees less than the best's by this much is no rival. */
export const RIVAL_IDENTITY = 0.2;
/** ...and then by this much of their place. */
export const PLACE_MARGIN = 0.25;
/** An element whose own text or name changed must have the text around it agree this much... */
export const AROUND_FOR_CHANGED = 0.6;
/** ...and on both of its sides (where they are known) this much... */
export const SIDES_FOR_CHANGED = 0.8;
/** An element reworded in its place (`replaced.ts`) whose sides the anchor does not know must have the text of what holds it agree this much: the same, or the same but for a few words. */
export const AROUND_WITHOUT_SIDES = 0.4;
/** An element without text or name of its own must itself agree this much (tag, classes). */
export const OWN_FOR_UNIDENTIFIED = 0.75;
/** An element showing the pinned text, or looking as the pinned element did, while fewer do so than when it was pinned (the pinned one may be gone), must have the text around it agree this much. */
export const AROUND_MIN = 0.6;
/** How far from a look-alike (in elements, in the page's order) the one that changed beside it is looked for. */
export const BETWEEN_MAX = 200;
/** A taken element is shown without doubt (not "moved?") above this share of the description. */
export const SURE = 0.8;
/** The best must lead the best candidate elsewhere (not inside it, nor around it) by this much. */
export const MARGIN = 0.12;
/** The identity (text, name, a naming attribute) must be at least this close. */
export const IDENTITY = 0.5;
/** An identity this high is the pinned text or name itself, kept (its case aside). */
export const KEPT_IDENTITY = 0.95;
/** Candidates compared in full after the quick ranking: this many, and up to the larger number when as good as the first. */
export const FINALISTS = 8;
export const FINALISTS_MAX = 24;
/** Elements of the anchor's tag are all candidates only when there are no more than this many. */
export const SAME_TAG_MAX = 400;

/**
 * How much each signal of the description counts in a candidate's score: a test id or an id is
 * the most telling (ids may be regenerated, hence not alone), the element's own text next, its
 * place the least (a copy inserted before an element takes its place).
 */
export const WEIGHTS = {
  testId: 4,
  id: 3,
  text: 3,
  name: 2,
  label: 2,
  tag: 1,
  role: 1,
  attribute: 1.5,
  type: 0.5,
  classes: 2,
  content: 2,
  parent: 1,
  sibling: 1,
  quote: 1,
  position: 1,
  selectors: 1,
};

// What a pass reads of the page (`root-index.ts`) before it changes its way of looking.

/** Lookups by attribute value asked of the page one by one, before one walk of it answers the rest. */
export const DIRECT_LOOKUPS = 24;

/** Look-alikes are read one by one, up to this many in a pass; past it, found by their text through an index of the page. */
export const LOOK_ALIKES_READ = 3000;
