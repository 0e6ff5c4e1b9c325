// Every comment the caller can see, across projects, with the filters of GET /api/comments.
// The filters live in the address (a filtered list is a link); arrow keys move between rows,
// Enter opens one, checkboxes select rows to act on together (the selection stays for the next
// action). A comment opened from the list carries the list with it (`ListWalk`), so that its
// page goes on to the next of them.
import type { AnswerOf, Endpoints } from '@svc/contract/endpoints';
import { localDay, STATUS_FILTERS } from '@svc/contract/vocabulary';
import { useRef, useState } from 'preact/hooks';
import { api } from '../api.js';
import { t } from '../i18n.js';
import { location as address, currentQuery, Link, navigate } from '../router.js';
import {
  assigneeName,
  DuePill,
  FilterSelect,
  FormError,
  LabelChips,
  Lazy,
  Loading,
  PageTitle,
  PriorityPill,
  pageName,
  peopleOptions,
  priorityOptions,
  StatusPills,
  Time,
  useAction,
  useLoad,
  usePages,
} from '../ui.js';

type Query = NonNullable<Endpoints['GET /api/comments']['query']>;
type Status = NonNullable<Query['status']>;
type Comment = AnswerOf<'GET /api/comments'>['items'][number];

/** Who and which labels the filters and the menus offer. */
interface Choices {
  team: AnswerOf<'GET /api/workspace/members'>['items'];
  labels: AnswerOf<'GET /api/workspace/labels'>['items'];
}

const PAGE = 50;

/** The board: a chunk of its own, loaded when first shown. */
const loadBoard = () => import('./board/board.js').then((module) => module.Board);

/** The page's path and search for these filters (empty ones left out). */
function filtersUrl(filters: Record<string, string>): string {
  const query = new URLSearchParams(Object.entries(filters).filter(([, value]) => value));
  return query.size ? `/comments?${query}` : '/comments';
}

type Filters = Record<
  | 'project'
  | 'status'
  | 'author'
  | 'assignee'
  | 'priority'
  | 'label'
  | 'due'
  | 'pageUrl'
  | 'q'
  | 'cursor'
  | 'view'
  | 'sort',
  string
>;

/**
 * The list a comment was opened from, kept with the comment page's history entry: the list's
 * address (its filters), its comments in order, and the cursor of the page after them.
 */
export interface ListWalk {
  from: string;
  ids: string[];
  next: string | null;
}

/** The list the current history entry was opened from, if any (see `Link`'s state). */
export function walkOfHistory(): ListWalk | null {
  const walk = (history.state as { walk?: ListWalk } | null)?.walk;
  return walk && typeof walk.from === 'string' && Array.isArray(walk.ids) ? walk : null;
}

/** The walk with the list's next page added, or null when it cannot be read. */
export async function moreOfList(walk: ListWalk): Promise<ListWalk | null> {
  if (!walk.next) return null;
  const filters = filtersOf(new URLSearchParams(walk.from.split('?')[1] ?? ''));
  const answer = await api.call('GET /api/comments', { query: { ...listQuery(filters), cursor: walk.next } });
  if (!answer.ok) return null;
  const ids = answer.data.items.map((c) => c.id).filter((id) => !walk.ids.includes(id));
  return { ...walk, ids: [...walk.ids, ...ids], next: answer.data.nextCursor };
}

/** The filters an address of the list holds. */
function filtersOf(params: URLSearchParams): Filters {
  return {
    project: params.get('project') ?? '',
    status: params.get('status') ?? '',
    author: params.get('author') ?? '',
    assignee: params.get('assignee') ?? '',
    priority: params.get('priority') ?? '',
    label: params.get('label') ?? '',
    due: params.get('due') ?? '',
    pageUrl: params.get('pageUrl') ?? '',
    q: params.get('q') ?? '',
    cursor: params.get('cursor') ?? '',
    view: params.get('view') === 'board' ? 'board' : '',
    sort: params.get('sort') ?? '',
  };
}

/** The filters the list and the board share, as the API's query. */
const sharedQuery = (filters: Filters) => ({
  project: filters.project || undefined,
  author: filters.author || undefined,
  assignee: filters.assignee || undefined,
  priority: (filters.priority || undefined) as Query['priority'],
  label: filters.label || undefined,
  ...dueQuery(filters.due),
  pageUrl: filters.pageUrl || undefined,
  q: filters.q || undefined,
});

/** The due filter as the API's: overdue, or due within the next week (by the reader's calendar). */
function dueQuery(due: string): Pick<Query, 'overdue' | 'dueBy'> {
  if (due === 'overdue') return { overdue: 'true' };
  if (due === 'week') return { dueBy: localDay(new Date(Date.now() + 7 * 86_400_000)) };
  return {};
}

