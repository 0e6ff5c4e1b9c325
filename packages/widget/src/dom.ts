import { PSEUDO_LOCALE } from '@svc/contract/i18n';
import { relativeTimeText } from '@svc/contract/time';

type Child = Node | string | number | null | undefined | false;
type Props = Record<string, unknown>;

/**
 * Creates an element: `on*` props become listeners, `class` the class name, `style` an object
 * of properties set through the CSSOM (a page whose policy refuses style attributes still
 * allows those), the rest attributes.
 */
export function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  props?: Props | null,
  ...children: (Child | Child[])[]
): HTMLElementTagNameMap[K] {
  const el = document.createElement(tag);
  for (const [key, value] of Object.entries(props ?? {})) {
    if (value === undefined || value === null || value === false) continue;
    if (key.startsWith('on')) el.addEventListener(key.slice(2).toLowerCase(), value as EventListener);
    else if (key === 'class') el.className = String(value);
    else if (key === 'style') setStyles(el, value as Record<string, string>);
    else if (key === 'value') (el as unknown as HTMLInputElement).value = String(value);
    else el.setAttribute(key, value === true ? '' : String(value));
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    el.append(typeof child === 'object' ? child : String(child));
  }
  return el;
}

/** Sets CSS properties through the CSSOM, which no `style-src` policy governs. */
export function setStyles(el: HTMLElement, properties: Record<string, string>): void {
  for (const [name, value] of Object.entries(properties)) el.style.setProperty(name, value);
}

/**
 * Adds CSS to the widget's shadow root, after what it has: a constructed style sheet, which a
 * page's `style-src` does not govern; where the browser has none, a `<style>` carrying the
 * page's nonce.
 */
export function adoptStyles(root: ShadowRoot, css: string, nonce: string): void {
  if ('adoptedStyleSheets' in root && 'replaceSync' in CSSStyleSheet.prototype) {
    const sheet = new CSSStyleSheet();
    sheet.replaceSync(css);
    root.adoptedStyleSheets = [...root.adoptedStyleSheets, sheet];
  } else {
    const last = [...root.children].filter((el) => el.localName === 'style').pop();
    root.insertBefore(h('style', { nonce: nonce || null }, css), last ? last.nextSibling : root.firstChild);
  }
}

/**
 * Replaces what `container` shows with `nodes`, keeping what a person would lose. A part drawn
 * the same as before stays as it is, so a click pressed before a redraw that changes nothing
 * there and released after it still lands (a replaced button never gets its click). Of what is
 * replaced, the focused element (found again by its id), what was typed in every field with an
 * id, the caret of a textarea and the scroll position of `.body` survive. Views give an id to
 * whatever can hold focus while a change redraws it.
 */
export function redraw(container: HTMLElement, nodes: Node[]): void {
  const active = (container.getRootNode() as Document | ShadowRoot).activeElement;
  const focusId = active && container.contains(active) ? active.id : '';
  const caret = active instanceof HTMLTextAreaElement ? [active.selectionStart, active.selectionEnd] : null;
  const typed: [string, string][] = [];
  for (const field of container.querySelectorAll<HTMLInputElement>('textarea[id], input[id]:not([type=checkbox])')) {
    if (field.value) typed.push([field.id, field.value]);
  }
  // Read only when shown: reading a scroll position lays out the whole page, a large one's
  // at a cost (the panel is drawn hidden while the page loads).
  const scrollTop = container.hidden ? 0 : (container.querySelector('.body')?.scrollTop ?? 0);
  const current = Array.from(container.childNodes);
  if (current.length === nodes.length && nodes.every((node, i) => node.isEqualNode(current[i] ?? null))) return;
  // Handlers may hold the elements of their own part (a form, its counter): a part is kept or
  // replaced whole, never merged with a new one.
  container.replaceChildren(
    ...nodes.map((node, i) => (node.isEqualNode(current[i] ?? null) ? current[i] : node) as Node),
  );
  const byId = (id: string) => container.querySelector<HTMLInputElement>(`#${CSS.escape(id)}`);
  for (const [id, value] of typed) {
    const field = byId(id);
    if (field && !field.value) {
      field.value = value;
      // Counters and enabled buttons follow the text.
      field.dispatchEvent(new Event('input'));
    }
  }
  const body = container.querySelector('.body');
  if (body && scrollTop) body.scrollTop = scrollTop;
  const again = focusId ? byId(focusId) : null;
  again?.focus({ preventScroll: true });
  if (caret && again instanceof HTMLTextAreaElement) again.setSelectionRange(caret[0] ?? null, caret[1] ?? null);
}

/** A `<time>` showing "5 minutes ago" in the widget's language, with the absolute date on hover. */
export function timeAgo(iso: string, words: { locale: string }): HTMLTimeElement {
  const locale = words.locale === PSEUDO_LOCALE ? 'en' : words.locale;
  return h(
    'time',
    { datetime: iso, title: new Date(iso).toLocaleString(locale) },
    relativeTimeText(iso, Date.now(), locale),
  );
}

/**
 * Where `el` is, relative to the widget's host: pins and outlines are placed in the host, so
 * a page's margins, positioned ancestors or transforms move both alike and never offset them.
 */
export function placeOf(el: Element, host: Element) {
  const r = el.getBoundingClientRect();
  const o = host.getBoundingClientRect();
  return { left: r.left - o.left, top: r.top - o.top, width: r.width, height: r.height };
}
