import type { Comment, CommentContext, CommentWithReplies, Reply } from '@svc/contract';
import type { CommentRow, ReplyRow } from './repo.js';

const EXCERPT_LENGTH = 140;

/** The start of a text for a notification, on one line, at most 140 characters. */
export function excerpt(text: string): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length <= EXCERPT_LENGTH ? line : `${line.slice(0, EXCERPT_LENGTH - 1)}…`;
}

/**
 * An offset as stored, or 0 when it is not a finite number: such a value could not be
 * written to JSON, and one bad row must not take a whole list down. (The API refuses
 * non-finite offsets; this repairs rows written before it did.)
 */
const finiteOr0 = (value: number | null) => (value !== null && Number.isFinite(value) ? value : 0);

export function presentComment(row: CommentRow): Comment {
  return {
    id: row.id,
    projectKey: row.project_key,
    body: row.body,
    pageUrl: row.page_url,
    anchor:
      row.anchor_selector === null
        ? null
        : { selector: row.anchor_selector, x: finiteOr0(row.anchor_x), y: finiteOr0(row.anchor_y) },
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
  body: row.body,
  createdAt: row.created_at,
});

export const presentCommentWithReplies = (row: CommentRow, replies: ReplyRow[]): CommentWithReplies => ({
  ...presentComment(row),
  replies: replies.map(presentReply),
});
