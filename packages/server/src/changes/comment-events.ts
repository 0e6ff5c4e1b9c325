import type { Db } from '../db/schema.js';

/** What a comment action tells the rest of the product, raised inside the action's transaction. */
export type CommentEvent =
  | {
      type: 'CommentApplied';
      workspaceId: string;
      commentId: string;
      actorId: string;
      authorId: string;
      commitSha: string | null;
      commitUrl: string | null;
      excerpt: string;
    }
  | {
      type: 'CommentReopened';
      workspaceId: string;
      commentId: string;
      actorId: string;
      appliedById: string | null;
      /** Who is on it: told too, when not the one who applied it. */
      assigneeId: string | null;
      excerpt: string;
    }
  | {
      type: 'CommentAssigned';
      workspaceId: string;
      commentId: string;
      actorId: string;
      assigneeId: string;
      excerpt: string;
    }
  | {
      type: 'CommentMentioned';
      workspaceId: string;
      commentId: string;
      actorId: string;
      /** Who the comment's text or the reply mentions. */
      mentionedIds: string[];
      excerpt: string;
    }
  | {
      type: 'CommentCreated';
      workspaceId: string;
      commentId: string;
      projectId: string;
      actorId: string;
      /** Who its text mentions: they hear of it once, as a mention. */
      mentionedIds: string[];
      excerpt: string;
    }
  | {
      type: 'CommentDeleted';
      workspaceId: string;
      commentId: string;
      actorId: string;
    }
  | {
      type: 'ReplyAdded';
      workspaceId: string;
      commentId: string;
      actorId: string;
      /** The comment's author; null when the reply mentions them (they hear of it as a mention). */
      authorId: string | null;
      excerpt: string;
    };

/**
 * Receives comment events within the transaction that caused them, so a listener's
 * writes commit or roll back with the action.
 */
export interface CommentEventSink {
  raise(trx: Db, event: CommentEvent): Promise<void>;
  /** A comment of the project was created, changed or deleted: whoever waits for its changes hears of it once `trx` commits. */
  changed(trx: Db, where: { workspaceId: string; projectId: string }): Promise<void>;
}
