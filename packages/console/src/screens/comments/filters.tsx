// The list's filters, kept in the address: a filtered list is a link.

import { STATUS_FILTERS } from '@svc/contract/vocabulary';
import { useState } from 'preact/hooks';
import { api } from '../../api.js';
import { priorityOptions } from '../../comment-pills.js';
import { t } from '../../i18n.js';
import { useLoad } from '../../loading.js';
import { navigate } from '../../router.js';
import { FilterSelect, peopleOptions } from '../../ui.js';
import { type Choices, type Filters, filtersUrl } from './query.js';

/** The filters, kept in the address: words and page address on Search, the others at once. */
export function CommentFilters({ filters, choices: { team, labels } }: { filters: Filters; choices: Choices }) {
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
