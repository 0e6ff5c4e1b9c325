import type { Notification } from '@svc/contract';
import type { NotificationRow } from './repo.js';

export function presentNotification(row: NotificationRow): Notification {
  const notification: Notification = {
    id: row.id,
    type: row.type,
    createdAt: row.created_at,
    read: row.read_at !== null,
    excerpt: row.excerpt,
    actor: row.actor_id && row.actor_name ? { id: row.actor_id, name: row.actor_name } : null,
    comment: { id: row.comment_id, projectKey: row.project_key, pageUrl: row.page_url },
  };
  if (row.type === 'CommentCreated') notification.commentCount = row.comment_count;
  if (row.type === 'CommentApplied') {
    notification.commitSha = row.commit_sha;
    notification.commitUrl = row.commit_url;
  }
  return notification;
}
