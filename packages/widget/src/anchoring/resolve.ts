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
// found": a pin on the wrong element is worse than a pin listed apart. Unless the element kept
// its words, an element a fix reworded in its place weighs in (replaced.ts).
import type { Anchor } from '@svc/contract';
import { ACCEPTANCE, rivalOf } from './acceptance.js';
import { featuresOf, lookOf, nested } from './features.js';
import {
  bySelectorsOf,
  fewerOfKind,
  holdsOtherThanItsKind,
  inFull,
  knownByContent,
  lostItsClasses,
} from './pinned-look.js';
import type { Refusal } from './refusals.js';
import { madeAsPinned, reworded } from './replaced.js';
import { RootIndex } from './root-index.js';
import { candidates, identified, type Scored, score, showsNeighboursText } from './score.js';
import { matching, type Root } from './selectors.js';
import { Deadline, finish, type Steps } from './steps.js';
import {
  AROUND_FOR_CHANGED,
  FINALISTS,
  FINALISTS_MAX,
  IDENTITY,
  KEPT_IDENTITY,
  MARGIN,
  OWN_FOR_UNIDENTIFIED,
  SURE,
} from './thresholds.js';
import { changedAlike, changedTwin, toldApart } from './told-apart.js';

export type { Refusal } from './refusals.js';
export type Confidence = 'sure' | 'doubtful';

/** What the caller knows of the pinned element beyond its anchor. */
export interface Expecting {
  /** Its comment was fixed (applied, Live or verified): the fix may have changed its text. */
  fixed?: boolean;
}

export interface Resolution {
  element: Element;
  /** sure: the description agrees; doubtful: the best match, but something changed (shown as "moved?"). */
  confidence: Confidence;
  /** The share of the description the element agrees with, 0-1. */
  score: number;
}

/**
 * Resolves anchors against one page. Create one per pass (for instance once per animation
 * frame in which the page changed): it reads each element at most once.
 */
export class Resolver {
  private readonly indexes = new Map<Root, RootIndex>();
  /** Set `deadline.at` to have `steps` stop there (see `Steps`). */
  readonly deadline = new Deadline();
  /** Why the last anchor was not found (null when it was): for tests and for the curious. */
  refusal: Refusal | null = null;

