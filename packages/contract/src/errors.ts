import { type Static, Type } from 'typebox';

/**
 * The fixed list of error codes the API answers with. Clients switch on `code`;
 * the HTTP status and title follow from it.
 */
export const errorCatalog = {
  validation_failed: { status: 400, title: 'The request is not valid' },
  unauthenticated: { status: 401, title: 'Authentication required' },
  forbidden: { status: 403, title: 'Not allowed' },
  not_found: { status: 404, title: 'Not found' },
  method_not_allowed: { status: 405, title: 'Method not allowed' },
  conflict: { status: 409, title: 'Conflict with an existing resource' },
  invalid_state: { status: 409, title: 'Not allowed in the current state' },
  payload_too_large: { status: 413, title: 'Request body too large' },
  /** An upload that would take its workspace past its storage quota: too large for the room left. */
  storage_quota_exceeded: { status: 413, title: 'Storage quota reached' },
  uri_too_long: { status: 414, title: 'Request path too long' },
  unsupported_media_type: { status: 415, title: 'Unsupported content type' },
  headers_too_large: { status: 431, title: 'Request headers too large' },
  rate_limited: { status: 429, title: 'Too many requests' },
  internal_error: { status: 500, title: 'Internal server error' },
  unavailable: { status: 503, title: 'Service unavailable' },
} as const;

export type ErrorCode = keyof typeof errorCatalog;

export const problemType = (code: ErrorCode) => `urn:svc:problem:${code}`;

export const FieldError = Type.Object({
  path: Type.String({ description: 'JSON pointer to the offending value, e.g. /containsCommitShas/3' }),
  message: Type.String(),
  rule: Type.Optional(
    Type.String({
      description:
        'The schema rule the value breaks (required, minLength, maxLength, format, pattern…): the apps say it in the reader’s language',
    }),
  ),
});
export type FieldError = Static<typeof FieldError>;

/** RFC 9457 problem details, with a stable machine code. */
export const Problem = Type.Object(
  {
    type: Type.String(),
    title: Type.String(),
    status: Type.Integer(),
    detail: Type.String(),
    code: Type.String(),
    errors: Type.Optional(Type.Array(FieldError)),
  },
  { $id: 'Problem' },
);
export type Problem = Static<typeof Problem>;
