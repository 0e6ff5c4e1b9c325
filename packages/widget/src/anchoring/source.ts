import type { AnchorSource } from '@svc/contract';

// Where in the app's code a pinned element comes from, read from what a development build of
// its framework leaves on the DOM: React's fibers (the components that rendered it, and where
// its element was written (React 18) or created (React 19)), Vue's component instances (their
// names and the file the SFC compiler records), Svelte's `__svelte_meta`. A production build
// leaves none of it (React's fibers then have no `_debugOwner`): the anchor then has no source,
// silently.

type Loose = Record<string, unknown> | null | undefined;
const COMPONENTS_MAX = 3;

const field = (value: unknown, key: string): unknown =>
  value !== null && (typeof value === 'object' || typeof value === 'function')
    ? (value as Record<string, unknown>)[key]
    : undefined;
const text = (value: unknown) => (typeof value === 'string' && value ? value : undefined);
const count = (value: unknown) =>
  typeof value === 'number' && Number.isInteger(value) && value > 0 ? value : undefined;
const chain = (names: (string | undefined)[]) =>
  names.filter(Boolean).slice(0, COMPONENTS_MAX).join(' < ') || undefined;

/** What the page's framework says of where `el` comes from; undefined when it says nothing (production). */
export function sourceOf(el: Element): AnchorSource | undefined {
  try {
    const found = svelteSource(el) ?? vueSource(el) ?? reactSource(el);
    if (!found) return undefined;
    const source: AnchorSource = {};
    if (found.component) source.component = found.component.slice(0, 200);
    if (found.file) source.file = found.file.slice(0, 300);
    if (found.line) source.line = Math.min(found.line, 10_000_000);
    if (found.column) source.column = Math.min(found.column, 1_000_000);
    return Object.keys(source).length ? source : undefined;
  } catch {
    // A framework's internals are not ours: whatever they hold, pinning goes on without.
    return undefined;
  }
}

/** Svelte in development: each element knows the file, line and column of its markup. */
function svelteSource(el: Element): AnchorSource | undefined {
  const loc = field(field(el, '__svelte_meta'), 'loc');
  const file = text(field(loc, 'file'));
  if (!file) return undefined;
  const column = field(loc, 'column');
  return { file, line: count(field(loc, 'line')), column: typeof column === 'number' ? column + 1 : undefined };
}

/** Vue in development: the component instance an element belongs to, its parents, and its SFC's file. */
function vueSource(el: Element): AnchorSource | undefined {
  let node: Element | null = el;
  while (node && field(node, '__vueParentComponent') === undefined) node = node.parentElement;
  let instance = field(node, '__vueParentComponent') as Loose;
  if (!instance) return undefined;
  const file = text(field(field(instance, 'type'), '__file'));
  const names: (string | undefined)[] = [];
  for (; instance && names.length < COMPONENTS_MAX; instance = field(instance, 'parent') as Loose) {
    const type = field(instance, 'type');
    names.push(text(field(type, 'name')) ?? text(field(type, '__name')));
  }
  const component = chain(names);
  return component || file ? { component, file } : undefined;
}

/** React in development: the components whose render made the element, and where it was created. */
function reactSource(el: Element): AnchorSource | undefined {
  const key = Object.keys(el).find((name) => name.startsWith('__reactFiber$'));
  const fiber = key ? (field(el, key) as Loose) : undefined;
  // Only development builds keep who rendered what.
  if (!fiber || !('_debugOwner' in fiber)) return undefined;
  const names: (string | undefined)[] = [];
  for (
    let owner = fiber._debugOwner as Loose;
    owner && names.length < COMPONENTS_MAX;
    owner = owner._debugOwner as Loose
  ) {
    names.push(componentName(owner.type));
  }
  return {
    component: chain(names),
    ...(writtenAt(fiber._debugSource) ?? createdAt(text(field(fiber._debugStack, 'stack')))),
  };
}

/**
 * React 18 and before: where the element is written, as the JSX development transform recorded
 * it (`__source`): the developer's own file, not the bundle. React 19 keeps a stack instead.
 */
function writtenAt(source: unknown): Pick<AnchorSource, 'file' | 'line' | 'column'> | undefined {
  const file = text(field(source, 'fileName'));
  return file
    ? { file, line: count(field(source, 'lineNumber')), column: count(field(source, 'columnNumber')) }
    : undefined;
}

function componentName(type: unknown): string | undefined {
  if (typeof type === 'function') return text(field(type, 'displayName')) ?? text(type.name);
  // memo() and forwardRef() wrap the component.
  return text(field(type, 'displayName')) ?? componentName(field(type, 'type') ?? field(type, 'render'));
}

/**
 * Where the element was created, from the stack React kept then: the first frame outside
 * React's own element factories, as the development server serves the file.
 */
function createdAt(stack: string | undefined): Pick<AnchorSource, 'file' | 'line' | 'column'> {
  for (const frame of (stack ?? '').split('\n').slice(1)) {
    if (/\b(createElement|jsxDEV|jsxs?|cloneElement)\b/.test(frame)) continue;
    const at = /\(?((?:[a-z][\w+.-]*:)?[^\s()]+):(\d+):(\d+)\)?\s*$/i.exec(frame.trim());
    if (!at) continue;
    return { file: servedPath(at[1] as string), line: Number(at[2]), column: Number(at[3]) };
  }
  return {};
}

/** A frame's file: the path of a URL of this page's server, else as written (webpack-internal:…). */
function servedPath(url: string): string {
  try {
    const parsed = new URL(url);
    return parsed.origin === location.origin ? parsed.pathname : url;
  } catch {
    return url;
  }
}
