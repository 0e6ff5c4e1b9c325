// One reading of the element being pinned, which every part of its anchor works from: what its
// root masks (mask.ts), read once and handed on; what it is (features.ts), the text around it,
// what it holds, the stable id around it, the other elements that look like it; and how many
// show its text (text-starts.ts). Read here once, each file in turn, so that describing it
// (describe.ts) goes through each file once.
import type { Anchor } from '@svc/contract';
import { type Masking, maskingOf } from '../mask.js';
import {
  contentOf,
  contextOf,
  type Features,
  featuresOf,
  lookOf,
  looksGenerated,
  nested,
  ofKind,
  QUOTE_CONTEXT_MAX,
  stableAttributes,
  stableClasses,
  type TextReader,
  textAround,
  textReaderOf,
} from './features.js';
import type { Root } from './selectors.js';
import { showingOn } from './text-starts.js';

export interface Reading {
  /** What its root masks, read once: every part of its anchor is read by it. */
  masking: Masking;
  features: Features;
  context: NonNullable<Anchor['context']>;
  /** What it holds, when it has no text (see `contentOf`). */
  content: string;
  /** The page's text just before and after it, when it has text (a quote's prefix and suffix). */
  prefix: string;
  suffix: string;
  /** The id of the closest element around it with one, unless that id looks generated. */
  scopeId: string | undefined;
  /** Its twins (see `lookAlikes`), how many of them come before it, its look-alikes, and its kin. */
  twins: Element[];
  before: number;
  alikes: number;
  alikesBefore: number;
  kin: number;
  /**
   * How many elements of the page show its text (the innermost with all of it), at most 1000;
   * 0 when it has none, or when the page's reading misses it (see describe.ts).
   */
  showing: number;
}

export function readingOf(el: Element, root: Root): Reading {
  const masking = maskingOf(root);
  const read = textReaderOf(masking);
  const features = featuresOf(el, read, masking);
  const context = contextOf(el, features.text, read);
  const content = features.text ? '' : contentOf(el, masking);
  const scope = el.parentElement?.closest('[id]');
  return {
    masking,
    features,
    context,
    content,
    prefix: features.text ? textAround(el, 'before', QUOTE_CONTEXT_MAX, masking) : '',
    suffix: features.text ? textAround(el, 'after', QUOTE_CONTEXT_MAX, masking) : '',
    scopeId: scope && !looksGenerated(scope.id) ? scope.id : undefined,
    ...lookAlikes(el, features, root, context.parent ?? '', content, masking, read),
    // The page's texts last, once the element's own reading is done.
    showing: features.text ? Math.min(1000, showingOn(root, features.text, read, masking)) : 0,
  };
}

/**
 * How many other elements look the same (tag, text, classes, attributes but the id, and what
 * it holds when it has no text), and how many of them come before it in the page: its
 * look-alikes; and of those, its twins (the other elements themselves), which also have the
 * same text around them (their parent's): only their places tell them apart (see twins.ts).
 * And how many are of its kind, whatever their text (see `ofKind`), itself included.
 */
function lookAlikes(
  el: Element,
  features: Features,
  root: Root,
  parent: string,
  content: string,
  masking: Masking,
  read: TextReader,
) {
  const look = lookOf(features.tag, features.text, features.classes, features.attributes);
  const found = { twins: [] as Element[], before: 0, alikes: 0, alikesBefore: 0, kin: 0 };
  for (const other of root.querySelectorAll(CSS.escape(features.tag))) {
    if (other === el) {
      found.before = found.twins.length;
      found.alikesBefore = found.alikes;
    }
    if (found.kin < 1000 && ofKind(features.classes, stableClasses(other))) found.kin += 1;
    if (found.twins.length >= 1000 || nested(other, el)) continue;
    if (read(other) !== features.text) continue;
    if (lookOf(features.tag, features.text, stableClasses(other), stableAttributes(other, masking)) !== look) continue;
    if (content && contentOf(other, masking) !== content) continue;
    found.alikes += 1;
    if ((contextOf(other, features.text, read).parent ?? '') === parent) found.twins.push(other);
  }
  return found;
}
