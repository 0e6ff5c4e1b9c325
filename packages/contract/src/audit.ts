import { type Static, Type } from 'typebox';
import { Line, Nullable, PageQuery, Timestamp } from './common.js';

/** What the audit log records, one name per kind of action (see the README's audit log). */
export const AUDIT_ACTIONS = [
  'signed_in',
  'sign_in_failed',
  'signed_out',
  'session_ended',
  'other_sessions_ended',
  'password_changed',
  'password_reset_created',
  'password_reset_completed',
  'invitation_created',
  'invitation_withdrawn',
  'invitation_accepted',
  'member_added',
  'role_changed',
  'member_removed',
  'client_link_created',
  'client_link_rotated',
  'client_link_revoked',
  'api_key_created',
  'api_key_revoked',
  'project_created',
  'project_updated',
  'project_deleted',
  'exported',
  'two_factor_enabled',
  'two_factor_disabled',
  'two_factor_reset',
  'recovery_codes_renewed',
  'security_changed',
] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

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