  private refuse(why: Refusal): null {
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
  resolve(anchor: Anchor, expecting: Expecting = {}): Resolution | null {
    return finish(this.steps(anchor, expecting));
  }

  /**
   * `resolve`, in steps that stop when the deadline is due: a page's readings are kept, so a lookup
   * can go on in the next frame. The page may change between steps: see `readsAsItDid`.
   */
  *steps(anchor: Anchor, expecting: Expecting = {}): Steps<Resolution | null> {
    const described = yield* this.byDescription(anchor);
    const index = this.indexFor(anchor);
    if (!index) return described;
    const fixed = Boolean(expecting.fixed);
    // Its text or name kept, on an element made as it was: nothing to weigh against it. Of a
    // fixed comment, without twins to mistake it for, what changed around it is the fix's doing.
    if (described && score(index, anchor, described.element, true).identity >= KEPT_IDENTITY) {
      if (madeAsPinned(index, anchor, described.element)) {
        return fixed && !anchor.twins ? { ...described, confidence: 'sure' } : described;
      }
    }
    // Else the element a fix may have reworded, in its place, weighs in.
    const found = yield* reworded(index, anchor, described?.element ?? null, bySelectorsOf(index, anchor), fixed);
    if (found === 'described') return described;
    // Several reworded in its place, none telling: not against what was sure of itself.
    if (found === 'neither') return described?.confidence === 'sure' ? described : this.refuse('reworded-alike');
    this.refusal = null;
    // Expected of a fixed comment, the change the fix made; otherwise its words changed
    // unannounced: "moved?" (unless the description was sure of it).
    const sure = fixed || (found.element === described?.element && described.confidence === 'sure');
    return { element: found.element, confidence: sure ? 'sure' : 'doubtful', score: found.score };
  }

  private *byDescription(anchor: Anchor): Steps<Resolution | null> {
    this.refusal = null;
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
      const element = index.first(selector);
      if (!element) continue;
      found.push(element);
      const scored = score(index, anchor, element, true);
      const agrees =
        scored.score >= SURE &&
        scored.own >= SURE &&
        scored.identity >= IDENTITY &&
        scored.around >= 0.5 &&
        !(scored.identity < KEPT_IDENTITY && fewerOfKind(index, anchor)) &&
        !holdsOtherThanItsKind(index, anchor, scored.element);
      const taken =
        agrees &&
        !showsNeighboursText(index, anchor, scored.element) &&
        (yield* toldApart(index, anchor, scored.element))?.element === scored.element;
      if (taken) {
        return { element: scored.element, confidence: 'sure', score: scored.score };
      }
    }
    // An element without text or name of its own is known by the text around it and by its
    // tag and classes (its neighbour in the same link may be another icon): candidates that
    // differ in either are not it. Or, when nothing else looked like it, by what it holds, if
    // it alone still looks so and holds it (wrapped deeper, the text around it is out of reach).
    // An element with text or a name of its own is none that does not carry it.
    // Nor is an element showing what stood beside it when it was pinned: a neighbour that took
    // its place once it was removed.
    const eligible = (scored: Scored) =>
      (identified(anchor)
        ? scored.identity >= IDENTITY
        : (scored.around >= AROUND_FOR_CHANGED || knownByContent(index, anchor, scored.element)) &&
          (scored.own >= OWN_FOR_UNIDENTIFIED || lostItsClasses(index, anchor, scored.element))) &&
      !showsNeighboursText(index, anchor, scored.element);
    const ranked = (yield* this.rankedSteps(anchor, index, found)).filter(eligible);
    const top = this.bestOf(ranked);
    if (!top) return this.refuse('none');
    const told = yield* toldApart(index, anchor, top.element);
    if (!told) {
      const changed = (yield* changedTwin(index, anchor, top, ranked)) ?? changedAlike(index, anchor, ranked);
      return changed ? changedTo(changed) : this.refuse('look-alikes');
    }
    // Of twins, the one their order names, whichever scored best; compared in full here when the
    // quick ranking left it out (the text around it changed, and its twins, unchanged, went ahead).
    const best = [inFull(index, anchor, ranked, told.element)].find(eligible);
    if (!best) return this.refuse('look-alikes');
    const taking = { index, anchor, best, ranked, told };
    for (const rule of ACCEPTANCE) {
      const verdict = rule(taking);
      if (verdict) return 'changed' in verdict ? changedTo(verdict.changed) : this.refuse(verdict.refusal);
    }
    const margin = best.score - (rivalOf(taking)?.score ?? 0);
    return {
      element: best.element,
      // A twin taken by its rank where another scored better: their places moved ("moved?").
      confidence: best.score >= SURE && margin >= 2 * MARGIN && best === top ? 'sure' : 'doubtful',
      score: best.score,
    };
  }

  /**
   * The best candidate. Of an element and those around or inside it with the same text (a
   * wrapper, its content), nearly as likely, the one that is most itself (its tag, classes and
   * attributes); none when two are as much themselves.
   */
  private bestOf(ranked: Scored[]): Scored | undefined {
    const top = ranked[0];
    if (!top) return undefined;
    const aroundOrInside = ranked
      .filter((other) => top.score - other.score < MARGIN && nested(other.element, top.element))
      .sort((a, b) => b.own - a.own);
    const [first, second] = aroundOrInside;
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
    const quick: Scored[] = [];
    for (const element of yield* candidates(index, anchor, found ?? bySelectorsOf(index, anchor))) {
      quick.push(score(index, anchor, element, false));
      if (this.deadline.due()) yield;
    }
    quick.sort((a, b) => b.score - a.score);
    // The first few, and all as good as the first (look-alikes differ only in what is compared in full).
    const top = quick[0]?.score ?? 0;
    const finalists = quick.filter(
      (scored, rank) => rank < FINALISTS || (rank < FINALISTS_MAX && scored.score >= top - 0.02),
    );
    return finalists.map((scored) => score(index, anchor, scored.element, true)).sort((a, b) => b.score - a.score);
  }

  private indexFor(anchor: Anchor): RootIndex | null {
    const root = this.rootOf(anchor);
    return root ? this.indexOf(root) : null;
  }
}

/** The pinned element found changed: shown as "moved?". */
const changedTo = (scored: Scored): Resolution => ({
  element: scored.element,
  confidence: 'doubtful',
  score: scored.score,
});

/** Resolves one anchor against `document` (a pass of its own). */
export function resolveAnchor(anchor: Anchor, document: Document, expecting: Expecting = {}): Resolution | null {
  return new Resolver(document).resolve(anchor, expecting);
}
