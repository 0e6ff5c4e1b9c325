// Routing by the address bar: a signal of the current path, links that change it without a
// reload, and the back button. The server serves the console at every one of these paths.
import { signal } from '@preact/signals';
import type { AnchorHTMLAttributes, ComponentChildren } from 'preact';

export const location = signal(window.location.pathname + window.location.search);

/**
 * Goes to `to`; `state` stays with that entry of the history (read by `history.state`), through
 * a reload and the back and forward buttons: what the page was reached from, say.
 */
export function navigate(to: string, replace = false, state: unknown = null): void {
  if (to === location.value) return;
  history[replace ? 'replaceState' : 'pushState'](state, '', to);
  location.value = to;
  window.scrollTo(0, 0);
}

window.addEventListener('popstate', () => {
  location.value = window.location.pathname + window.location.search;
});

export const currentPath = () => location.value.split('?')[0] ?? '/';
export const currentQuery = () => new URLSearchParams(location.value.split('?')[1] ?? '');

/** The parameters of `pattern` (`/comments/:id`) in `path`, or null when it does not match. */
export function match(pattern: string, path: string): Record<string, string> | null {
  const want = pattern.split('/');
  const got = path.split('/');
  if (want.length !== got.length) return null;
  const params: Record<string, string> = {};
  for (let i = 0; i < want.length; i++) {
    const part = want[i] ?? '';
    if (part.startsWith(':')) params[part.slice(1)] = decodeURIComponent(got[i] ?? '');
    else if (part !== got[i]) return null;
  }
  return params;
}

type LinkProps = AnchorHTMLAttributes<HTMLAnchorElement> & {
  href: string;
  children: ComponentChildren;
  /** Kept with the history entry it opens (see `navigate`). */
  state?: unknown;
};

/** An `<a>` that navigates inside the console; a modified click (new tab) works as usual. */
export function Link({ href, children, state, ...rest }: LinkProps) {
  return (
    <a
      {...rest}
      href={href}
      onClick={(event) => {
        if (event.ctrlKey || event.metaKey || event.shiftKey || event.button !== 0) return;
        event.preventDefault();
        navigate(href, false, state);
      }}
    >
      {children}
    </a>
  );
}
