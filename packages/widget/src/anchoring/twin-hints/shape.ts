// The shape around a twin that none of the others had (a reply beside comments without
// replies, the article with another picture): it moves with the pinned element where the
// twins' text is all the same.
import type { Anchor } from '@svc/contract';
import type { Masking } from '../../mask.js';
import { stableAttributes, stableClasses } from '../features.js';
import type { ShapeRead } from '../root-index.js';
import { TWINS_READ_MAX, type TwinHint } from './hint.js';

/** Most elements an element may hold for its shape to be read: beyond, it has none. */
const SHAPE_ELEMENTS_MAX = 4000;

/** How far above an element the shapes that tell it from its twins are read. */
const SHAPE_UP_MAX = 12;

/**
 * The shapes of what holds twins: an element's tag, lasting classes and attributes with the
 * shapes of its children, whatever their order (a reordered list keeps its shape). Each
 * element is read once for every anchor of a pass (`known`, kept by the pass's index); one
 * holding more than `SHAPE_ELEMENTS_MAX` elements has no shape, whichever anchor asks first.
 */
class Shapes {
  constructor(
    private readonly known = new Map<Element, ShapeRead | null>(),
    private readonly masking?: Masking,
  ) {}

  /** The shapes of `el` and of the `up` elements above it, as one hash; undefined where one is too large. */
  around(el: Element, up: number): string | undefined {
    let hash = FNV_START;
    let node: Element | null = el;
    for (let level = 0; level <= up; level += 1) {
      const read = node && this.of(node);
      if (!node || !read) return undefined;
      hash = fnv(hash, `${read.shape},`);
      node = node.parentElement;
    }
    return (hash >>> 0).toString(36);
  }

  private of(el: Element): ShapeRead | null {
    const known = this.known.get(el);
    if (known !== undefined) return known;
    const children: number[] = [];
    let size = 1;
    for (const child of el.children) {
      const read = this.of(child);
      if (read) size += read.size;
      if (!read || size > SHAPE_ELEMENTS_MAX) {
        this.known.set(el, null);
        return null;
      }
      children.push(read.shape);
    }
    children.sort((a, b) => a - b);
    const attributes = Object.entries(stableAttributes(el, this.masking)).join(';');
    const shape =
      fnv(FNV_START, `${el.localName}.${stableClasses(el).join('.')}[${attributes}](${children.join(',')})`) >>> 0;
    const read = { shape, size };
    this.known.set(el, read);
    return read;
  }
}

// FNV-1a, 32 bits: enough to tell a few shapes apart, in a few characters.
const FNV_START = 0x811c9dc5;
function fnv(start: number, part: string): number {
  let hash = start;
  for (let i = 0; i < part.length; i += 1) hash = Math.imul(hash ^ part.charCodeAt(i), 0x01000193);
  return hash;
}

/**
 * The shape of what is around `el` up to what holds all its twins, that included, where no
 * twin has it (the comment with two replies beside the one with one, a reply to a comment like
 * another's but not as deep).
 */
function shapeOf(el: Element, twins: Element[], masking: Masking): Anchor['twinsByShape'] {
  if (!twins.length || twins.length > TWINS_READ_MAX) return undefined;
  let up = 0;
  for (let around = el.parentElement; around && up < SHAPE_UP_MAX; around = around.parentElement) {
    const holder = around;
    up += 1;
    if (twins.every((twin) => holder.contains(twin))) break;
  }
  const shapes = new Shapes(undefined, masking);
  const shape = shapes.around(el, up);
  if (!shape || twins.some((twin) => shapes.around(twin, up) === shape)) return undefined;
  return { up, shape };
}

export const byShape: TwinHint = {
  record: (el, twins, _quote, masking) => ({ twinsByShape: shapeOf(el, twins, masking) }),
  fits(index, anchor, twin) {
    const shape = anchor.twinsByShape;
    return !shape || new Shapes(index.shapes).around(twin, shape.up) === shape.shape;
  },
  tell(index, anchor, twins) {
    if (!anchor.twinsByShape) return undefined;
    const [alone, another] = twins.filter((twin) => this.fits?.(index, anchor, twin));
    return alone && !another ? alone : undefined;
  },
};
