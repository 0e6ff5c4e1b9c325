import {
  CONTROL_CHARACTER_PATTERNS,
  type ErrorCode,
  errorCatalog,
  type FieldError,
  NAME_PATTERN,
  Problem,
  problemType,
} from '@svc/contract';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '../errors.js';
import { NAME_REFUSAL } from './validation.js';

const PROBLEM_CONTENT_TYPE = 'application/problem+json';

export function sendProblem(reply: FastifyReply, code: ErrorCode, detail: string, errors?: FieldError[]): FastifyReply {
  const { status, title } = errorCatalog[code];
  const body: Problem = { type: problemType(code), title, status, detail, code };
  if (errors && errors.length > 0) body.errors = errors;
  return reply.code(status).type(PROBLEM_CONTENT_TYPE).send(body);
}

interface AjvError {
  instancePath: string;
  keyword: string;
  message?: string;
  params: Record<string, unknown>;
}

function messageFor(error: AjvError): string {
  if (error.keyword === 'required') return 'is required';
  if (error.keyword === 'pattern' && error.params.pattern === NAME_PATTERN) return NAME_REFUSAL;
  if (error.keyword === 'pattern' && CONTROL_CHARACTER_PATTERNS.includes(String(error.params.pattern))) {
    return 'must not contain control characters';
  }
  return error.message ?? 'is not valid';
}

/** Turns schema errors into `errors[]` whose paths are JSON pointers into the request part. */
export function fieldErrors(validation: AjvError[]): FieldError[] {
  return validation.map((error) => {
    let path = error.instancePath;
    if (error.keyword === 'required') path += `/${String(error.params.missingProperty)}`;
    if (error.keyword === 'additionalProperties') path += `/${String(error.params.additionalProperty)}`;
    return { path, message: messageFor(error), rule: error.keyword };
  });
}

/** Fastify's own errors for unreadable requests, mapped onto our codes. */
const fastifyCodes: Record<string, ErrorCode> = {
  FST_ERR_BAD_URL: 'validation_failed',
  FST_ERR_MAX_PARAM_LENGTH: 'uri_too_long',
  FST_ERR_CTP_BODY_TOO_LARGE: 'payload_too_large',
  FST_ERR_CTP_INVALID_MEDIA_TYPE: 'unsupported_media_type',
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: 'validation_failed',
  FST_ERR_CTP_EMPTY_JSON_BODY: 'validation_failed',
  FST_ERR_CTP_INVALID_JSON_BODY: 'validation_failed',
};

function codeForStatus(status: number): ErrorCode {
  for (const [code, entry] of Object.entries(errorCatalog)) {
    if (entry.status === status) return code as ErrorCode;
  }
  return status >= 500 ? 'internal_error' : 'validation_failed';
}

/** Errors Fastify raises before routing (a path it cannot decode), as problem details. */
export function sendFrameworkError(reply: FastifyReply, error: FastifyError): FastifyReply {
  const code = fastifyCodes[error.code] ?? 'validation_failed';
  const detail =
    code === 'uri_too_long'
      ? 'A path parameter is longer than any id or key of this API.'
      : 'The request path is not validly percent-encoded.';
  return sendProblem(reply, code, detail);
}

/** Why a body could not be read, in words: the limit that refused it, what is wrong with it. */
function unreadableBody(error: FastifyError, request: FastifyRequest): string {
  if (error.code === 'FST_ERR_CTP_BODY_TOO_LARGE') {
    const limit = request.routeOptions.bodyLimit ?? 0;
    return `The request body is larger than this route's limit of ${Math.round(limit / 1024)} KiB.`;
  }
  if (error.code === 'FST_ERR_CTP_INVALID_CONTENT_LENGTH') {
    return 'The request body is not as long as its Content-Length header says.';
  }
  return error.code === 'FST_ERR_CTP_INVALID_JSON_BODY' || error instanceof SyntaxError
    ? 'The request body is not valid JSON.'
    : error.message;
}

/**
 * A request Node could not read as HTTP (headers over its limit, a URL too long, a malformed
 * request line), answered as problem details too, then the connection closed.
 */
export function clientErrorResponse(error: Error & { code?: string }): string {
  const code: ErrorCode = error.code === 'HPE_HEADER_OVERFLOW' ? 'headers_too_large' : 'validation_failed';
  const { status, title } = errorCatalog[code];
  const detail =
    code === 'headers_too_large'
      ? 'The request line and headers are larger than this server reads (16 KiB): a URL or a header is too long.'
      : 'The request could not be read as HTTP.';
  const body = JSON.stringify({ type: problemType(code), title, status, detail, code });
  return `HTTP/1.1 ${status} ${title}\r\nContent-Type: ${PROBLEM_CONTENT_TYPE}\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`;
}

/** The one error handler: every failure leaves as RFC 9457 problem details. */
export function registerProblemHandlers(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
    if (error instanceof AppError) {
      if (error.headers) reply.headers(error.headers);
      return sendProblem(reply, error.code, error.message, error.errors);
    }
    if (error.validation) {
      const errors = fieldErrors(error.validation as AjvError[]);
      const where = error.validationContext ?? 'request';
      const detail = errors.map((e) => `${where}${e.path} ${e.message}`).join('; ');
      return sendProblem(reply, 'validation_failed', detail, errors);
    }
    const mapped = error.code ? fastifyCodes[error.code] : undefined;
    if (mapped || error instanceof SyntaxError) {
      return sendProblem(reply, mapped ?? 'validation_failed', unreadableBody(error, request));
    }
    if (error.statusCode && error.statusCode >= 400 && error.statusCode < 500) {
      const code = codeForStatus(error.statusCode);
      return sendProblem(reply, code, error.message);
    }
    request.log.error({ err: error, reqId: request.id }, 'unhandled error');
    return sendProblem(reply, 'internal_error', `Something went wrong; quote request id ${request.id}.`);
  });

  app.setNotFoundHandler((request, reply) =>
    sendProblem(reply, 'not_found', `No route for ${request.method} ${request.url.split('?')[0]}.`),
  );
}

/** A problem answer as a route declares it: served, and documented, as application/problem+json. */
const problemContent = {
  description: 'A problem document (RFC 9457) with a stable `code`',
  content: { [PROBLEM_CONTENT_TYPE]: { schema: Problem } },
};

/** Response schemas for the error statuses a route can answer with, for OpenAPI and serialization. */
export function problemResponses(...statuses: number[]): Record<number, typeof problemContent> {
  const responses: Record<number, typeof problemContent> = {};
  for (const status of [400, 401, ...statuses]) responses[status] = problemContent;
  return responses;
}
