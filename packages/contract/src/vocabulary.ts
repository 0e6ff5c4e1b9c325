// How the product speaks of a comment, in one place for the widget, the console, the CLI and the
// agents' tools: its states as people see them (Open, Completed, Live, Verified, Archived), the
// status filters and their labels, its timeline, and a refusal of the API as one sentence. In
// English unless an app passes its translator (the words are in locales/). Free of schema
// code, so bundles stay small.
import { format, type Translate, type Values } from './i18n.js';
import { en, type VocabularyId } from './locales/en.js';
import { PRIORITIES } from './rules.js';
import { shortSha } from './sha.js';

/** The fields a comment's state is read from. */
export interface StateFields {
  status: 'open' | 'applied' | 'archived';
  deployedAt: string | null;
  deployedBuildSha: string | null;
  verifiedAt: string | null;
}

/** What a comment is, as people see it: Live is an applied comment whose commit is deployed (not a status). */
export type DisplayState = 'open' | 'completed' | 'live' | 'archived';

export function displayState(comment: StateFields): DisplayState {
  if (comment.status !== 'applied') return comment.status;
  return comment.deployedAt ? 'live' : 'completed';
}

/** A catalogue's message by id, for the shared words (English unless the app passes its translator). */
export type VocabularyTranslate = Translate<VocabularyId>;
const english: Translate = (id, values) => {
  const message = en[id as VocabularyId];
  return message === undefined ? id : format('en', message, values);
};
/** The shared words in English, for an app that speaks nothing else yet. */
export const ENGLISH = { locale: 'en', t: english };

/**
 * A comment's status as one pill ("Live · 3abdb14"), in a list as clients lay pills out: its
 * state, or Verified once its author confirmed the fix. Never two, as "Completed" beside
 * "Verified" would read as two states at once; where it went Live is said with its fix.
 */
export function statePills(
  comment: StateFields,
  t: VocabularyTranslate = english,
): { kind: DisplayState | 'verified'; label: string }[] {
  const state = displayState(comment);
  if (state !== 'archived' && comment.verifiedAt) return [{ kind: 'verified', label: t('state.verified') }];
  const label =
    state === 'live' && comment.deployedBuildSha
      ? t('state.liveIn', { build: shortSha(comment.deployedBuildSha) })
      : t(`state.${state}`);
  return [{ kind: state, label }];
}

/** The filters of comment lists (the API's `status`, '' for all), with the ids of their labels. */
export const STATUS_FILTERS = [
  ['', 'filter.all'],
  ['open', 'state.open'],
  ['applied', 'state.completed'],
  ['live', 'state.live'],
  ['verified', 'state.verified'],
  ['archived', 'state.archived'],
] as const satisfies readonly (readonly [string, VocabularyId])[];
export type StatusFilterValue = (typeof STATUS_FILTERS)[number][0];

/** A refusal of the API, as the server writes it (RFC 9457 problem details with our `code`). */
export interface ProblemDocument {
  type?: string;
  title?: string;
  status?: number;
  detail?: string;
  code?: string;
  errors?: { path: string; message: string; rule?: string }[];
}

/**
 * A refusal as one sentence for a person. In English, the server's own detail (else its title)
 * and the first field it names unless the detail already says it; in another language, the
 * message of its code, and the field it names with the rule it breaks, in that language.
 */
