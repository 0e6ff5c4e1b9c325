// The list's filters: as its address holds them, and as the API's query.

import type { AnswerOf, Endpoints } from '@svc/contract/endpoints';
import { localDay } from '@svc/contract/vocabulary';

export type Query = NonNullable<Endpoints['GET /api/comments']['query']>;
export type Status = NonNullable<Query['status']>;
export type Comment = AnswerOf<'GET /api/comments'>['items'][number];

/** Who and which labels the filters and the menus offer. */
export interface Choices {
  team: AnswerOf<'GET /api/workspace/members'>['items'];
  labels: AnswerOf<'GET /api/workspace/labels'>['items'];
}

export const PAGE = 50;

/** The page's path and search for these filters (empty ones left out). */
export function filtersUrl(filters: Record<string, string>): string {
  const query = new URLSearchParams(Object.entries(filters).filter(([, value]) => value));
  return query.size ? `/comments?${query}` : '/comments';
}

export type Filters = Record<
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
/** The filters an address of the list holds. */
export function filtersOf(params: URLSearchParams): Filters {
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
export const sharedQuery = (filters: Filters) => ({
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
export function dueQuery(due: string): Pick<Query, 'overdue' | 'dueBy'> {
  if (due === 'overdue') return { overdue: 'true' };
  if (due === 'week') return { dueBy: localDay(new Date(Date.now() + 7 * 86_400_000)) };
  return {};
}

/** The query of the list's page these filters show. */
export const listQuery = (filters: Filters): Query => ({
  ...sharedQuery(filters),
  limit: PAGE,
  status: (filters.status || undefined) as Status | undefined,
  sort: (filters.sort || undefined) as Query['sort'],
  cursor: filters.cursor || undefined,
});
