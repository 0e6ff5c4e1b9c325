// Every comment the caller can see, across projects, with the filters of GET /api/comments.
// The filters live in the address (a filtered list is a link); arrow keys move between rows,
// Enter opens one, checkboxes select rows to act on together (the selection stays for the next
// action). A comment opened from the list carries the list with it (`ListWalk`), so that its
// page goes on to the next of them.

import { useState } from 'preact/hooks';
import { api } from '../../api.js';
import { t } from '../../i18n.js';
import { Lazy, Loading, useAction, useLoad, usePages } from '../../loading.js';
import { location as address, currentQuery, navigate } from '../../router.js';
import { FormError, PageTitle } from '../../ui.js';
import { BulkTriage } from './bulk-triage.js';
import { CommentFilters } from './filters.js';
import type { ListWalk } from './list-walk.js';
import { type Choices, type Comment, filtersOf, filtersUrl, listQuery, sharedQuery } from './query.js';
import { CommentTable } from './table.js';

/** The board: a chunk of its own, loaded when first shown. */
const loadBoard = () => import('../board/board.js').then((module) => module.Board);

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
