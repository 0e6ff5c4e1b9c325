import { type Static, Type } from 'typebox';
import { AUDIT_ACTIONS } from './audit-actions.js';
import { Line, Nullable, PageQuery, Timestamp } from './common.js';

export { AUDIT_ACTIONS, type AuditAction } from './audit-actions.js';

export const AuditEvent = Type.Object({
  id: Type.String(),
  action: Type.Enum(AUDIT_ACTIONS),
  at: Timestamp,
  actor: Type.Union([Type.Object({ id: Type.String(), name: Type.String() }), Type.Null()], {
    description: 'Who did it; for a failed sign-in, the account it was tried on',
  }),
  address: Nullable(
    Type.String({ description: 'The client address the server saw (behind a proxy: SVC_TRUST_PROXY)' }),
  ),
  target: Nullable(
    Type.Object({
      kind: Type.String({ description: 'user, invitation, api_key, project, session' }),
      id: Nullable(Type.String()),
      label: Type.String({ description: 'What it was called then: an e-mail, a key name, a project key' }),
    }),
  ),
  detail: Nullable(Type.String({ description: 'What changed, in words: "member → admin", "access link"' })),
});
export type AuditEvent = Static<typeof AuditEvent>;

export const AuditQuery = Type.Object({
  ...PageQuery,
  action: Type.Optional(Type.Enum(AUDIT_ACTIONS)),
  actor: Type.Optional(Line({ minLength: 1, maxLength: 100, description: 'A user id: what they did' })),
  since: Type.Optional(Type.String({ format: 'date-time', description: 'From this time on' })),
  until: Type.Optional(Type.String({ format: 'date-time', description: 'Before this time' })),
});
export type AuditQuery = Static<typeof AuditQuery>;

export const ExportQuery = Type.Object({
  format: Type.Optional(
    Type.Union([Type.Literal('jsonl'), Type.Literal('csv')], {
      default: 'jsonl',
      description: 'jsonl: everything, one object a line; csv: one row per comment',
    }),
  ),
  project: Type.Optional(
    Line({ minLength: 1, maxLength: 40, description: 'One project (its key); else every project' }),
  ),
});
export type ExportQuery = Static<typeof ExportQuery>;

export const ScreenshotsExportQuery = Type.Object({ project: ExportQuery.properties.project });
export type ScreenshotsExportQuery = Static<typeof ScreenshotsExportQuery>;
