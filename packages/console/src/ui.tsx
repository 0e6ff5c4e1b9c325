// The console's shared pieces: data loading, forms, dialogs, copy buttons, status pills, times.

import type { Label, Priority } from '@svc/contract';
import type { Answer, Endpoint } from '@svc/contract/endpoints';
import { PRIORITIES } from '@svc/contract/rules';
import { relativeTimeText } from '@svc/contract/time';
import { type DueFields, dueText, type StateFields, statePills } from '@svc/contract/vocabulary';
import type { ComponentChildren, ComponentType, InputHTMLAttributes, TextareaHTMLAttributes } from 'preact';
import { useEffect, useId, useRef, useState } from 'preact/hooks';
import { problemText } from './api.js';
import { intlLocale, t } from './i18n.js';

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

/** The page's heading; `title` names it in the window's title where the heading is more than words. */
export function PageTitle({
  children,
  actions,
  title,
}: {
  children: ComponentChildren;
  actions?: ComponentChildren;
  title?: string;
}) {
  const page = title ?? (typeof children === 'string' ? children : t('app.console'));
  useEffect(() => {
    document.title = t('app.title', { page });
  }, [page]);
  return (
    <div class="row spread" style="margin-bottom:16px">
      <h1 style="margin:0">{children}</h1>
      {actions ? <div class="row">{actions}</div> : null}
    </div>
  );
}

type FieldProps = InputHTMLAttributes<HTMLInputElement> & {
  label: string;
  hint?: string;
  multiline?: boolean;
  rows?: number;
  value?: string;
  onValue?: (value: string) => void;
};

/** A labelled input (or textarea), with a hint under the label. */
export function Field({ label, hint, multiline, rows, onValue, ...input }: FieldProps) {
  const id = useId();
  const hintId = hint ? `${id}-hint` : undefined;
  const common = {
    id,
    'aria-describedby': hintId,
    onInput: (event: Event) => onValue?.((event.target as HTMLInputElement).value),
  };
  return (
    <div class="field">
      <label for={id}>{label}</label>
      {hint ? (
        <div id={hintId} class="hint" style="margin-bottom:4px">
          {hint}
        </div>
      ) : null}
      {multiline ? (
        <textarea {...(input as TextareaHTMLAttributes<HTMLTextAreaElement>)} {...common} rows={rows ?? 3} />
      ) : (
        <input {...input} {...common} />
      )}
    </div>
  );
}

export function FormError({ message }: { message: string }) {
  return message ? (
    <p class="error" role="alert">
      {message}
    </p>
  ) : null;
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

/**
 * A modal dialog (the browser's own: it keeps focus inside and closes on Esc); focus returns to
 * what opened it. `wide`: as wide as the window allows (pictures), rather than a form's width.
 */
export function Dialog({
  title,
  open,
  onClose,
  children,
  wide = false,
}: {
  title: string;
  open: boolean;
  onClose: () => void;
  children: ComponentChildren;
  wide?: boolean;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  const opener = useRef<Element | null>(null);
  const titleId = useId();
  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) {
      opener.current = document.activeElement;
      dialog.showModal();
    } else if (!open && dialog.open) {
      dialog.close();
    }
  }, [open]);
  return (
    <dialog
      ref={ref}
      class={wide ? 'wide' : undefined}
      aria-labelledby={titleId}
      onClose={() => {
        onClose();
        (opener.current as HTMLElement | null)?.focus();
      }}
    >
      <h2 id={titleId} style="margin-top:0">
        {title}
      </h2>
      {open ? children : null}
    </dialog>
  );
}

/** A secret or snippet shown in full, with a button that copies it. */
export function CopyBox({ label, text, multiline = false }: { label: string; text: string; multiline?: boolean }) {
  const [copied, setCopied] = useState(false);
  const id = useId();
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(text);
    } catch {
      // No clipboard permission: select the text so that Ctrl+C copies it.
      const el = document.getElementById(id);
      if (el) window.getSelection()?.selectAllChildren(el);
    }
    setCopied(true);
    setTimeout(() => setCopied(false), 2000);
  };
  return (
    <div class="stack" style="margin-bottom:12px">
      <div class="row spread">
        <span style="font-weight:600;font-size:14px">{label}</span>
        <button type="button" onClick={copy} aria-label={t('ui.copyLabel', { label })}>
          {copied ? t('ui.copied') : t('ui.copy')}
        </button>
      </div>
      {/* biome-ignore lint/a11y/noNoninteractiveTabindex: a snippet wider than the screen scrolls, so it must take focus to scroll by keyboard */}
      <section aria-label={label} tabIndex={0} class="snippet">
        <pre id={id} class={multiline ? '' : 'wrap'} style={multiline ? '' : 'white-space:pre-wrap'}>
          {text}
        </pre>
      </section>
    </div>
  );
}

/** Open / Completed / Live · sha7 / Verified / Archived, as the widget shows them. */
export function StatusPills({ comment }: { comment: StateFields }) {
  return (
    <span class="pills">
      {statePills(comment, t).map((pill) => (
        <span key={pill.kind} class={`pill ${pill.kind}`}>
          {pill.label}
        </span>
      ))}
    </span>
  );
}

