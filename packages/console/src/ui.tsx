// The console's shared pieces of a screen: its title, form fields and errors, dialogs (and the
// one that asks before what cannot be undone), copy boxes, times, tables' heads and filters.
// Loading data and sending requests are in loading.tsx; a comment's pills in comment-pills.tsx.

import { relativeTimeText } from '@svc/contract/time';
import type { ComponentChildren, InputHTMLAttributes, TextareaHTMLAttributes } from 'preact';
import { useEffect, useId, useRef, useState } from 'preact/hooks';
import { intlLocale, t } from './i18n.js';
import type { AnswerWith, useAction } from './loading.js';

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
