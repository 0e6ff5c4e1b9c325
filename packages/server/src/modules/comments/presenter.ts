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
import { type ImageRow, presentImage } from './image-store.js';
import { abilitiesOf } from './lifecycle.js';
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
    author: { id: row.author_id, name: row.author_name, role: row.author_role },
    commitSha: row.commit_sha,
    commitUrl: row.commit_url,
    appliedBy: row.applied_by_id && row.applied_by_name ? { id: row.applied_by_id, name: row.applied_by_name } : null,
    appliedAt: row.applied_at,
    verifiedAt: row.verified_at,
    deployedAt: row.deployed_at,
    deployedBuildSha: row.deployed_build_sha,
    replyCount: row.reply_count,
    imageCount: Number(row.image_count),
    assignee:
      row.assignee_id && row.assignee_name
        ? { id: row.assignee_id, name: row.assignee_name, agent: row.assignee_kind === 'agent' }
        : null,
    assignedAt: row.assigned_at,
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
    can: abilitiesOf(actor, row),
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

export const presentReply = (row: ReplyRow): Reply => ({
  id: row.id,
  commentId: row.comment_id,
  author:
    row.author_id && row.author_name && row.author_role
      ? { id: row.author_id, name: row.author_name, role: row.author_role }
      : null,
  kind: row.kind,
  body: showMentions(row.body),
  mentions: mentionedPeople(row.body),
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
  replies: replies.map(presentReply),
  timeline: timeline.map(presentTimelineEvent),
  images: images.map(presentImage),
});
