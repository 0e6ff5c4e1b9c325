// Your notifications: the unread count the widget polls, the list, and marking them read (served
// by the server's modules/notifications).
import { Type } from 'typebox';
import {
  ListNotificationsQuery,
  Notification,
  NotificationIdParams,
  NotificationPage,
  ReadAllBody,
  ReadAllResult,
  UnreadCount,
} from '../index.js';
import { endpoint } from './endpoint.js';

export const notificationEndpoints = {
  'GET /api/me/notifications/unread-count': endpoint({
    summary: 'Your unread count, for the badge; poll with If-None-Match',
    description:
      'Answers a strong ETag and Cache-Control: private, no-cache; a matching If-None-Match gets 304. X-Poll-Interval: the seconds to wait before the next poll (raised while the server is busy).',
    answers: { 200: UnreadCount, 304: Type.Null({ description: 'Unchanged since the ETag sent' }) },
    problems: [],
  }),
  'GET /api/me/notifications': endpoint({
    summary: 'Your notifications, newest first',
    query: ListNotificationsQuery,
    answers: { 200: NotificationPage },
    problems: [],
  }),
  'POST /api/me/notifications/read-all': endpoint({
    summary: 'Mark your notifications read, all or up to one of them',
    body: ReadAllBody,
    answers: { 200: ReadAllResult },
    problems: [404],
  }),
  'GET /api/me/notifications/{id}': endpoint({
    summary: 'One of your notifications',
    params: NotificationIdParams,
    answers: { 200: Notification },
    problems: [404],
  }),
  'POST /api/me/notifications/{id}/read': endpoint({
    summary: 'Mark one of your notifications read',
    params: NotificationIdParams,
    answers: { 200: Notification },
    problems: [404],
  }),
} as const;
