import { type Static, Type } from 'typebox';
import { Line, Nullable, Page, PageQuery, Timestamp } from './common.js';

export const NotificationType = Type.Union([
  Type.Literal('CommentApplied'),
  Type.Literal('CommentReopened'),
  Type.Literal('ReplyAdded'),
  Type.Literal('CommentAssigned'),
  Type.Literal('CommentMentioned'),
  Type.Literal('CommentCreated'),
]);

export const Notification = Type.Object({
  id: Type.String(),
  type: NotificationType,
  createdAt: Timestamp,
  read: Type.Boolean(),
  excerpt: Type.String({ maxLength: 140 }),
  actor: Nullable(Type.Object({ id: Type.String(), name: Type.String() })),
  comment: Type.Object({ id: Type.String(), projectKey: Type.String(), pageUrl: Type.String() }),
  commitSha: Type.Optional(Nullable(Type.String({ description: 'CommentApplied only' }))),
  commitUrl: Type.Optional(Nullable(Type.String({ description: 'CommentApplied only' }))),
  commentCount: Type.Optional(
    Type.Integer({
      minimum: 1,
      description:
        'CommentCreated only: how many new comments of the project it stands for (they gather in one while it is unread); `comment` is the newest',
    }),
  ),
});
export type Notification = Static<typeof Notification>;

export const ListNotificationsQuery = Type.Object({
  unread: Type.Optional(Type.Boolean({ description: 'true: only unread notifications' })),
  ...PageQuery,
});

export const NotificationPage = Type.Object({
  ...Page(Notification).properties,
  unreadCount: Type.Integer(),
});

export const UnreadCount = Type.Object({ count: Type.Integer() });
export type UnreadCount = Static<typeof UnreadCount>;

export const ReadAllBody = Type.Object(
  {
    upTo: Type.Optional(
      Line({
        maxLength: 100,
        description: 'Mark only this notification and older ones: one raised meanwhile stays unread',
      }),
    ),
  },
  { examples: [{}] },
);

export const ReadAllResult = Type.Object({ marked: Type.Integer(), unreadCount: Type.Integer() });

export const NotificationIdParams = Type.Object({ id: Line({ maxLength: 100 }) });