/** The query of the list's page these filters show. */
const listQuery = (filters: Filters): Query => ({
  ...sharedQuery(filters),
  limit: PAGE,
  status: (filters.status || undefined) as Status | undefined,
  sort: (filters.sort || undefined) as Query['sort'],
  cursor: filters.cursor || undefined,
});

export function Comments() {
  const filters = filtersOf(currentQuery());
  const shared = sharedQuery(filters);
  const list = useLoad(
    () =>
      filters.view === 'board' ? Promise.resolve(null) : api.call('GET /api/comments', { query: listQuery(filters) }),
    [location.search],
  );
  // The team and the labels, read once for the filters and the selected rows' menus.
  const team = usePages((cursor) => api.call('GET /api/workspace/members', { query: { limit: 100, cursor } }), [], {
    every: true,
  });
  const labels = useLoad(() => api.call('GET /api/workspace/labels', {}), []);
  const choices: Choices = { team: team.data?.items ?? [], labels: labels.data?.items ?? [] };
  const [chosen, setSelected] = useState<Set<string>>(new Set());
  const bulk = useAction();
  const items = list.data?.items ?? [];
  // The selection stays through an action, for the next one; a row the list no longer shows
  // (archived under a status filter) leaves it.
  const selected = new Set(items.filter((item) => chosen.has(item.id)).map((item) => item.id));

  /** Does `request` to each selected comment in turn, stopping at the first refusal (said). */
  const eachSelected = async (request: (c: Comment) => ReturnType<typeof api.call>) => {
    for (const c of items.filter((item) => selected.has(item.id))) {
      if (!(await bulk.run(() => request(c) as Promise<never>))) break;
    }
    list.reload();
  };
  const walk: ListWalk = { from: address.value, ids: items.map((c) => c.id), next: list.data?.nextCursor ?? null };

  return (
    <>
      <PageTitle>{t('nav.comments')}</PageTitle>
      <CommentFilters filters={filters} choices={choices} />
      {filters.view === 'board' ? <Lazy load={loadBoard} props={{ query: shared }} /> : null}
      {filters.view !== 'board' && selected.size ? (
        <div class="row" style="margin-bottom:8px">
          <span>{t('comments.selected', { count: selected.size })}</span>
          <BulkTriage pending={bulk.pending} each={eachSelected} choices={choices} />
          <button
            type="button"
            disabled={bulk.pending}
            onClick={() => eachSelected((c) => api.call('POST /api/comments/{id}/archive', { params: { id: c.id } }))}
          >
            {t('comments.archiveSelected')}
          </button>
          <button type="button" class="link" onClick={() => setSelected(new Set())}>
            {t('comments.clearSelection')}
          </button>
        </div>
      ) : null}
      <FormError message={bulk.error} />
      {list.data || filters.view === 'board' ? null : <Loading error={list.error} />}
      {filters.view === 'board' ? null : (
        <>
          {list.data && items.length === 0 ? <p class="empty">{t('comments.noMatch')}</p> : null}
          {items.length ? <CommentTable items={items} selected={selected} onSelect={setSelected} walk={walk} /> : null}
        </>
      )}
      <div class="row" style="margin-top:12px" hidden={filters.view === 'board'}>
        {filters.cursor ? (
          <button type="button" onClick={() => navigate(filtersUrl({ ...filters, cursor: '' }), true)}>
            {t('comments.firstPage')}
          </button>
        ) : null}
        {list.data?.nextCursor ? (
          <button
            type="button"
            onClick={() => navigate(filtersUrl({ ...filters, cursor: list.data?.nextCursor ?? '' }), true)}
          >
            {t('comments.nextPage')}
          </button>
        ) : null}
      </div>
    </>
  );
}