/** "5 minutes ago", with the date and time on hover and for screen readers' date navigation. */
export function Time({ iso }: { iso: string | null }) {
  if (!iso) return <span class="muted">—</span>;
  return (
    <time dateTime={iso} title={new Date(iso).toLocaleString(intlLocale())}>
      {relativeTimeText(iso, Date.now(), intlLocale())}
    </time>
  );
}

/**
 * A table's header row. `[label, 'wide']` columns are left out on phones (their cells carry
 * `hide-phone` too); `''` is an actions column, named for screen readers only.
 */
export function TableHead({ columns }: { columns: (string | [string, 'wide'])[] }) {
  return (
    <thead>
      <tr>
        {columns.map((column) => {
          const [label, wide] = typeof column === 'string' ? [column, false] : [column[0], true];
          return (
            <th key={label || 'actions'} scope="col" class={wide ? 'hide-phone' : undefined}>
              {label || <span class="skip">{t('ui.actions')}</span>}
            </th>
          );
        })}
      </tr>
    </thead>
  );
}

/** A labelled select of a list's filters: `options` as [value, label]; choosing one calls `onValue`. */
export function FilterSelect({
  id,
  label,
  value,
  options,
  onValue,
}: {
  id: string;
  label: string;
  value: string;
  options: readonly (readonly [string, string])[];
  onValue: (value: string) => void;
}) {
  return (
    <div>
      <label for={id}>{label}</label>
      <select id={id} value={value} onChange={(e) => onValue((e.target as HTMLSelectElement).value)}>
        {options.map(([optionValue, optionLabel]) => (
          <option key={optionValue} value={optionValue}>
            {optionLabel}
          </option>
        ))}
      </select>
    </div>
  );
}

/** A comment's priority as a pill; none is shown as nothing. */
export function PriorityPill({ priority }: { priority: Priority }) {
  if (priority === 'none') return null;
  return <span class={`pill priority-${priority}`}>{t(`priority.${priority}`)}</span>;
}

/** A comment's due date as a pill, "Due Dec 3"; overdue said in words and in the danger colour. None: nothing. */
export function DuePill({ comment }: { comment: DueFields }) {
  const due = dueText(comment, t, intlLocale());
  if (!due) return null;
  return <span class={due.overdue ? 'pill due overdue' : 'pill due'}>{due.text}</span>;
}

/** A comment's labels: each its name, after a dot of its colour (the text keeps the page's contrast). */
export function LabelChips({ labels }: { labels: readonly Label[] }) {
  if (labels.length === 0) return null;
  return (
    <span class="pills">
      {labels.map((label) => (
        <span key={label.id} class="pill label">
          <span class={`dot ${label.color}`} aria-hidden="true" />
          {label.name}
        </span>
      ))}
    </span>
  );
}

/** Who is on a comment, agents said as such. */
export const assigneeName = (assignee: { name: string; agent: boolean }) =>
  assignee.agent ? t('comment.agentName', { name: assignee.name }) : assignee.name;

/**
 * A comment's page in short: its path (with the query that tells pages apart), or its site for
 * a home page, which "/" alone would not say.
 */
export function pageName(pageUrl: string): string {
  try {
    const url = new URL(pageUrl);
    const path = url.pathname + url.search;
    return path === '/' ? url.host : path;
  } catch {
    return pageUrl;
  }
}

/** The priorities as a menu's options, the most urgent first. */
export const priorityOptions = () => [...PRIORITIES].reverse().map((p) => [p, t(`priority.${p}`)] as const);

/** The options of a filter by person: anyone, then each one listed. */
export const peopleOptions = (people: readonly { id: string; name: string }[] | undefined) =>
  [['', t('ui.anyone')] as const, ...(people ?? []).map((p) => [p.id, p.name] as const)] as const;

/**
 * Asks before something that cannot be undone: what will happen, a button that does it, and
 * Cancel. `request` runs through `action` (its error shown here); `done` follows when it succeeds.
 */
export function ConfirmDialog<T>({
  title,
  open,
  onClose,
  children,
  confirm,
  action,
  request,
  done,
}: {
  title: string;
  open: boolean;
  onClose: () => void;
  children: ComponentChildren;
  /** What the button says: the action ("Remove", "Delete"). */
  confirm: string;
  action: ReturnType<typeof useAction>;
  request: () => Promise<AnswerWith<T>>;
  done: () => void;
}) {
  return (
    <Dialog title={title} open={open} onClose={onClose}>
      {children}
      <FormError message={action.error} />
      <div class="row">
        <button
          type="button"
          class="danger"
          disabled={action.pending}
          onClick={async () => {
            if (await action.run(request)) done();
          }}
        >
          {confirm}
        </button>
        <button type="button" onClick={onClose}>
          {t('ui.cancel')}
        </button>
      </div>
    </Dialog>
  );
}
