import { relativeTimeText } from '@svc/contract/time';

type Child = Node | string | number | null | undefined | false;
type Props = Record<string, unknown>;

/** Creates an element: `on*` props become listeners, `class` the class name, the rest attributes. */
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
    else if (key === 'value') (el as unknown as HTMLInputElement).value = String(value);
    else el.setAttribute(key, value === true ? '' : String(value));
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    el.append(typeof child === 'object' ? child : String(child));
  }
  return el;
}

/**
 * Replaces what `container` shows with `nodes`, keeping what a person would lose: the focused
 * element (found again by its id), what was typed in every field with an id, the caret of a
 * textarea and the scroll position of `.body`. Views give an id to whatever can hold focus
 * while a change redraws it.
 */
export function redraw(container: HTMLElement, nodes: Node[]): void {
  const active = (container.getRootNode() as Document | ShadowRoot).activeElement;
  const focusId = active && container.contains(active) ? active.id : '';
  const caret = active instanceof HTMLTextAreaElement ? [active.selectionStart, active.selectionEnd] : null;
  const typed: [string, string][] = [];
  for (const field of container.querySelectorAll<HTMLInputElement>('textarea[id], input[id]:not([type=checkbox])')) {
    if (field.value) typed.push([field.id, field.value]);
  }
  const scrollTop = container.querySelector('.body')?.scrollTop ?? 0;
  container.replaceChildren(...nodes);
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
  if (body) body.scrollTop = scrollTop;
  const again = focusId ? byId(focusId) : null;
  again?.focus({ preventScroll: true });
  if (caret && again instanceof HTMLTextAreaElement) again.setSelectionRange(caret[0] ?? null, caret[1] ?? null);
}

/** A `<time>` showing "5 minutes ago", with the absolute date on hover. */
export function timeAgo(iso: string): HTMLTimeElement {
  return h('time', { datetime: iso, title: new Date(iso).toLocaleString() }, relativeTimeText(iso));
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
