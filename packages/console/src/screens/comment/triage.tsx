// The triage panel: who is on the comment, its priority, its due date and its labels.

import { useState } from 'preact/hooks';
import { api } from '../../api.js';
import { assigneeName, DuePill, LabelChips, priorityOptions } from '../../comment-pills.js';
import { t } from '../../i18n.js';
import { useLoad, usePages } from '../../loading.js';
import type { Act, Comment } from './model.js';

/** Who is on it, its priority, its due date and its labels: the team sets them here. */
export function Triage({ comment, act }: { comment: Comment; act: Act }) {
  return (
    <dl class="facts">
      <dt>{t('comments.assignee')}</dt>
      <dd>
        <Assignee comment={comment} act={act} />
      </dd>
      <dt>{t('comments.priority')}</dt>
      <dd>
        {comment.can.triage ? (
          <select
            aria-label={t('comments.priority')}
            style="width:auto;max-width:100%"
            value={comment.priority}
            onChange={(e) => {
              const priority = (e.target as HTMLSelectElement).value as Comment['priority'];
              act(() =>
                api.call('PUT /api/comments/{id}/priority', { params: { id: comment.id }, body: { priority } }),
              );
            }}
          >
            {priorityOptions().map(([p, label]) => (
              <option key={p} value={p}>
                {label}
              </option>
            ))}
          </select>
        ) : (
          t(`priority.${comment.priority}`)
        )}
      </dd>
      <dt>{t('comment.dueDate')}</dt>
      <dd>
        {comment.can.triage ? (
          <DueChoice key={comment.updatedAt} comment={comment} act={act} />
        ) : comment.dueOn ? (
          <DuePill comment={comment} />
        ) : (
          t('comment.noDueDate')
        )}
      </dd>
      <dt>{t('comment.labels')}</dt>
      <dd>
        {comment.can.triage ? (
          <LabelChoice key={comment.updatedAt} comment={comment} act={act} />
        ) : comment.labels.length ? (
          <LabelChips labels={comment.labels} />
        ) : (
          t('comment.noLabels')
        )}
      </dd>
    </dl>
  );
}

/** The day it should be fixed by: a date field (a whole day, set when chosen) and a button that clears it. */
function DueChoice({ comment, act }: { comment: Comment; act: Act }) {
  const set = (dueOn: string | null) =>
    act(() => api.call('PATCH /api/comments/{id}', { params: { id: comment.id }, body: { dueOn } }));
  return (
    <span class="due-choice">
      <input
        type="date"
        aria-label={t('comment.dueDate')}
        style="width:auto"
        value={comment.dueOn ?? ''}
        onChange={(e) => {
          const day = (e.target as HTMLInputElement).value;
          if (day !== (comment.dueOn ?? '')) void set(day || null);
        }}
      />
      {comment.dueOn ? (
        <>
          <DuePill comment={comment} />
          <button type="button" class="link" onClick={() => void set(null)}>
            {t('comment.clearDueDate')}
          </button>
        </>
      ) : null}
    </span>
  );
}

/**
 * The workspace's labels as checkboxes: ticking one puts it on the comment at once (the box
 * shows the choice while the server answers; a refusal redraws it as the comment stands).
 */
function LabelChoice({ comment, act }: { comment: Comment; act: Act }) {
  const labels = useLoad(() => api.call('GET /api/workspace/labels', {}), []);
  const [has, setHas] = useState(() => new Set(comment.labels.map((label) => label.id)));
  const all = labels.data?.items;
  if (!all) return <LabelChips labels={comment.labels} />;
  if (all.length === 0) return <span class="muted">{t('comment.noLabelsYet')}</span>;
  const toggle = (id: string, on: boolean) => {
    const labelIds = all.map((label) => label.id).filter((labelId) => (labelId === id ? on : has.has(labelId)));
    const before = has;
    setHas(new Set(labelIds));
    void act(() => api.call('PUT /api/comments/{id}/labels', { params: { id: comment.id }, body: { labelIds } })).then(
      (answer) => answer || setHas(before),
    );
  };
  return (
    <fieldset class="checks">
      <legend class="skip">{t('comment.labels')}</legend>
      {all.map((label) => (
        <label key={label.id}>
          <input
            type="checkbox"
            checked={has.has(label.id)}
            onChange={(e) => toggle(label.id, (e.target as HTMLInputElement).checked)}
          />
          <span class={`dot ${label.color}`} aria-hidden="true" />
          {label.name}
        </label>
      ))}
    </fieldset>
  );
}

/** Who is on it; for the team, who to put on it (the team and its agents, or nobody), and "Take it". */
function Assignee({ comment, act }: { comment: Comment; act: Act }) {
  const { can, id } = comment;
  const team = usePages(
    (cursor) =>
      can.assign ? api.call('GET /api/workspace/members', { query: { limit: 100, cursor } }) : Promise.resolve(null),
    [can.assign],
    { every: true },
  );
  const assign = (assigneeId: string | null) =>
    act(() => api.call('PUT /api/comments/{id}/assignee', { params: { id }, body: { assigneeId } }));
  const people = team.data?.items ?? [];
  return (
    <div class="row">
      {can.assign ? (
        <select
          aria-label={t('comment.assignTo')}
          style="width:auto;max-width:100%"
          value={comment.assignee?.id ?? ''}
          onChange={(e) => assign((e.target as HTMLSelectElement).value || null)}
        >
          <option value="">{t('comment.nobody')}</option>
          {/* The one on it stays listed while the team loads (or when they left it). */}
          {comment.assignee && !people.some((p) => p.id === comment.assignee?.id) ? (
            <option value={comment.assignee.id}>{assigneeName(comment.assignee)}</option>
          ) : null}
          {people.map((p) => (
            <option key={p.id} value={p.id}>
              {assigneeName(p)}
            </option>
          ))}
        </select>
      ) : (
        <span>{comment.assignee ? assigneeName(comment.assignee) : t('comment.nobodyOnIt')}</span>
      )}
      {can.claim ? (
        <button type="button" onClick={() => act(() => api.call('POST /api/comments/{id}/claim', { params: { id } }))}>
          {t('comment.claim')}
        </button>
      ) : null}
    </div>
  );
}
