// Finds a pinned element again on a page that may have changed since it was pinned.
//
// The anchor describes the element by many independent signals (after Similo and its
// successors, which find web elements after app releases by comparing many attributes at once,
// and Hypothesis, which re-anchors a quote by its text and the text around it): its text and
// accessible name, stable attributes, classes, role, label, the text around it, where it was,
// and selectors of different kinds. A candidate is scored by the weighted share of those
// signals it agrees with. The best is taken only when it agrees with most of the description,
// carries the element's identity (its text, name or a naming attribute, when it had any), and
// is clearly ahead of the best candidate elsewhere on the page. Otherwise the answer is "not
// found": a pin on the wrong element is worse than a pin listed apart.
import type { Anchor } from '@svc/contract';
import { featuresOf, lastingClass } from './features.js';
import { RootIndex } from './root-index.js';
import { first, matching, type Root } from './selectors.js';
import { adjacent, jaccard, lookOf, sameText, sameUrl, similarity } from './similarity.js';
import { Deadline, finish, type Steps } from './steps.js';
import {
  ACCEPT,
  ACCEPT_BY_TEXT,
  AROUND_FOR_CHANGED,
  AROUND_MARGIN,
  AROUND_MIN,
  FINALISTS,
  FINALISTS_MAX,
  IDENTITY,
  MARGIN,
  OWN_FOR_UNIDENTIFIED,
  PLACE_MARGIN,
  RIVAL_IDENTITY,
  SAME_TAG_MAX,
  SIDES_FOR_CHANGED,
  SURE,
  WEIGHTS,
} from './thresholds.js';

export type Confidence = 'sure' | 'doubtful';

export interface Resolution {
  element: Element;
  /** sure: the description agrees; doubtful: the best match, but something changed (shown as "moved?"). */
  confidence: Confidence;
  /** The share of the description the element agrees with, 0-1. */
  score: number;
}

const NAMING_ATTRIBUTES = ['name', 'href', 'src', 'alt', 'ariaLabel', 'placeholder', 'title'] as const;

/** Whether the element had anything of its own to be known by: its text, a name, a naming attribute (ids aside: they may be regenerated). */
const identified = (anchor: Anchor) => {
  const a = anchor.attributes ?? {};
  return Boolean(
    anchor.text?.exact ||
      anchor.name ||
      anchor.label ||
      a.testId ||
      NAMING_ATTRIBUTES.some((key) => a[key] && !meaningless(a[key])),
  );
};

/** The text around an element without one of its own (an icon: its link's label) names it, as its own text would. */
const parentWeight = (anchor: Anchor) => (identified(anchor) ? WEIGHTS.parent : WEIGHTS.text);

