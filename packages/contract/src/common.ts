import { type TSchema, Type } from 'typebox';

/**
 * What text the API accepts, decided once for every request field (bodies, path ids and
 * query strings alike). A one-line value (a name, key, id, URL, token, e-mail) holds no
 * control character at all: C0 and DEL are refused. A text that may span lines (a comment,
 * a reply, a note) may also hold tab, line feed and carriage return. NUL in particular
 * never reaches a database (PostgreSQL cannot store it in text).
 */
export const LINE_PATTERN = '^[^\\u0000-\\u001f\\u007f]*$';
export const MULTILINE_PATTERN = '^[^\\u0000-\\u0008\\u000b\\u000c\\u000e-\\u001f\\u007f]*$';
export const CONTROL_CHARACTER_PATTERNS: readonly string[] = [LINE_PATTERN, MULTILINE_PATTERN];

interface StringOptions {
  minLength?: number;
  maxLength?: number;
  format?: string;
  description?: string;
  default?: string;
}

/** A one-line request string: no control characters. */
export const Line = (options: StringOptions = {}) => Type.String({ ...options, pattern: LINE_PATTERN });

/** A request string that may span lines: tab, line feed and carriage return allowed. */
export const Multiline = (options: StringOptions = {}) => Type.String({ ...options, pattern: MULTILINE_PATTERN });

/** Coordinates and offsets in CSS pixels: finite, and far beyond any real page. */
export const MAX_OFFSET = 1_000_000;
export const Offset = (description?: string) =>
  Type.Number({ minimum: -MAX_OFFSET, maximum: MAX_OFFSET, ...(description ? { description } : {}) });

export const Timestamp = Type.String({ format: 'date-time', description: 'ISO 8601 UTC with milliseconds' });

export const PageQuery = {
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 20 })),
  cursor: Type.Optional(Line({ minLength: 1, maxLength: 200, description: 'Opaque; from nextCursor' })),
};

export const Page = <T extends TSchema>(item: T) =>
  Type.Object({
    items: Type.Array(item),
    nextCursor: Type.Union([Type.String(), Type.Null()], {
      description: 'Pass as cursor for the next page; null on the last page',
    }),
  });

export const Nullable = <T extends TSchema>(schema: T, options?: { description: string }) =>
  Type.Union([schema, Type.Null()], options);

/** A trimmed one-line text (a name): the server refuses it when it is empty once trimmed. */
export const Text = (maxLength: number, description?: string) =>
  Line({ minLength: 1, maxLength, ...(description ? { description } : {}) });

/** A trimmed text that may span lines (a comment or reply body). */
export const BodyText = (maxLength: number) => Multiline({ minLength: 1, maxLength });

/** The `{id}` of a path: an opaque id (`ses_…`, `key_…`). */
export const IdParams = Type.Object({ id: Line({ maxLength: 100 }) });