export function problemSentence(
  problem: ProblemDocument | undefined,
  status: number,
  i18n: { locale: string; t(id: string, values?: Values): string },
): string {
  const field = problem?.errors?.[0];
  const fieldName = field?.path.replace(/^\//, '') ?? '';
  const { t } = i18n;
  // A translator answers an id it has no message for with the id.
  const known = (id: string, otherwise: () => string) => {
    const text = t(id);
    return text === id ? otherwise() : text;
  };
  if (i18n.locale !== 'en') {
    const sentence = known(`problem.${problem?.code}`, () => t('problem.status', { status: String(status) }));
    if (!field) return sentence;
    const broken = known(`problem.rule.${field.rule}`, () => t('problem.rule.other'));
    const name = known(`field.${fieldName}`, () => fieldName);
    return `${sentence} ${t('problem.field', { field: name, problem: broken })}`;
  }
  const detail = problem?.detail ?? problem?.title ?? t('problem.status', { status: String(status) });
  if (!field || detail.includes(field.message)) return detail.replace(/^\/(?=\w)/, '');
  return `${detail} (${fieldName || 'request'} ${field.message})`;
}

/** A timeline event's fields the sentences read (the API's `TimelineEvent`). */
export interface TimelineFields {
  kind: string;
  at: string;
  by: { id?: string; name: string } | null;
  via: 'person' | 'api_key' | 'mcp' | null;
  commitSha: string | null;
  buildSha: string | null;
  note: string | null;
  /** assigned: who was put on it (null: nobody). */
  assignee?: { id: string; name: string } | null;
}

/** "2 hr", "3 days", "under a minute": how long one step of a comment's story took. */
export function durationText(ms: number, t: VocabularyTranslate = english, locale = 'en'): string {
  const minutes = Math.round(ms / 60_000);
  if (minutes < 1) return t('duration.underAMinute');
  const [value, unit] =
    minutes < 60
      ? [minutes, 'minute']
      : minutes < 48 * 60
        ? [Math.round(minutes / 60), 'hour']
        : [Math.round(minutes / 1440), 'day'];
  return new Intl.NumberFormat(locale, { style: 'unit', unit, unitDisplay: 'short' }).format(value);
}

const KINDS: Record<string, VocabularyId> = {
  created: 'timeline.created',
  replied: 'timeline.replied',
  applied: 'timeline.applied',
  reapplied: 'timeline.reapplied',
  verified: 'timeline.verified',
  not_fixed: 'timeline.notFixed',
  reopened: 'timeline.reopened',
  archived: 'timeline.archived',
  repinned: 'timeline.repinned',
  screenshot_added: 'timeline.screenshotAdded',
};

/** The build a `live` event names; none: a fix without a commit, Live at once. */
const buildOf = (event: TimelineFields) => (event.buildSha ? shortSha(event.buildSha) : 'none');

/** Today as a calendar day (YYYY-MM-DD) where the reader is: their clock's date. */
export function localDay(now = new Date()): string {
  const two = (n: number) => String(n).padStart(2, '0');
  return `${now.getFullYear()}-${two(now.getMonth() + 1)}-${two(now.getDate())}`;
}

/**
 * A calendar day (YYYY-MM-DD) the language's way: "3 Dec", with its year when it is not the
 * year of `today`. Read as that day in UTC and written in UTC, so that no time zone moves it.
 */
export function dayText(day: string, locale = 'en', today = localDay()): string {
  const [year, month, date] = day.split('-').map(Number);
  const options: Intl.DateTimeFormatOptions = { day: 'numeric', month: 'short', timeZone: 'UTC' };
  if (day.slice(0, 4) !== today.slice(0, 4)) options.year = 'numeric';
  return new Intl.DateTimeFormat(locale, options).format(Date.UTC(year ?? 0, (month ?? 1) - 1, date ?? 1));
}

/** The fields a comment's due date is read from. */
export interface DueFields {
  status: 'open' | 'applied' | 'archived';
  dueOn: string | null;
}

/** Whether a comment is overdue on `today`: still open, and due before it. */
export const isOverdue = (comment: DueFields, today = localDay()) =>
  comment.status === 'open' && comment.dueOn !== null && comment.dueOn < today;

/**
 * A comment's due date in words, "Due 3 Dec" or "Overdue · due 3 Dec" (so that overdue is said,
 * not only coloured); null when it has none.
 */
export function dueText(
  comment: DueFields,
  t: VocabularyTranslate = english,
  locale = 'en',
  today = localDay(),
): { text: string; overdue: boolean } | null {
  if (comment.dueOn === null) return null;
  const overdue = isOverdue(comment, today);
  const date = dayText(comment.dueOn, locale, today);
  return { text: t(overdue ? 'due.overdue' : 'due.on', { date }), overdue };
}

/** One event of a comment's timeline as a sentence: "Applied by Dana in 3abdb14 through an agent (MCP)". */
export function timelineSentence(event: TimelineFields, t: VocabularyTranslate = english, locale = 'en'): string {
  if (event.kind === 'live') return t('timeline.live', { build: buildOf(event) });
  if (event.kind === 'due_set') {
    return t('timeline.dueSet', {
      by: event.by?.name ?? 'none',
      due: event.note ? dayText(event.note, locale) : 'none',
    });
  }
  if (event.kind === 'prioritized') {
    const priority = (PRIORITIES as readonly string[]).includes(event.note ?? '') ? event.note : 'none';
    return t('timeline.prioritized', {
      by: event.by?.name ?? 'none',
      priority: t(`priority.${priority}` as VocabularyId),
    });
  }
  if (event.kind === 'labeled') {
    const labels = event.note ? event.note.split('\n').join(', ') : 'none';
    return t('timeline.labeled', { by: event.by?.name ?? 'none', labels });
  }
  if (event.kind === 'assigned') {
    const to = event.assignee ?? null;
    const how = to === null ? 'unassigned' : event.by?.id === to.id ? 'took' : 'other';
    return t('timeline.assigned', { how, to: to?.name ?? 'none', by: event.by?.name ?? 'none' });
  }
  const id = KINDS[event.kind];
  if (!id) return event.kind;
  return t(id, {
    by: event.by?.name ?? 'none',
    via: event.via ?? 'none',
    commit: event.commitSha ? shortSha(event.commitSha) : 'none',
    note: event.note ?? 'none',
  });
}

/**
 * The story of a comment's latest fix in one line: "Applied by Dana in 3abdb14 · Live 2 hr later
 * in build 9f1c2e0 · Verified by Cleo". Null while it was never applied.
 */
export function fixStory(
  timeline: readonly TimelineFields[],
  t: VocabularyTranslate = english,
  locale = 'en',
): string | null {
  let start = -1;
  timeline.forEach((event, index) => {
    if (event.kind === 'applied' || event.kind === 'reapplied') start = index;
  });
  const applied = timeline[start];
  if (!applied) return null;
  const parts = [timelineSentence({ ...applied, kind: 'applied' }, t)];
  for (const event of timeline.slice(start + 1)) {
    if (event.kind === 'live') {
      const later = durationText(Date.parse(event.at) - Date.parse(applied.at), t, locale);
      parts.push(t('timeline.liveLater', { duration: later, build: buildOf(event) }));
    } else if (['verified', 'not_fixed', 'reopened'].includes(event.kind)) {
      parts.push(timelineSentence(event, t));
    }
  }
  return parts.join(' · ');
}
