import Ajv from 'ajv';
import addFormats from 'ajv-formats';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AppError, invalidField } from '../errors.js';

/**
 * Two validators: query strings and params arrive as text and are coerced ("20" → 20);
 * JSON bodies are not, so `{"ok": "true"}` is refused instead of silently read as true.
 */
export function registerValidators(app: FastifyInstance): void {
  const common = { useDefaults: true, removeAdditional: true as const, allErrors: false, strict: false };
  const bodyAjv = addFormats.default(new Ajv.default({ ...common, coerceTypes: false }), ['email', 'date-time', 'uri']);
  const urlAjv = addFormats.default(new Ajv.default({ ...common, coerceTypes: 'array' }), [
    'email',
    'date-time',
    'uri',
  ]);
  app.setValidatorCompiler(({ schema, httpPart }) =>
    httpPart === 'body' ? bodyAjv.compile(schema) : urlAjv.compile(schema),
  );
  app.addHook('onRoute', (route) => {
    // Bodies are read as sent: one labelled with a content coding (gzip…) is refused rather
    // than parsed as if it were plain.
    if ([route.method].flat().some((method) => method !== 'GET' && method !== 'HEAD' && method !== 'OPTIONS')) {
      route.preParsing = [refuseContentCoding, ...[route.preParsing ?? []].flat()] as typeof route.preParsing;
    }
    // A route with a body schema called with no body validates as `{}`, so the answer
    // names the missing fields instead of "body must be object". Only such routes pay for it.
    if (!route.schema?.body) return;
    const defaultBody = async (request: FastifyRequest) => {
      if (request.body === undefined) request.body = {};
    };
    route.preValidation = [defaultBody, ...[route.preValidation ?? []].flat()];
  });
}

async function refuseContentCoding(request: FastifyRequest) {
  const coding = request.headers['content-encoding']?.trim().toLowerCase();
  if (coding && coding !== 'identity') {
    throw new AppError(
      'unsupported_media_type',
      `Content-Encoding ${coding} is not supported: send the body uncompressed.`,
    );
  }
}

/** Text fields are trimmed; one that is blank once trimmed is refused with its path. */
export function requireText(value: string, path: string): string {
  const text = value.trim();
  if (text.length === 0) throw invalidField(path, 'must not be blank');
  return text;
}