/** Who is on the selected comments, their priority, a label for each of them: a menu each, done on choosing. */
function BulkTriage({
  pending,
  each,
  choices: { team, labels },
}: {
  pending: boolean;
  each: (request: (c: Comment) => ReturnType<typeof api.call>) => Promise<void>;
  choices: Choices;
}) {
  const menu = (label: string, options: readonly (readonly [string, string])[], choose: (value: string) => void) => (
    <select
      aria-label={label}
      value=""
      disabled={pending}
      style="width:auto"
      onChange={(e) => {
        const value = (e.target as HTMLSelectElement).value;
        if (value) choose(value);
      }}
    >
      <option value="">{label}</option>
      {options.map(([value, text]) => (
        <option key={value} value={value}>
          {text}
        </option>
      ))}
    </select>
  );
  const params = (c: Comment) => ({ params: { id: c.id } });
  return (
    <>
      {menu(
        t('comments.assignSelected'),
        [['none', t('comment.nobody')], ...team.map((p) => [p.id, assigneeName(p)] as const)],
        (who) =>
          each((c) =>
            api.call('PUT /api/comments/{id}/assignee', {
              ...params(c),
              body: { assigneeId: who === 'none' ? null : who },
            }),
          ),
      )}
      {menu(t('comments.prioritizeSelected'), priorityOptions(), (priority) =>
        each((c) =>
          api.call('PUT /api/comments/{id}/priority', {
            ...params(c),
            body: { priority: priority as Comment['priority'] },
          }),
        ),
      )}
      {labels.length
        ? menu(
            t('comments.labelSelected'),
            labels.map((l) => [l.id, l.name] as const),
            (labelId) =>
              each((c) =>
                api.call('PUT /api/comments/{id}/labels', {
                  ...params(c),
                  body: { labelIds: [...new Set([...c.labels.map((l) => l.id), labelId])] },
                }),
              ),
          )
        : null}
    </>
  );
}

/** The filters, kept in the address: words and page address on Search, the others at once. */
function CommentFilters({ filters, choices: { team, labels } }: { filters: Filters; choices: Choices }) {
  const setFilter = (name: keyof Filters, value: string) =>
    navigate(filtersUrl({ ...filters, cursor: '', [name]: value }), true);
  const projects = useLoad(() => api.call('GET /api/projects', {}), []);
  const [search, setSearch] = useState(filters.q);
  const [page, setPage] = useState(filters.pageUrl);
  // On a phone the filters fold behind one button that counts those in use (the list first).
  const [unfolded, setUnfolded] = useState(false);
  const inUse = (['project', 'author', 'assignee', 'priority', 'label', 'due', 'pageUrl', 'q'] as const).filter(
    (name) => filters[name],
  ).length;
  return (
    <>
      <button
        type="button"
        class="filters-toggle"
        aria-expanded={unfolded}
        aria-controls="comment-filters"
        onClick={() => setUnfolded(!unfolded)}
      >
        {t('comments.filters', { count: inUse })}
      </button>
      <form
        id="comment-filters"
        class={unfolded ? 'filters' : 'filters folded'}
        aria-label={t('comments.filter')}
        onSubmit={(event) => {
          event.preventDefault();
          navigate(filtersUrl({ ...filters, cursor: '', q: search.trim(), pageUrl: page.trim() }), true);
        }}
      >
        <div>
          <label for="f-q">{t('comments.words')}</label>
          <input
            id="f-q"
            type="search"
            value={search}
            onInput={(e) => setSearch((e.target as HTMLInputElement).value)}
          />
        </div>
        <FilterSelect
          id="f-project"
          label={t('comments.project')}
          value={filters.project}
          options={[
            ['', t('comments.allProjects')],
            ...(projects.data?.items ?? []).map((p) => [p.key, `${p.name} (${p.key})`] as const),
          ]}
          onValue={(value) => setFilter('project', value)}
        />
        <FilterSelect
          id="f-author"
          label={t('comments.author')}
          value={filters.author}
          options={peopleOptions(team)}
          onValue={(value) => setFilter('author', value)}
        />
        <FilterSelect
          id="f-assignee"
          label={t('comments.assignee')}
          value={filters.assignee}
          options={[
            ['', t('ui.anyone')],
            ['me', t('comments.assignedToMe')],
            ['none', t('comments.unassigned')],
            ...team.map((p) => [p.id, p.name] as const),
          ]}
          onValue={(value) => setFilter('assignee', value)}
        />
        <FilterSelect
          id="f-priority"
          label={t('comments.priority')}
          value={filters.priority}
          options={[['', t('comments.anyPriority')], ...priorityOptions()]}
          onValue={(value) => setFilter('priority', value)}
        />
        <FilterSelect
          id="f-label"
          label={t('comments.label')}
          value={filters.label}
          options={[['', t('comments.anyLabel')], ...labels.map((l) => [l.id, l.name] as const)]}
          onValue={(value) => setFilter('label', value)}
        />
        <FilterSelect
          id="f-due"
          label={t('comments.due')}
          value={filters.due}
          options={[
            ['', t('comments.anyDue')],
            ['overdue', t('comments.overdue')],
            ['week', t('comments.dueThisWeek')],
          ]}
          onValue={(value) => setFilter('due', value)}
        />
        <FilterSelect
          id="f-sort"
          label={t('comments.sort')}
          value={filters.sort}
          options={[
            ['', t('comments.newestFirst')],
            ['oldest', t('comments.oldestFirst')],
            ['priority', t('comments.urgentFirst')],
            ['due', t('comments.dueFirst')],
          ]}
          onValue={(value) => setFilter('sort', value)}
        />
        <div>
          <label for="f-page">{t('comments.pageUrl')}</label>
          <input
            id="f-page"
            type="url"
            placeholder="https://app.example.com/pricing"
            value={page}
            onInput={(e) => setPage((e.target as HTMLInputElement).value)}
          />
        </div>
        <div style="align-self:end">
          <button type="submit">{t('comments.search')}</button>
        </div>
      </form>
      <fieldset class="segmented">
        <legend class="skip">{t('comments.view')}</legend>
        {(['', 'board'] as const).map((view) => (
          <button key={view} type="button" aria-pressed={filters.view === view} onClick={() => setFilter('view', view)}>
            {t(view ? 'comments.board' : 'comments.list')}
          </button>
        ))}
      </fieldset>
      <fieldset class="segmented" hidden={filters.view === 'board'}>
        <legend class="skip">{t('comments.status')}</legend>
        {STATUS_FILTERS.map(([value, label]) => (
          <button
            key={value}
            type="button"
            aria-pressed={filters.status === value}
            onClick={() => setFilter('status', value)}
          >
            {t(label)}
          </button>
        ))}
      </fieldset>
    </>
  );
}

