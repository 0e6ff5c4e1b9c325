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

/**
 * What a name (a person's, an agent's, a workspace's, a project's, a label's, a sign-in
 * provider's) may not hold, beyond a line's rule: C1 controls (U+0080–U+009F; U+009B opens a
 * terminal's control sequence, and the CLI prints names), and the invisible characters that
 * change the direction text is shown in: the embeddings and overrides (U+202A–U+202E; U+202E
 * makes a label read backwards), the isolates (U+2066–U+2069) and the marks (U+200E, U+200F,
 * U+061C). A name written in a right-to-left script shows rightly without any of them.
 */
const NOT_IN_NAMES = '\\u0000-\\u001f\\u007f-\\u009f\\u061c\\u200e\\u200f\\u202a-\\u202e\\u2066-\\u2069';
export const NAME_PATTERN = `^[^${NOT_IN_NAMES}]*$`;
const notInNames = new RegExp(`[${NOT_IN_NAMES}]`, 'gu');

/** Whether `text` holds nothing a name may not. */
export const isNameText = (text: string): boolean => text.search(notInNames) === -1;

/** `text` without what a name may not hold: for names no person typed here (a provider's claims). */
export const withoutNameControls = (text: string): string => text.replace(notInNames, '');

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

/**
 * A calendar day as written, `YYYY-MM-DD`: no time of day and no time zone, so that it is the
 * same day for everyone who reads it. A day that does not exist (2026-02-30) is refused.
 */
export const dayOf = (description: string) =>
  Type.String({ format: 'date', pattern: '^[0-9]{4}-[0-9]{2}-[0-9]{2}$', description, examples: ['2026-12-03'] });
export const Day = dayOf('A calendar day, YYYY-MM-DD');

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

/**
 * A name: one line without control or direction characters (`NAME_PATTERN`), trimmed; the
 * server refuses it when it is empty once trimmed.
 */
export const Name = (maxLength: number, description?: string) =>
  Type.String({ minLength: 1, maxLength, pattern: NAME_PATTERN, ...(description ? { description } : {}) });

/** A trimmed text that may span lines (a comment or reply body). */
export const BodyText = (maxLength: number) => Multiline({ minLength: 1, maxLength });

/** The `{id}` of a path: an opaque id (`ses_…`, `key_…`). */
export const IdParams = Type.Object({ id: Line({ maxLength: 100 }) });
