// The list's table: a row per comment, arrow keys between rows, Enter to open, checkboxes to select.

import { useRef } from 'preact/hooks';
import { assigneeName, DuePill, LabelChips, PriorityPill, pageName, StatusPills } from '../../comment-pills.js';
import { t } from '../../i18n.js';
import { Link } from '../../router.js';
import { Time } from '../../ui.js';
import type { ListWalk } from './list-walk.js';
import type { Comment } from './query.js';

/**
 * The comments of this page; arrow keys move between rows, checkboxes select them. A comment
 * opens with the list as `walk`, for its page's Next and Previous.
 */
export function CommentTable({
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