/**
 * The comments of this page; arrow keys move between rows, checkboxes select them. A comment
 * opens with the list as `walk`, for its page's Next and Previous.
 */
function CommentTable({
  items,
  selected,
  onSelect,
  walk,
}: {
  items: Comment[];
  selected: Set<string>;
  onSelect: (selected: Set<string>) => void;
  walk: ListWalk;
}) {
  const rows = useRef<HTMLTableSectionElement>(null);
  const moveFocus = (event: KeyboardEvent, index: number) => {
    const links = rows.current?.querySelectorAll<HTMLAnchorElement>('a[data-row]');
    if (event.key === 'ArrowDown') links?.[Math.min(index + 1, links.length - 1)]?.focus();
    else if (event.key === 'ArrowUp') links?.[Math.max(index - 1, 0)]?.focus();
    else return;
    event.preventDefault();
  };
  return (
    <div class="table-wrap">
      <table>
        <caption class="skip">{t('comments.caption')}</caption>
        <thead>
          <tr>
            <th scope="col">
              <input
                type="checkbox"
                aria-label={t('comments.selectAll')}
                checked={selected.size === items.length}
                onChange={(e) =>
                  onSelect((e.target as HTMLInputElement).checked ? new Set(items.map((c) => c.id)) : new Set())
                }
              />
            </th>
            <th scope="col">{t('inbox.comment')}</th>
            <th scope="col">{t('comments.status')}</th>
            <th scope="col" class="hide-phone">
              {t('comments.project')}
            </th>
            <th scope="col" class="hide-phone">
              {t('comments.author')}
            </th>
            <th scope="col" class="hide-phone">
              {t('comments.assignee')}
            </th>
            <th scope="col">{t('comments.updated')}</th>
          </tr>
        </thead>
        <tbody ref={rows}>
          {items.map((c: Comment, index) => (
            <tr key={c.id} class="selectable" aria-selected={selected.has(c.id)}>
              <td>
                <input
                  type="checkbox"
                  aria-label={t('comments.select', { author: c.author.name })}
                  checked={selected.has(c.id)}
                  onChange={(e) => {
                    const next = new Set(selected);
                    if ((e.target as HTMLInputElement).checked) next.add(c.id);
                    else next.delete(c.id);
                    onSelect(next);
                  }}
                />
              </td>
              <td class="wrap">
                <Link
                  href={`/comments/${encodeURIComponent(c.id)}`}
                  state={{ walk }}
                  data-row=""
                  onKeyDown={(event) => moveFocus(event as unknown as KeyboardEvent, index)}
                >
                  {c.body.length > 140 ? `${c.body.slice(0, 140)}…` : c.body}
                </Link>
                <div class="muted small">
                  {pageName(c.pageUrl)}
                  {/* Its images, said before its thread is opened. */}
                  {c.imageCount ? ` · ${t('comments.imageCount', { count: c.imageCount })}` : ''}
                </div>
                <LabelChips labels={c.labels} />
              </td>
              <td>
                <span class="pills">
                  <StatusPills comment={c} />
                  <PriorityPill priority={c.priority} />
                  <DuePill comment={c} />
                </span>
              </td>
              <td class="hide-phone">{c.projectKey}</td>
              <td class="hide-phone">{c.author.name}</td>
              <td class="hide-phone">{c.assignee ? assigneeName(c.assignee) : '—'}</td>
              <td>
                <Time iso={c.updatedAt} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
