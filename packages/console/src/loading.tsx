// Loading a screen's data and sending its requests: one answer (`useLoad`), a paged list
// (`usePages`, `MoreRows`), a form's request (`useAction`), what is shown meanwhile
// (`Loading`), and a part whose code loads when first shown (`Lazy`).

import type { Answer, Endpoint } from '@svc/contract/endpoints';
import type { ComponentType } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import { problemText } from './api.js';
import { t } from './i18n.js';

/** An answer whose success carries `T` (what `api.call` gives for one endpoint). */
export type AnswerWith<T> =
  | { ok: true; status: number; data: T; etag: string | null }
  | Extract<Answer<Endpoint>, { ok: false }>;

/** Loads with `load` whenever `deps` change; `reload` loads again. */
export function useLoad<T>(load: () => Promise<AnswerWith<T> | null>, deps: unknown[]) {
  const [state, setState] = useState<{ data?: T; error?: string; loading: boolean }>({ loading: true });
  const [round, setRound] = useState(0);
  useEffect(() => {
    let live = true;
    setState((s) => ({ ...s, loading: true }));
    load().then(
      (answer) => {
        if (!live || !answer) return;
        setState(answer.ok ? { data: answer.data, loading: false } : { error: problemText(answer), loading: false });
      },
      () => live && setState({ error: problemText(null), loading: false }),
    );
    return () => {
      live = false;
    };
  }, [...deps, round]);
  return { ...state, reload: () => setRound((r) => r + 1) };
}

/** One page of a list, as the API pages them. */
interface PageOf<T> {
  items: T[];
  nextCursor: string | null;
}

/**
 * A list loaded a page at a time (`loadPage` with the cursor of the next): `data.items` holds
 * every row loaded so far, `more` loads the next page, and `reload` loads again as many rows as
 * were shown, so that a change made on a later page does not send the reader back to the first.
 * `every` loads every page at once (the options of a filter).
 */
export function usePages<T>(
  loadPage: (cursor?: string) => Promise<AnswerWith<PageOf<T>> | null>,
  deps: unknown[],
  { every = false } = {},
) {
  const [state, setState] = useState<{ data?: { items: T[] }; next: string | null; error?: string; loading: boolean }>({
    next: null,
    loading: true,
  });
  const [round, setRound] = useState(0);
  const shown = useRef(0);
  const live = useRef(0);
  const fetchPages = async (from: T[], cursor: string | undefined, atLeast: number) => {
    const mine = ++live.current;
    setState((s) => ({ ...s, loading: true }));
    let items = from;
    let next = cursor ?? null;
    try {
      do {
        const answer = await loadPage(next ?? undefined);
        if (mine !== live.current || !answer) return;
        if (!answer.ok) {
          setState((s) => ({ ...s, error: problemText(answer), loading: false }));
          return;
        }
        items = [...items, ...answer.data.items];
        next = answer.data.nextCursor;
      } while (next && items.length < atLeast);
      shown.current = items.length;
      setState({ data: { items }, next, loading: false });
    } catch {
      if (mine === live.current) setState((s) => ({ ...s, error: problemText(null), loading: false }));
    }
  };
  useEffect(() => {
    void fetchPages([], undefined, every ? Number.POSITIVE_INFINITY : shown.current);
  }, [...deps, round]);
  return {
    ...state,
    reload: () => setRound((r) => r + 1),
    more: () => {
      if (state.next && !state.loading) void fetchPages(state.data?.items ?? [], state.next, 0);
    },
  };
}

/** "Show more" under a paged list, while it has more. */
export function MoreRows({
  pages,
  label,
}: {
  pages: { next: string | null; loading: boolean; more: () => void };
  label: string;
}) {
  if (!pages.next) return null;
  return (
    <p>
      <button type="button" disabled={pages.loading} onClick={pages.more}>
        {pages.loading ? t('ui.loading') : label}
      </button>
    </p>
  );
}

/** Runs a request for a form: pending while it runs, the server's reason when refused. */
export function useAction() {
  const [pending, setPending] = useState(false);
  const [error, setError] = useState('');
  async function run<T>(request: () => Promise<AnswerWith<T>>): Promise<{ data: T } | null> {
    setPending(true);
    setError('');
    try {
      const answer = await request();
      if (answer.ok) return answer;
      setError(problemText(answer));
      return null;
    } catch {
      setError(problemText(null));
      return null;
    } finally {
      setPending(false);
    }
  }
  return { pending, error, setError, run };
}

export function Loading({ error, label = t('ui.loading') }: { error?: string; label?: string }) {
  return error ? (
    <p class="error" role="alert">
      {error}
    </p>
  ) : (
    <p class="muted" role="status">
      {label}
    </p>
  );
}

/**
 * A part loaded when first shown (a page, the board), drawn with `props`: its code is a chunk of
 * its own, kept out of the initial JavaScript.
 */
export function Lazy<P extends object>({ load, props }: { load: () => Promise<ComponentType<P>>; props: P }) {
  const [Part, setPart] = useState<ComponentType<P> | null>(null);
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    load().then(
      (part) => setPart(() => part),
      () => setFailed(true),
    );
  }, []);
  if (Part) return <Part {...props} />;
  return <Loading error={failed ? t('nav.pageFailed') : undefined} />;
}
