import { type ErrorCode, errorCatalog, type FieldError } from '@svc/contract';

/** An error the API answers with on purpose: its code picks the status and title. */
export class AppError extends Error {
  readonly status: number;
  constructor(
    readonly code: ErrorCode,
    detail: string,
    readonly errors?: FieldError[],
    readonly headers?: Record<string, string>,
  ) {
    super(detail);
    this.name = 'AppError';
    this.status = errorCatalog[code].status;
  }
}

export const unauthenticated = (detail = 'Send a valid token as "Authorization: Bearer <token>".') =>
  new AppError('unauthenticated', detail);

export const forbidden = (detail: string) => new AppError('forbidden', detail);

export const notFound = (what: string) => new AppError('not_found', `${what} not found.`);

export const conflict = (detail: string) => new AppError('conflict', detail);

export const invalidState = (detail: string) => new AppError('invalid_state', detail);

/** A 400 naming the offending value by JSON pointer. */
export const invalidField = (path: string, message: string) =>
  new AppError('validation_failed', `${path} ${message}`, [{ path, message }]);

/** A 429 with Retry-After; `limit`, the limit in words (`at most 60 uploads a minute per person`). */
export const rateLimited = (retryAfterSeconds: number, limit?: string) =>
  new AppError(
    'rate_limited',
    limit
      ? `Too many requests: ${limit}; retry in ${retryAfterSeconds} s.`
      : `Too many requests; retry in ${retryAfterSeconds} s.`,
    undefined,
    { 'retry-after': String(retryAfterSeconds) },
  );

/** A 413: the upload would take the workspace past its storage quota (see modules/storage). */
export const storageQuotaExceeded = (detail: string) => new AppError('storage_quota_exceeded', detail);
