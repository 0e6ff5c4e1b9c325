// The audit log's actions, free of schema code so that the console's bundle can list them.

/** What the audit log records, one name per kind of action (see the README's audit log), grouped by subject: the console's filter lists them in this order. */
export const AUDIT_ACTIONS = [
  'signed_in',
  'sign_in_failed',
  'signed_out',
  'session_ended',
  'other_sessions_ended',
  'password_changed',
  'password_reset_created',
  'password_reset_completed',
  'two_factor_enabled',
  'two_factor_disabled',
  'two_factor_reset',
  'recovery_codes_renewed',
  'security_changed',
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
] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];
