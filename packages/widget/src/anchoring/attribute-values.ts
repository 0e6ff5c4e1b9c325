// Elements by the value of an attribute an anchor names (its id, test id, name, link…): a few
// lookups ask the page each time; past that, one walk of the page answers every anchor of the
// pass (see RootIndex).
import type { AnchorAttributes } from '@svc/contract';
import { matching, type Root } from './selectors.js';
import type { Deadline, Steps } from './steps.js';
import { DIRECT_LOOKUPS } from './thresholds.js';

/** The attributes looked up by value, under the anchor's names for them. */
export const INDEXED_ATTRIBUTES: [keyof AnchorAttributes, string][] = [
  ...(['data-testid', 'data-test', 'data-test-id', 'data-cy', 'data-qa'] as const).map(
    (name) => ['testId', name] as [keyof AnchorAttributes, string],
  ),
  ['name', 'name'],
  ['href', 'href'],
  ['src', 'src'],
  ['alt', 'alt'],
  ['ariaLabel', 'aria-label'],
  ['placeholder', 'placeholder'],
  ['title', 'title'],
];

/** Attributes a look-alike has too, read plainly (an element's test id may be under any of several names). */
export const LOOK_ATTRIBUTES = INDEXED_ATTRIBUTES.filter(([key]) => key !== 'testId').concat([['type', 'type']]);

export class AttributeValues {
  private byValue: Map<string, Element[]> | null = null;
  private valueLookups = 0;

  constructor(
    private readonly root: Root,
    private readonly deadline: Deadline,
  ) {}

  /**
   * Elements with `value` for one of the attributes an anchor names (`id`, `testId`, `name`,
   * `href`, …): one walk of the page serves every anchor resolved in this pass.
   */
  *withValue(key: keyof AnchorAttributes, value: string): Steps<Element[]> {
    // A few lookups ask the page each time; past that, one walk of the page answers the rest.
    this.valueLookups += 1;
    if (!this.byValue && this.valueLookups <= DIRECT_LOOKUPS) {
      const selector = INDEXED_ATTRIBUTES.filter(([name]) => name === key)
        .map(([, attribute]) => `[${attribute}="${CSS.escape(value)}"]`)
        .concat(key === 'id' ? [`[id="${CSS.escape(value)}"]`] : [])
        .join(',');
      return selector ? matching(this.root, selector) : [];
    }
    if (!this.byValue) {
      const byValue = new Map<string, Element[]>();
      const note = (name: string, found: string | null, el: Element) => {
        if (!found) return;
        const entry = `${name}\u0000${found.trim()}`;
        const list = byValue.get(entry);
        if (list) list.push(el);
        else byValue.set(entry, [el]);
      };
      for (const el of matching(this.root, '*')) {
        if (el.id) note('id', el.id, el);
        for (const [name, attribute] of INDEXED_ATTRIBUTES) note(name, el.getAttribute(attribute), el);
        if (this.deadline.due()) yield;
      }
      // Another lookup may have finished the walk while this one waited.
      this.byValue ??= byValue;
    }
    return this.byValue.get(`${key}\u0000${value}`) ?? [];
  }
}
