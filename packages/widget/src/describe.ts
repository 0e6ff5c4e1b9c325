// An element of the page in a reviewer's words: "the “Choose Team” button", not a selector.
const WORDS: Record<string, string> = {
  A: 'link',
  BUTTON: 'button',
  IMG: 'image',
  INPUT: 'field',
  SELECT: 'menu',
  TEXTAREA: 'text box',
  H1: 'heading',
  H2: 'heading',
  H3: 'heading',
  H4: 'heading',
  H5: 'heading',
  H6: 'heading',
  P: 'paragraph',
  LI: 'list item',
  LABEL: 'label',
  TD: 'table cell',
  TH: 'table heading',
  NAV: 'navigation',
  FORM: 'form',
  TABLE: 'table',
  VIDEO: 'video',
};

/** Its accessible name as far as a page shows it: aria-label, alt, a field's label, else its text. */
function nameOf(el: Element): string {
  const labelled = el.getAttribute('aria-label') || el.getAttribute('alt') || el.getAttribute('title');
  const field = el as HTMLInputElement;
  const label = field.labels?.[0]?.textContent || field.placeholder;
  const text = labelled || label || el.textContent || '';
  const words = text.replace(/\s+/g, ' ').trim();
  return words.length > 40 ? `${words.slice(0, 39)}…` : words;
}

export function describeElement(el: Element): string {
  const word = WORDS[el.tagName] ?? 'part of the page';
  const name = nameOf(el);
  return name ? `the “${name}” ${word}` : `a ${word}`;
}
