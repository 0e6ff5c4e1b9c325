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
import { featuresOf, lastingClass } from './features.js';
import { madeAsPinned, reworded } from './replaced.js';
import { RootIndex } from './root-index.js';
import { candidates, identified, type Scored, score, showsNeighboursText } from './score.js';
import { inPageOrder, isDocument, matching, nested, type Root } from './selectors.js';
import { lookOf, ofKind, similarity } from './similarity.js';
import { Deadline, finish, type Steps } from './steps.js';
import {
  ACCEPT,
  ACCEPT_BY_TEXT,
  AROUND_FOR_CHANGED,
  AROUND_MARGIN,
  AROUND_MIN,
  BETWEEN_MAX,
  FINALISTS,
  FINALISTS_MAX,
  IDENTITY,
  KEPT_IDENTITY,
  MARGIN,
  OWN_FOR_UNIDENTIFIED,
  PLACE_MARGIN,
  RIVAL_IDENTITY,
  SIDES_FOR_CHANGED,
  SURE,
} from './thresholds.js';
import { ofTwins } from './twins.js';

export type Confidence = 'sure' | 'doubtful';

/** The element taken of a group of twins by their order (`twins`, in the page's order; none when there was no need). */
interface TwinOrder {
  element: Element;
  twins: Element[];
  /** It looks as the pinned element did, with the pinned text around it, and as many do so as then. */
  asPinned?: boolean;
}

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
    this.refusal = '';
    // Expected of a fixed comment, the change the fix made; otherwise its words changed
    // unannounced: "moved?" (unless the description was sure of it).
    const sure = fixed || (found.element === described?.element && described.confidence === 'sure');
    return { element: found.element, confidence: sure ? 'sure' : 'doubtful', score: found.score };
  }

  private *byDescription(anchor: Anchor): Steps<Resolution | null> {
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
        (yield* this.toldApart(index, anchor, scored.element))?.element === scored.element;
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
    const told = yield* this.toldApart(index, anchor, top.element);
    if (!told) {
      const changed = (yield* this.changedTwin(index, anchor, top, ranked)) ?? this.changedAlike(index, anchor, ranked);
      return changed ? changedTo(changed) : this.refuse('look-alikes');
    }
    // Of twins, the one their order names, whichever scored best; compared in full here when the
    // quick ranking left it out (the text around it changed, and its twins, unchanged, went ahead).
    const best = [inFull(index, anchor, ranked, told.element)].find(eligible);
    if (!best) return this.refuse('look-alikes');
    // Enough of the description agrees; or the element's own text, exactly, with little else.
    if (best.score < ACCEPT && !(best.identity >= KEPT_IDENTITY && best.score >= ACCEPT_BY_TEXT))
      return this.refuse('weak');
    // Its text or name changed, and one of its kind is gone: a neighbour may have taken the
    // place of the pinned element, removed.
    if (best.identity < KEPT_IDENTITY && fewerOfKind(index, anchor)) return this.refuse('fewer-of-kind');
    // It shows the pinned text, or looks as the pinned element did (an image, a field: no text
    // to count), and fewer elements do so than when it was pinned: this may be another like it,
    // the pinned one gone, so what is around it must mostly agree; or the pinned one changed
    // (its text edited, a class), and stands in its place among them.
    const text = anchor.text?.exact;
    const fewerShowing =
      text &&
      anchor.textCount &&
      index.featuresOf(best.element).text === text &&
      index.showing(text) < anchor.textCount;
    // And where it does not look as the pinned one did, while fewer look so too, the pinned one
    // is gone, whatever the text around this one: it always differed (a plan's greyed-out
    // feature, the same feature of the plan beside gone).
    if (
      fewerShowing &&
      anchor.kin !== undefined &&
      !looksAsPinned(index, anchor, best.element) &&
      lookingAsPinned(index, anchor).length < (anchor.alikes ?? 0) + 1
    ) {
      return this.refuse('gone');
    }
    if (best.around < AROUND_MIN) {
      const fewerAlike =
        anchor.alikes !== undefined &&
        looksAsPinned(index, anchor, best.element) &&
        lookingAsPinned(index, anchor).length < anchor.alikes + 1;
      if (fewerShowing || fewerAlike) {
        const changed = this.changedAlike(index, anchor, ranked);
        return changed ? changedTo(changed) : this.refuse('fewer-alike');
      }
    }
    // Its text or name changed, or it has none; or it holds something else where others of its
    // kind were told from it by what they hold (a swatch of another colour, not an icon swapped
    // with its state): then the text around it must say it is the one, on both sides (a
    // neighbour of a removed element agrees on one side at most).
    const changed = best.identity < KEPT_IDENTITY || holdsOtherThanItsKind(index, anchor, best.element);
    if (changed && (best.around < AROUND_FOR_CHANGED || best.sides < SIDES_FOR_CHANGED)) {
      return this.refuse('changed-unsupported');
    }
    // The best rival: elsewhere on the page (not inside the best, nor around it), and carrying
    // the identity nearly as well (an exact text is not rivalled by a similar one). Where the
    // best shows the pinned text and as many show it as when it was pinned, only another that
    // carries it as well is a rival: its neighbours' texts, alike but for a word, are not.
    const textKept =
      best.identity >= KEPT_IDENTITY &&
      text !== undefined &&
      index.featuresOf(best.element).text === text &&
      asManyShowItsText(index, anchor);
    const rivalIdentity = textKept ? KEPT_IDENTITY : Math.max(IDENTITY, best.identity - RIVAL_IDENTITY);
    // Where the best looks as the pinned element did, and as many look so as when it was pinned,
    // what looks otherwise is no rival: the pinned one did not change.
    const lookKept = looksAsPinned(index, anchor, best.element) && asManyLookAlike(index, anchor);
    const rival = ranked.find(
      (other) =>
        other !== best &&
        !told.twins.includes(other.element) &&
        !nested(other.element, best.element) &&
        other.identity >= rivalIdentity &&
        !(lookKept && !looksAsPinned(index, anchor, other.element)),
    );
    const margin = best.score - (rival?.score ?? 0);
    // A rival as much itself as the best is told apart by the text around them, not by the
    // score, which their places sway (a copy inserted before an element takes its place);
    // their places decide only while the page has as many look-alikes as when it was pinned.
    const alike = rival && rival.own >= best.own - 0.05 && rival.identity >= best.identity - 0.05;
    if (alike) {
      const byText = best.around - rival.around >= AROUND_MARGIN;
      const byPlace = Boolean(anchor.twins) && best.place - rival.place >= PLACE_MARGIN;
      // Or by the text around them: the best's is the pinned one, the rival's is not.
      const byParent = told.asPinned && index.parentTextOf(rival.element) !== anchor.context?.parent;
      if (!byText && !byPlace && !byParent) return this.refuse('alike-rival');
    } else if (margin < MARGIN) {
      return this.refuse('rival');
    }
    return {
      element: best.element,
      // A twin taken by its rank where another scored better: their places moved ("moved?").
      confidence: best.score >= SURE && margin >= 2 * MARGIN && best === top ? 'sure' : 'doubtful',
      score: best.score,
    };
  }

  /**
   * Which of `el` and its twins is the pinned element, when they can be told apart as they
   * could when it was pinned; null when not. Twins (the same tag, text, classes and attributes
   * but the id, with the same text around them) differ only by their place, and their order in
   * the page tells them apart only as long as there are as many as when it was pinned: one
   * more (a copy inserted before it) or one fewer (one removed, perhaps the pinned one) and
   * nothing does. When `el` alone changed (elements still look as the pinned one did), the
   * rivalry rules decide.
   */
  private *toldApart(index: RootIndex, anchor: Anchor, el: Element): Steps<TwinOrder | null> {
    const asPinned = looksAsPinned(index, anchor, el);
    if (!asPinned) {
      // One element alone looks as the pinned one did, as when it was pinned: it is the pinned
      // one, unchanged; `el` another that changed, or always differed (a class more).
      const [only, another] = lookingAsPinned(index, anchor);
      if (only && !another && asManyLookAlike(index, anchor)) return { element: only, twins: [] };
      // Several do, as many as then, and as many show its text: the one at the pinned one's
      // rank among them (a card's "Dedicated support", not another card's greyed out).
      const byRank = another && asManyLookAlike(index, anchor) && this.byLookAlikes(index, anchor);
      if (byRank) return byRank;
      if (only) return { element: el, twins: [] };
    }
    // Where the text around `el` is not the pinned one (a line like the pinned one inserted
    // before it), the twins are those with the pinned look and the pinned text around them.
    const parent = anchor.context?.parent;
    const pinnedAround = asPinned && Boolean(parent) && index.parentTextOf(el) === parent;
    if (asPinned && parent && !pinnedAround) {
      const pinnedTwins = lookingAsPinned(index, anchor).filter((other) => index.parentTextOf(other) === parent);
      const element = pinnedTwins.length === (anchor.twins ?? 0) + 1 && ofTwins(index, anchor, pinnedTwins);
      if (element) return { element, twins: pinnedTwins.length > 1 ? pinnedTwins : [], asPinned: true };
    }
    // Its twins hold what the pinned one held; `el`, alone of its kind, may hold something else
    // now (an icon swapped with its state).
    const twins = (yield* index.indistinguishable(el)).filter(
      (twin) => holdsAsPinned(index, anchor, twin) || (twin === el && !holdsOtherThanItsKind(index, anchor, el)),
    );
    if (twins.length !== (anchor.twins ?? 0) + 1) return this.byLookAlikes(index, anchor);
    // An anchor of an earlier release does not say where it stood among them.
    if (anchor.twinsBefore === undefined || twins.length === 1)
      return { element: el, twins: [], asPinned: pinnedAround };
    const element = ofTwins(index, anchor, twins);
    return element ? { element, twins, asPinned: pinnedAround } : null;
  }

  /**
   * When the text around some twins changed (an item added beside one of them) but not how
   * many look as the pinned element did: all look-alikes, told apart by their order while they
   * are as many as when it was pinned and as many elements show its text.
   */
  private byLookAlikes(index: RootIndex, anchor: Anchor): TwinOrder | null {
    if (anchor.alikes === undefined || anchor.alikesBefore === undefined) return null;
    const alikes = lookingAsPinned(index, anchor);
    if (alikes.length !== anchor.alikes + 1 || !asManyShowItsText(index, anchor)) return null;
    const element = alikes[anchor.alikesBefore];
    return element ? { element, twins: alikes } : null;
  }

  /**
   * The pinned element when it alone of its twins changed (its tag, a class): the best looks as
   * it did, one twin fewer looks so, as many elements show its text, and one candidate with its
   * text and the same text around it stands where the pinned element stood among them in the
   * page's order.
   */
  private *changedTwin(index: RootIndex, anchor: Anchor, best: Scored, ranked: Scored[]) {
    const text = index.featuresOf(best.element).text;
    // As many show its text as when it was pinned: none was removed.
    if (anchor.twins === undefined || anchor.twinsBefore === undefined || index.showing(text) !== anchor.textCount) {
      return undefined;
    }
    const twins = yield* index.indistinguishable(best.element);
    if (twins.length !== anchor.twins) return undefined;
    const parent = index.parentTextOf(best.element);
    // Looked for among all that show its text: with its twins ahead, the changed one may rank
    // below the finalists.
    const alike = [...new Set(index.withTextStart(text))]
      .filter(
        (el) =>
          !twins.some((twin) => nested(twin, el)) &&
          index.featuresOf(el).text === text &&
          index.parentTextOf(el) === parent,
      )
      .map((el) => inFull(index, anchor, ranked, el));
    // Of an element and its wrapper with the same text (a list item), the one more itself.
    // And one that looks like none of the others: those that look alike among themselves (a
    // lead paragraph's copies beside the pinned one's) stood there when it was pinned.
    const looksAlone = (scored: Scored) =>
      !alike.some((other) => other !== scored && index.lookOf(other.element) === index.lookOf(scored.element));
    const changed = aloneIfMany(
      index,
      alike.filter((scored) => !outdone(scored, alike) && looksAlone(scored)),
    );
    const [only] = changed;
    if (!only || changed.length > 1) return undefined;
    const order = [...twins, only.element].sort(inPageOrder);
    return order.indexOf(only.element) === anchor.twinsBefore ? only : undefined;
  }

  /**
   * The pinned element when it alone of its look-alikes changed: one fewer looks as it did, and
   * in its place among them (after the look-alike that stood before it, before the one that
   * stood after it) one element is what it became. Either its text was edited (of its tag and
   * classes, a text like the pinned one, which one fewer element shows) or its tag or classes
   * changed (its text, shown by as many as before).
   */
  private changedAlike(index: RootIndex, anchor: Anchor, ranked: Scored[]): Scored | undefined {
    const before = anchor.alikesBefore;
    // Known only by what shows its text (an element without, or with a text too long to count, is not).
    const text = anchor.text?.exact;
    const count = anchor.textCount;
    if (anchor.alikes === undefined || before === undefined || !text || !count) return undefined;
    const alikes = lookingAsPinned(index, anchor);
    if (alikes.length !== anchor.alikes) return undefined;
    const showing = index.showing(text);
    // Edited, it is still of its kind: one fewer of its kind, and it may be gone.
    const edited = showing === count - 1;
    if (edited ? fewerOfKind(index, anchor) : showing !== count) return undefined;
    const classes = anchor.classes ?? [];
    const became = (el: Element) => {
      const f = index.featuresOf(el);
      const sameClasses = ofKind(classes, f.classes) && ofKind(f.classes, classes);
      if (edited) return f.tag === anchor.tag && sameClasses && f.text !== text && similarity(f.text, text) >= IDENTITY;
      // Its tag or its classes changed, not both.
      return f.text === text && (f.tag === anchor.tag) !== sameClasses;
    };
    const found = between(index.root, alikes[before - 1], alikes[before])
      .filter(became)
      .map((el) => inFull(index, anchor, ranked, el));
    // Of an element and its wrapper with the same text (a list item), the one more itself; and
    // what its surroundings, on both sides, support (not another of its kind further off, its
    // words alike: "$20.00" for "$50.00").
    const [only, another] = aloneIfMany(
      index,
      found
        .filter((scored) => !outdone(scored, found))
        .filter((scored) => scored.around >= AROUND_FOR_CHANGED && scored.sides >= SIDES_FOR_CHANGED),
    );
    return only && !another && only.identity >= IDENTITY ? only : undefined;
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

/** The first element each of the anchor's selectors finds. */
const bySelectorsOf = (index: RootIndex, anchor: Anchor) =>
  [anchor.selector, ...(anchor.selectors ?? [])].flatMap((selector) => index.first(selector) ?? []);

/** `el` as `ranked` scored it, or else scored in full now (the quick ranking left it out). */
const inFull = (index: RootIndex, anchor: Anchor, ranked: Scored[], el: Element) =>
  ranked.find((scored) => scored.element === el) ?? score(index, anchor, el, true);

/** The pinned element found changed: shown as "moved?". */
const changedTo = (scored: Scored): Resolution => ({
  element: scored.element,
  confidence: 'doubtful',
  score: scored.score,
});

/** What the pinned element looked like (see `lookOf`). */
const pinnedLook = (anchor: Anchor) =>
  lookOf(anchor.tag ?? '', anchor.text?.exact ?? '', anchor.classes ?? [], anchor.attributes ?? {});

/** Whether `el` holds what the pinned element held, when it had no text (see `contentOf`; an anchor of an earlier release does not say). */
const holdsAsPinned = (index: RootIndex, anchor: Anchor, el: Element) =>
  anchor.content === undefined || index.contentOf(el) === anchor.content;

/**
 * Whether `el` holds something else than the pinned element held, where others of its kind
 * were told from it by what they hold (a swatch of another colour; not a lone toggle whose icon
 * changed with its state).
 */
const holdsOtherThanItsKind = (index: RootIndex, anchor: Anchor, el: Element) =>
  (anchor.kin ?? 0) > 1 && !holdsAsPinned(index, anchor, el);

/** Whether `el` looks as the pinned element did, and holds what it held. */
const looksAsPinned = (index: RootIndex, anchor: Anchor, el: Element) =>
  index.lookOf(el) === pinnedLook(anchor) && holdsAsPinned(index, anchor, el);

/** The elements that look as the pinned element did, and hold what it held, in the page's order. */
const lookingAsPinned = (index: RootIndex, anchor: Anchor) =>
  index
    .lookingLike(anchor.tag ?? '', anchor.text?.exact ?? '', pinnedLook(anchor))
    .filter((el) => holdsAsPinned(index, anchor, el));

/**
 * The elements after `from` and before `to` in the page's order (neither inside nor around
 * them), up to `BETWEEN_MAX` of them from the one that is given.
 */
function between(root: Root, from: Element | undefined, to: Element | undefined): Element[] {
  const start = from ?? to;
  if (!start) return [];
  const walker = (isDocument(root) ? root : root.ownerDocument).createTreeWalker(root, NodeFilter.SHOW_ELEMENT);
  walker.currentNode = start;
  const found: Element[] = [];
  const step = () => (from ? walker.nextNode() : walker.previousNode()) as Element | null;
  for (let el = step(); el && el !== to && found.length < BETWEEN_MAX; el = step()) {
    if ((from && nested(el, from)) || (to && nested(el, to))) continue;
    found.push(el);
  }
  return found;
}

/**
 * Of several that may be what a changed element became, those that nothing else on the page
 * looks like: a list item like the others, around the link whose tag changed, stood there when
 * it was pinned.
 */
function aloneIfMany(index: RootIndex, found: Scored[]): Scored[] {
  if (found.length < 2) return found;
  return found.filter((scored) => {
    const f = index.featuresOf(scored.element);
    return index.lookingLike(f.tag, f.text, index.lookOf(scored.element)).length === 1;
  });
}

/**
 * Whether `el`, without text, is known by what it holds: it alone looks as the pinned element
 * did and holds what it held, as when it was pinned (nothing else looked like it then).
 */
function knownByContent(index: RootIndex, anchor: Anchor, el: Element): boolean {
  if (!anchor.content || anchor.kin === undefined || anchor.alikes) return false;
  const [only, another] = lookingAsPinned(index, anchor);
  return only === el && !another;
}

/** As many elements look as the pinned one did as when it was pinned (an anchor that counted them). */
const asManyLookAlike = (index: RootIndex, anchor: Anchor) =>
  anchor.kin !== undefined && lookingAsPinned(index, anchor).length === (anchor.alikes ?? 0) + 1;

/** As many elements show the pinned text as when it was pinned (always, for an element without text). */
function asManyShowItsText(index: RootIndex, anchor: Anchor): boolean {
  const text = anchor.text?.exact;
  return !text || index.showing(text) === anchor.textCount;
}

/** Fewer elements of the pinned element's tag and classes than when it was pinned (`kin`). */
const fewerOfKind = (index: RootIndex, anchor: Anchor) =>
  anchor.kin !== undefined && index.ofKindCount(anchor.tag ?? '', anchor.classes ?? []) < anchor.kin;

/** Whether an element around or inside `scored`, of the same `found`, is more itself (its tag, classes, attributes). */
const outdone = (scored: Scored, found: Scored[]) =>
  found.some((other) => other !== scored && nested(other.element, scored.element) && other.own > scored.own);

/**
 * Whether `el`, of the pinned element's tag, has lost every lasting class it had (a build
 * dropped its only class): it may be the pinned element, where another element (an icon beside
 * it) has classes of its own.
 */
function lostItsClasses(index: RootIndex, anchor: Anchor, el: Element): boolean {
  const f = index.featuresOf(el);
  return f.tag === anchor.tag && f.classes.length === 0 && Boolean(anchor.classes?.some(lastingClass));
}

/** Resolves one anchor against `document` (a pass of its own). */
export function resolveAnchor(anchor: Anchor, document: Document, expecting: Expecting = {}): Resolution | null {
  return new Resolver(document).resolve(anchor, expecting);
}
