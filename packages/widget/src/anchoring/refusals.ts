// Why a pinned element was not found: each refusal of the resolver (resolve.ts) named once,
// with what it means. `bench/anchoring` counts the anchors not found by these names.

export const REFUSALS = {
  frame: 'A shadow root or iframe it was inside is gone',
  selector: 'An anchor of a selector alone, which finds nothing',
  none: 'No candidate carries its identity (its text, name, or what is around an element without)',
  'look-alikes': 'Look-alikes that nothing tells apart: more or fewer than when it was pinned',
  weak: 'The best candidate agrees with too little of the description',
  'fewer-of-kind': 'Its text changed, and one of its kind is gone: a neighbour may have taken its place',
  gone: 'Fewer show its text, and the best does not look as it did: the pinned one is gone',
  'fewer-alike': 'Fewer show its text or look as it did, and the text around the best disagrees',
  'changed-unsupported': 'Its text changed, and the text around it does not say it is the one, on both sides',
  'alike-rival': 'A rival as much itself as the best, and nothing around them tells them apart',
  rival: 'A rival elsewhere on the page scored nearly as well',
  'reworded-alike': 'Several elements reworded in its place, none telling',
} as const;

export type Refusal = keyof typeof REFUSALS;
