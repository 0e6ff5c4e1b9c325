// What the team does to the selected comments at once: who is on them, their priority, a label.

import { api } from '../../api.js';
import { assigneeName, priorityOptions } from '../../comment-pills.js';
import { t } from '../../i18n.js';
import type { Choices, Comment } from './query.js';

/** Who is on the selected comments, their priority, a label for each of them: a menu each, done on choosing. */
export function BulkTriage({
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
