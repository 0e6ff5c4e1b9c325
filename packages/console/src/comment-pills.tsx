// A comment's facts in short, as every list and card shows them: its status, priority, due date
// and labels as pills, who is on it, its page, and the priorities as a menu's options.

import type { Label, Priority } from '@svc/contract';
import { PRIORITIES } from '@svc/contract/rules';
import { type DueFields, dueText, type StateFields, statePills } from '@svc/contract/vocabulary';
import { intlLocale, t } from './i18n.js';

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
