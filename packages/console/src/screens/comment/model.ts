// The comment as its page gets it, and what the page's parts share to change it.

import type { AnswerOf } from '@svc/contract/endpoints';
import type { api } from '../../api.js';
import type { useAction } from '../../loading.js';

export type Comment = AnswerOf<'GET /api/comments/{id}'>;
export type TimelineEvent = Comment['timeline'][number];
/** Runs a change of the comment: the dialog closes and the comment is read again when it succeeds. */
export type Act = (request: () => ReturnType<typeof api.call>) => Promise<unknown>;
export type Action = ReturnType<typeof useAction>;
export type Context = NonNullable<Comment['context']>;

/** The images people attached to the comment (replyId null) or to one of its replies. */
export const attachedTo = (comment: Comment, replyId: string | null) =>
  comment.images.filter((image) => image.kind === 'attachment' && image.replyId === replyId);
