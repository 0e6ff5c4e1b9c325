import {
  type Anchor,
  type Comment,
  type CommentContext,
  type CommentWithReplies,
  mentionedPeople,
  PRIORITIES,
  type Reply,
  showMentions,
} from '@svc/contract';
import type { Actor } from '../../actor.js';
import type { CommentTable } from '../../db/schema.js';
import { type ImageRow, presentImage } from './image-store.js';
import { stageOf } from './lifecycle.js';
import { abilitiesOf, replyAbilitiesOf } from './policy.js';
import type { CommentRow, ReplyRow } from './repo.js';
import { presentTimelineEvent, type TimelineRow } from './timeline.js';

/**
 * An offset as stored, or 0 when it is not a finite number: such a value could not be
 * written to JSON, and one bad row must not take a whole list down. (The API refuses
 * non-finite offsets; this repairs rows written before it did.)
 */
const finiteOr0 = (value: number | null) => (value !== null && Number.isFinite(value) ? value : 0);

/** The anchor as stored: its selector and offset, and the element's description when it has one. */
function presentAnchor(row: CommentRow): Anchor | null {
  if (row.anchor_selector === null) return null;
  const detail = row.anchor_detail ? (JSON.parse(row.anchor_detail) as Omit<Anchor, 'selector' | 'x' | 'y'>) : {};
  return { selector: row.anchor_selector, x: finiteOr0(row.anchor_x), y: finiteOr0(row.anchor_y), ...detail };
}

/** The anchor's columns: its selector and offset, and the rest of it (the description) as JSON. */
export function anchorColumns(anchor: Anchor | null | undefined) {
  if (!anchor) return { anchor_selector: null, anchor_x: null, anchor_y: null, anchor_detail: null };
  const { selector, x, y, ...detail } = anchor;
  return {
    anchor_selector: selector,
    anchor_x: x,
    anchor_y: y,
    anchor_detail: Object.keys(detail).length ? JSON.stringify(detail) : null,
  };
}

/**
 * The comment's fields that are one column each, as stored: presented as they are, and an
 * export's comment imported back the same way (`plainColumnsOf`). A field of this kind is added
 * here once.
 */
const PLAIN_FIELDS = {
  commitSha: 'commit_sha',
  commitUrl: 'commit_url',
  appliedAt: 'applied_at',
  verifiedAt: 'verified_at',
  deployedAt: 'deployed_at',
  deployedBuildSha: 'deployed_build_sha',
  replyCount: 'reply_count',
  assignedAt: 'assigned_at',
  dueOn: 'due_on',
  createdAt: 'created_at',
  updatedAt: 'updated_at',
} as const satisfies Partial<Record<keyof Comment, keyof CommentTable>>;
type PlainFields = { [F in keyof typeof PLAIN_FIELDS]: CommentTable[(typeof PLAIN_FIELDS)[F]] };

const plainFieldsOf = (row: Pick<CommentTable, (typeof PLAIN_FIELDS)[keyof PlainFields]>) =>
  Object.fromEntries(Object.entries(PLAIN_FIELDS).map(([field, column]) => [field, row[column]])) as PlainFields;

/** The columns of the plain fields a comment of an export gives (a field an older export lacks: not given, so its default). */
export const plainColumnsOf = (comment: Partial<PlainFields>) =>
  Object.fromEntries(
    Object.entries(PLAIN_FIELDS).flatMap(([field, column]) => {
      const value = comment[field as keyof PlainFields];
      return value === undefined ? [] : [[column, value]];
    }),
  ) as Partial<Pick<CommentTable, (typeof PLAIN_FIELDS)[keyof PlainFields]>>;

/** The comment as `actor` sees it: with what they may do with it now. */
export function presentComment(row: CommentRow, actor: Actor): Comment {
  return {
    id: row.id,
    projectKey: row.project_key,
    body: showMentions(row.body),
    mentions: mentionedPeople(row.body),
    pageUrl: row.page_url,
    anchor: presentAnchor(row),
    pin: row.pin_number === null ? null : Number(row.pin_number),
    status: row.status,
    stage: stageOf(row),
    author: { id: row.author_id, name: row.author_name, role: row.author_role },
    ...plainFieldsOf(row),
    appliedBy: row.applied_by_id && row.applied_by_name ? { id: row.applied_by_id, name: row.applied_by_name } : null,
    imageCount: Number(row.image_count),
    assignee:
      row.assignee_id && row.assignee_name
        ? { id: row.assignee_id, name: row.assignee_name, agent: row.assignee_kind === 'agent' }
        : null,
    priority: PRIORITIES[row.priority] ?? 'none',
    labels: row.labels,
    repinned:
      row.repinned_at && row.repinned_by_id
        ? { at: row.repinned_at, by: { id: row.repinned_by_id, name: row.repinned_by_name ?? 'Former member' } }
        : null,
    context: row.context ? (JSON.parse(row.context) as CommentContext) : null,
    screenshot:
      row.screenshot_type && row.screenshot_at
        ? {
            url: `/api/comments/${row.id}/screenshot`,
            contentType: row.screenshot_type,
            bytes: Number(row.screenshot_size),
            createdAt: row.screenshot_at,
          }
        : null,
    replay: row.replay_at
      ? { url: `/api/comments/${row.id}/replay`, bytes: Number(row.replay_size), createdAt: row.replay_at }
      : null,
    can: abilitiesOf(actor, row),
  };
}

export const presentReply = (row: ReplyRow, actor: Actor): Reply => ({
  id: row.id,
  commentId: row.comment_id,
  author:
    row.author_id && row.author_name && row.author_role
      ? { id: row.author_id, name: row.author_name, role: row.author_role }
      : null,
  kind: row.kind,
  body: showMentions(row.body),
  mentions: mentionedPeople(row.body),
  can: replyAbilitiesOf(actor, row),
  createdAt: row.created_at,
});

export const presentCommentWithReplies = (
  row: CommentRow,
  replies: ReplyRow[],
  timeline: TimelineRow[],
  images: ImageRow[],
  actor: Actor,
): CommentWithReplies => ({
  ...presentComment(row, actor),
  replies: replies.map((reply) => presentReply(reply, actor)),
  timeline: timeline.map(presentTimelineEvent),
  images: images.map(presentImage),
});
