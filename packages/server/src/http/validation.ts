import { isNameText } from '@svc/contract';
import Ajv from 'ajv';
import addFormats from 'ajv-formats';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import secureJson from 'secure-json-parse';
import type { TSchema } from 'typebox';
import { AppError, invalidField } from '../errors.js';

/**
 * Two validators: query strings and params arrive as text and are coerced ("20" → 20);
 * JSON bodies are not, so `{"ok": "true"}` is refused instead of silently read as true.
 * One pair per process, whatever the apps it builds: Ajv keeps what it compiled by schema, and
 * the routes' schemas are the contract's, so a second app (a test's) compiles nothing again.
 */
const common = { useDefaults: true, removeAdditional: true as const, allErrors: false, strict: false };
const bodyAjv = addFormats.default(new Ajv.default({ ...common, coerceTypes: false }), [
  'email',
  'date',
  'date-time',
  'uri',
]);
const urlAjv = addFormats.default(new Ajv.default({ ...common, coerceTypes: 'array' }), [
  'email',
  'date',
  'date-time',
  'uri',
]);

/** A validator of a JSON value as a request body is validated (no coercion), for data that arrives another way (an import). */
export const compileBodyValidator = (schema: object) => bodyAjv.compile(schema);

export function registerValidators(app: FastifyInstance): void {
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

const strictUtf8 = new TextDecoder('utf-8', { fatal: true });
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** The JSON pointer of the first string in `value` that `bad` finds fault with, or null. */
function findString(value: unknown, bad: (text: string) => boolean, path = ''): string | null {
  if (typeof value === 'string') return bad(value) ? path : null;
  if (value === null || typeof value !== 'object') return null;
  for (const [key, item] of Object.entries(value)) {
    const found = findString(item, bad, `${path}/${key.replaceAll('~', '~0').replaceAll('/', '~1')}`);
    if (found !== null) return found;
  }
  return null;
}

const unreadableJson = (detail: string) => new AppError('validation_failed', detail);

/**
 * JSON bodies must be valid Unicode: bytes that are not UTF-8, and lone surrogates written as
 * escapes (`"\ud800"`), are refused naming the field, rather than stored as U+FFFD or sent to
 * a database that cannot hold them. Keys `__proto__` and `constructor.prototype` are refused
 * as Fastify's own parser does, but saying so.
 */
export function registerJsonParser(app: FastifyInstance): void {
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (_request, body, done) => {
    const bytes = body as Buffer;
    let text: string;
    try {
      text = strictUtf8.decode(bytes);
    } catch {
      // Read as best it can be, to say which field holds the bytes.
      let where = '';
      try {
        where = findString(JSON.parse(bytes.toString('utf8')), (t) => t.includes('\ufffd')) ?? '';
      } catch {
        // Not JSON either: the body as a whole.
      }
      done(
        where ? invalidField(where, 'is not valid UTF-8') : unreadableJson('The request body is not valid UTF-8.'),
        undefined,
      );
      return;
    }
    if (text.trim() === '') return done(unreadableJson('The request body is empty, but says it is JSON.'), undefined);
    let parsed: unknown;
    try {
      parsed = secureJson.parse(text, undefined, { protoAction: 'error', constructorAction: 'error' });
    } catch (error) {
      const forbidden = /prototype|constructor/i.test((error as Error).message);
      return done(
        unreadableJson(
          forbidden
            ? 'The request body has a "__proto__" or "constructor.prototype" key, which this API refuses.'
            : 'The request body is not valid JSON.',
        ),
        undefined,
      );
    }
    const lone = findString(parsed, (t) => LONE_SURROGATE.test(t));
    if (lone !== null) return done(invalidField(lone, 'holds a lone surrogate: it is not valid Unicode'), undefined);
    done(null, parsed);
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

export const NAME_REFUSAL = 'must not contain control characters or bidirectional formatting characters';

/**
 * A name, trimmed: blank, or holding what the contract's name rule refuses, is refused with its
 * path. The schemas check the same rule at the door; this holds it for names that arrive
 * another way (the admin command).
 */
export function requireName(value: string, path: string): string {
  const name = requireText(value, path);
  if (!isNameText(name)) throw invalidField(path, NAME_REFUSAL);
  return name;
}

/**
 * A value as the server stores it (a URL normalised: its host in Punycode, its path
 * percent-encoded, which can make it several times as long as it was sent), refused naming
 * `path` when it is longer than the field's schema takes: what is stored is what an export holds, and
 * an import checks it against the same limit.
 */
export function requireStoredLength(value: string, field: TSchema, path: string): string {
  const { maxLength } = field as { maxLength?: number };
  if (maxLength !== undefined && value.length > maxLength) {
    throw invalidField(
      path,
      `is ${value.length.toLocaleString('en')} characters once normalised (its address encoded as stored); at most ${maxLength.toLocaleString('en')}`,
    );
  }
  return value;
}