/** Link targets that name nothing: `#`, `javascript:…`. */
const meaningless = (value: string | undefined) =>
  !value || /^(#!?|javascript:.*)$/i.test(value.trim()) || !/[\p{L}\p{N}]/u.test(value);

export interface Scored {
  element: Element;
  /** The weighted share of the description it agrees with. */
  score: number;
  /** How well it carries the element's identity (its text, name, label, naming attributes), when the element had one; 1 when not. */
  identity: number;
  /** How well the element itself agrees: identity, tag, role, classes, attributes. */
  own: number;
  /** How well the text around it agrees (its parent's, its siblings', just before and after); 1 when not compared. */
  around: number;
  /** How well its place agrees (its position, the selectors that find it); 1 when not compared. */
  place: number;
  /** How well the weaker of its two sides agrees (the sibling or text just before it, and just after); 0 when the anchor knows neither. */
  sides: number;
}

/** Weighted agreements, added up per part of the description. */
class Tally {
  private readonly sums = { all: 0, identity: 0, own: 0, around: 0, place: 0 };
  private readonly totals = { all: 0, identity: 0, own: 0, around: 0, place: 0 };

  add(part: 'identity' | 'own' | 'around' | 'place', weight: number, agreement: number): void {
    const parts = part === 'identity' ? (['all', 'identity', 'own'] as const) : (['all', part] as const);
    for (const name of parts) {
      this.sums[name] += weight * agreement;
      this.totals[name] += weight;
    }
  }

  share(part: keyof Tally['sums'], none: number): number {
    return this.totals[part] ? this.sums[part] / this.totals[part] : none;
  }
}

/** A viewport-relative box in the document's coordinates. */
function documentBox(el: Element, box: DOMRect) {
  const view = el.ownerDocument.defaultView;
  return { left: box.left + (view?.scrollX ?? 0), top: box.top + (view?.scrollY ?? 0) };
}

/**
 * Resolves anchors against one page. Create one per pass (for instance once per animation
 * frame in which the page changed): it reads each element at most once.
 */
export class Resolver {
  private readonly indexes = new Map<Root, RootIndex>();
  /** Set `deadline.at` to have `steps` stop there (see `Steps`). */
  readonly deadline = new Deadline();
  /** Why the last anchor was not found: for tests and for the curious. */
  refusal = '';

  private refuse(why: string): null {
    this.refusal = why;
    return null;
  }

  constructor(private readonly document: Document) {}

  /**
   * Whether `el` still reads as this pass read it (its text and classes): a lookup that went on
   * over several frames read a page that may have changed meanwhile.
   */
  readsAsItDid(el: Element): boolean {
    const index = this.indexes.get(el.getRootNode() as Root);
    if (!index || !el.isConnected) return false;
    const now = featuresOf(el);
    return lookOf(now.tag, now.text, now.classes, now.attributes) === index.lookOf(el);
  }

  private indexOf(root: Root): RootIndex {
    let index = this.indexes.get(root);
    if (!index) {
      index = new RootIndex(root, this.deadline);
      this.indexes.set(root, index);
    }
    return index;
  }

  /** The document or shadow root the anchor's element lives in, following its frames; null when one is gone. */
  private rootOf(anchor: Anchor): Root | null {
    let root: Root = this.document;
    for (const frame of anchor.frames ?? []) {
      const host: Element | undefined = matching(root, frame.selector)[0];
      if (!host) return null;
      if (frame.kind === 'shadow') {
        if (!host.shadowRoot) return null;
        root = host.shadowRoot;
      } else {
        try {
          const inner: Document | null = (host as HTMLIFrameElement).contentDocument;
          if (!inner) return null;
          root = inner;
        } catch {
          return null;
        }
      }
    }
    return root;
  }

  /** The element `anchor` describes, or null (`refusal` says why). */
  resolve(anchor: Anchor): Resolution | null {
    return finish(this.steps(anchor));
  }

  /**
   * `resolve`, in steps that stop when the deadline is due: a page's readings are kept, so a lookup
   * can go on in the next frame. The page may change between steps: see `readsAsItDid`.
   */
  *steps(anchor: Anchor): Steps<Resolution | null> {
    this.refusal = '';
    const index = this.indexFor(anchor);
    if (!index) return this.refuse('frame');
    const root = index.root;
    // An anchor from before descriptions has only its selector to go by.
    if (anchor.tag === undefined) {
      const element = matching(root, anchor.selector)[0];
      return element ? { element, confidence: 'sure', score: 1 } : this.refuse('selector');
    }
    const selectors = [anchor.selector, ...(anchor.selectors ?? [])];
    // Fast path: a selector still finds one element, and the description agrees, the element
    // itself and the text around it.
    const found: Element[] = [];
    for (const selector of selectors) {
      const element = first(root, selector);
      if (!element) continue;
      found.push(element);
      const scored = this.score(index, anchor, element, true);
      const agrees = scored.score >= SURE && scored.own >= SURE && scored.identity >= IDENTITY && scored.around >= 0.5;
      if (agrees && (yield* this.toldApart(index, anchor, scored.element))) {
        return { element: scored.element, confidence: 'sure', score: scored.score };
      }
    }
    // An element without text or name of its own is known by the text around it and by its
    // tag and classes (its neighbour in the same link may be another icon): candidates that
    // differ in either are not it.
    // An element with text or a name of its own is none that does not carry it.
    const ranked = (yield* this.rankedSteps(anchor, index, found)).filter((scored) =>
      identified(anchor)
        ? scored.identity >= IDENTITY
        : scored.around >= AROUND_FOR_CHANGED && scored.own >= OWN_FOR_UNIDENTIFIED,
    );
    const best = this.bestOf(ranked);
    if (!best) return this.refuse('none');
    if (!(yield* this.toldApart(index, anchor, best.element))) return this.refuse('look-alikes');
    // Enough of the description agrees; or the element's own text, exactly, with little else.
    if (best.score < ACCEPT && !(best.identity >= 0.95 && best.score >= ACCEPT_BY_TEXT)) return this.refuse('weak');
    // Fewer elements show its text than when it was pinned: this may be another that showed it
    // too, so what is around it must not be all different.
    const text = anchor.text?.exact;
    if (text && anchor.textCount && best.around < AROUND_MIN && index.showing(text) < anchor.textCount) {
      return this.refuse('fewer-showing');
    }
    // Its text or name changed, or it has none: then the text around it must say it is the
    // one, on both sides (a neighbour of a removed element agrees on one side at most).
    if (best.identity < 0.95 && (best.around < AROUND_FOR_CHANGED || best.sides < SIDES_FOR_CHANGED)) {
      return this.refuse('changed-unsupported');
    }
    // The best rival: elsewhere on the page (not inside the best, nor around it), and carrying
    // the identity nearly as well (an exact text is not rivalled by a similar one).
    const rival = ranked.find(
      (other) =>
        other !== best &&
        !other.element.contains(best.element) &&
        !best.element.contains(other.element) &&
        other.identity >= Math.max(IDENTITY, best.identity - RIVAL_IDENTITY),
    );
    const margin = best.score - (rival?.score ?? 0);
    // A rival as much itself as the best is told apart by the text around them, not by the
    // score, which their places sway (a copy inserted before an element takes its place);
    // their places decide only while the page has as many look-alikes as when it was pinned.
    const alike = rival && rival.own >= best.own - 0.05 && rival.identity >= best.identity - 0.05;
    if (alike) {
      const byText = best.around - rival.around >= AROUND_MARGIN;
      const byPlace = Boolean(anchor.twins) && best.place - rival.place >= PLACE_MARGIN;
      if (!byText && !byPlace) return this.refuse('alike-rival');
    } else if (margin < MARGIN) {
      return this.refuse('rival');
    }
    return {
      element: best.element,
      confidence: best.score >= SURE && margin >= 2 * MARGIN ? 'sure' : 'doubtful',
      score: best.score,
    };
  }

  /**
   * Whether `el` can be told from its look-alikes as the pinned element could. Elements that
   * look alike (same tag, text, classes and attributes but the id) with the same text around
   * them differ only by their place, and their places tell them apart only as long as there
   * are as many as when it was pinned: one more (a copy inserted before it) or one fewer (one
   * removed, perhaps the pinned one) and nothing does. When `el` alone changed (elements
   * still look as the pinned one did), the rivalry rules decide.
   */
  private *toldApart(index: RootIndex, anchor: Anchor, el: Element): Steps<boolean> {
    const look = index.lookOf(el);
    const was = lookOf(anchor.tag ?? '', anchor.text?.exact ?? '', anchor.classes ?? [], anchor.attributes ?? {});
    if (look !== was && index.lookingLike(anchor.tag ?? '', was).length > 0) return true;
    return (yield* index.indistinguishable(el)) === (anchor.twins ?? 0) + 1;
  }

  /**
   * The best candidate. Of an element and those around or inside it with the same text (a
   * wrapper, its content), nearly as likely, the one that is most itself (its tag, classes and
   * attributes); none when two are as much themselves.
   */
  private bestOf(ranked: Scored[]): Scored | undefined {
    const top = ranked[0];
    if (!top) return undefined;
    const nested = ranked
      .filter(
        (other) =>
          top.score - other.score < MARGIN &&
          (other === top || other.element.contains(top.element) || top.element.contains(other.element)),
      )
      .sort((a, b) => b.own - a.own);
    const [first, second] = nested;
    // As much themselves (their classes lost, say): the one whose place and size agree.
    if (second && first && first.own - second.own < 0.05) {
      const byPlace = [first, second].sort((a, b) => b.place - a.place);
      return byPlace[0] && byPlace[1] && byPlace[0].place - byPlace[1].place >= 0.1 ? byPlace[0] : undefined;
    }
    return first;
  }

  /**
   * The candidates most like the anchor, best first, each with its score: all are ranked
   * quickly on what each element has read off it, the first few compared in full.
   */
  ranked(anchor: Anchor): Scored[] {
    const index = this.indexFor(anchor);
    return index ? finish(this.rankedSteps(anchor, index)) : [];
  }

  private *rankedSteps(anchor: Anchor, index: RootIndex, found?: Element[]): Steps<Scored[]> {
    const bySelectors =
      found ?? [anchor.selector, ...(anchor.selectors ?? [])].flatMap((selector) => first(index.root, selector) ?? []);
    const quick: Scored[] = [];
    for (const element of yield* this.candidates(index, anchor, bySelectors)) {
      quick.push(this.score(index, anchor, element, false));
      if (this.deadline.due()) yield;
    }
    quick.sort((a, b) => b.score - a.score);
    // The first few, and all as good as the first (look-alikes differ only in what is compared in full).
    const top = quick[0]?.score ?? 0;
    const finalists = quick.filter(
      (scored, rank) => rank < FINALISTS || (rank < FINALISTS_MAX && scored.score >= top - 0.02),
    );
    return finalists.map((scored) => this.score(index, anchor, scored.element, true)).sort((a, b) => b.score - a.score);
  }

  private indexFor(anchor: Anchor): RootIndex | null {
    const root = this.rootOf(anchor);
    return root ? this.indexOf(root) : null;
  }

  /** Where to look: what the selectors find (the first of each), elements sharing a naming attribute or a class, elements starting with the same text, and elements of the same tag when they are few. */
  private *candidates(index: RootIndex, anchor: Anchor, bySelectors: Element[]): Steps<Set<Element>> {
    const found = new Set<Element>(bySelectors);
    const add = (elements: Iterable<Element>) => {
      for (const element of elements) found.add(element);
    };
    const a = anchor.attributes ?? {};
    if (a.id) add(yield* index.withValue('id', a.id));
    if (a.testId) add(yield* index.withValue('testId', a.testId));
    for (const key of NAMING_ATTRIBUTES) {
      const value = a[key];
      if (value && !meaningless(value)) add(yield* index.withValue(key, value));
    }
    // Its first class, as written or else with a build's hash after it (see `stableClass`).
    const firstClass = anchor.classes?.[0];
    if (firstClass) {
      const named = matching(index.root, `.${CSS.escape(firstClass)}`);
      add((named.length ? named : matching(index.root, `[class*="${CSS.escape(firstClass)}__"]`)).slice(0, 1000));
    }
    const text = anchor.text?.exact || anchor.name;
    if (text || anchor.context?.parent) yield* index.readingTexts();
    if (text) add(index.withTextStart(text));
    // An element without text of its own (an icon) is looked for in what has the text around it.
    else if (anchor.context?.parent && anchor.tag) {
      for (const holder of index.withTextStart(anchor.context.parent)) {
        add(matching(holder as unknown as Root, CSS.escape(anchor.tag)).slice(0, 20));
      }
    }
    if (anchor.tag) {
      const sameTag = index.withTag(anchor.tag);
      if (sameTag.length <= SAME_TAG_MAX) add(sameTag);
    }
    return found;
  }

  /**
   * The share of the anchor's description that `el` agrees with. Quick: equality of what
   * every element has read off it; full: similarity of texts, and the text around it, where it
   * is and which selectors find it.
   */
  private score(index: RootIndex, anchor: Anchor, el: Element, full: boolean): Scored {
    const f = index.featuresOf(el);
    const tally = new Tally();
    const alike = (a: string, b: string) => (full ? similarity(a, b) : a === b ? 1 : 0);
    const a = anchor.attributes ?? {};
    if (a.testId) tally.add('identity', WEIGHTS.testId, a.testId === f.attributes.testId ? 1 : 0);
    // Ids are not identity: they may be regenerated.
    if (a.id) tally.add('own', WEIGHTS.id, a.id === el.id ? 1 : 0);
    const text = anchor.text?.exact ?? '';
    if (text) tally.add('identity', WEIGHTS.text, alike(text, f.text));
    else tally.add('own', WEIGHTS.text / 3, f.text ? 0 : 1);
    if (anchor.name && anchor.name !== text) tally.add('identity', WEIGHTS.name, alike(anchor.name, f.name));
    if (anchor.label) tally.add('identity', WEIGHTS.label, alike(anchor.label, f.label));
    for (const key of NAMING_ATTRIBUTES) {
      const value = a[key];
      if (!value || meaningless(value)) continue;
      const now = f.attributes[key] ?? '';
      tally.add(
        'identity',
        WEIGHTS.attribute,
        key === 'href' || key === 'src' ? sameUrl(value, now) : alike(value, now),
      );
    }
    tally.add('own', WEIGHTS.tag, anchor.tag === f.tag ? 1 : 0);
    if (anchor.role || f.role) tally.add('own', WEIGHTS.role, (anchor.role ?? '') === f.role ? 1 : 0);
    if (a.type) tally.add('own', WEIGHTS.type, a.type === f.attributes.type ? 1 : 0);
    if (anchor.classes?.length || f.classes.length) {
      // An anchor of an earlier release may hold state classes: they are not compared.
      tally.add('own', WEIGHTS.classes, jaccard((anchor.classes ?? []).filter(lastingClass), f.classes));
    }
    const sides = full ? this.compareSurroundings(tally, index, anchor, el) : 1;
    if (!full && anchor.context?.parent) {
      tally.add('around', parentWeight(anchor), anchor.context.parent === index.contextOf(el).parent ? 1 : 0);
    }
    return {
      element: el,
      score: tally.share('all', 0),
      identity: tally.share('identity', 1),
      own: tally.share('own', 0),
      around: tally.share('around', 1),
      place: tally.share('place', 1),
      sides,
    };
  }

  /**
   * The text around it (its parent's, its siblings', just before and after), its position, and
   * the selectors that find it. Returns how well the weaker of its two sides agrees.
   */
  private compareSurroundings(tally: Tally, index: RootIndex, anchor: Anchor, el: Element): number {
    const around = index.surroundingsOf(el);
    const context = anchor.context ?? {};
    if (context.parent || around.context.parent) {
      // The same, or else alike at half weight: a template repeats most words of its parents.
      const was = context.parent ?? '';
      const now = around.context.parent ?? '';
      tally.add('around', parentWeight(anchor), sameText(was, now) === 1 ? 1 : similarity(was, now) / 2);
    }
    // Undefined until compared: a side the anchor knows nothing of confirms nothing.
    const sides: { previous?: number; next?: number } = {};
    for (const [side, other] of [
      ['previous', 'next'],
      ['next', 'previous'],
    ] as const) {
      if (context[side] || around.context[side]) {
        // Siblings that swapped sides (a list reversed) still say where it is, less surely.
        const same = sameText(context[side] ?? '', around.context[side] ?? '');
        const swapped = sameText(context[side] ?? '', around.context[other] ?? '') / 2;
        tally.add('around', WEIGHTS.sibling, Math.max(same, swapped));
        sides[side] = same;
      }
    }
    if (anchor.text?.prefix) {
      const agreement = adjacent(anchor.text.prefix, around.prefix, 'before');
      tally.add('around', WEIGHTS.quote, agreement);
      sides.previous = Math.max(sides.previous ?? 0, agreement);
    }
    if (anchor.text?.suffix) {
      const agreement = adjacent(anchor.text.suffix, around.suffix, 'after');
      tally.add('around', WEIGHTS.quote, agreement);
      sides.next = Math.max(sides.next ?? 0, agreement);
    }
    const was = anchor.position;
    const view = el.ownerDocument.defaultView;
    // Where it was says little once the page is laid out for another width.
    if (was && view && Math.abs(view.innerWidth - was.viewportWidth) <= was.viewportWidth * 0.1) {
      const now = documentBox(el, around.box);
      const distance = Math.hypot(now.left - was.left, now.top - was.top);
      const near = Math.max(0, 1 - distance / Math.max(600, was.viewportHeight));
      const ratio = (a: number, b: number) => (Math.max(a, b) ? Math.min(a, b) / Math.max(a, b) : 1);
      const size = ratio(around.box.width, was.width) * ratio(around.box.height, was.height);
      tally.add('place', WEIGHTS.position, (near + size) / 2);
    }
    const selectors = [anchor.selector, ...(anchor.selectors ?? [])];
    const matched = selectors.filter((selector) => {
      try {
        return el.matches(selector);
      } catch {
        return false;
      }
    }).length;
    tally.add('place', WEIGHTS.selectors, matched / selectors.length);
    // Both sides when both are known; one that is known; nothing confirmed when neither is.
    if (sides.previous === undefined && sides.next === undefined) return 0;
    return Math.min(sides.previous ?? 1, sides.next ?? 1);
  }
}

/** Resolves one anchor against `document` (a pass of its own). */
export function resolveAnchor(anchor: Anchor, document: Document): Resolution | null {
  return new Resolver(document).resolve(anchor);
}
