// What an endpoint's value in the API table holds, and the helper each part of the table declares
// its endpoints with (it keeps each value's literal type, which the clients' and the server's
// types are derived from). Below every part of the table (`api/*.ts`), which `api.ts` assembles.
import type { TSchema } from 'typebox';

/** The server's settings an endpoint's description states (its configuration has them). */
export interface DescribedSettings {
  auditRetentionDays: number;
}

/** What an endpoint is, besides its method and path. */
export interface EndpointSpec {
  /** What it does, in one line: the API reference's summary, and the start of an agent's tool text. */
  summary: string;
  /** What a caller needs to know besides; a function of the server's settings where it states one. */
  description?: string | ((server: DescribedSettings) => string);
  params?: TSchema;
  query?: TSchema;
  body?: TSchema;
  /** What a success answers, by status. */
  answers: Readonly<Record<number, TSchema>>;
  /** The problems it may answer with besides 400 (input refused) and 401 (no valid token). */
  problems: readonly number[];
  /** Reachable without a token. */
  public?: boolean;
  /** Answered with a weak ETag, and 304 when If-None-Match holds it. */
  conditional?: boolean;
  /** Bytes rather than JSON: the body (an image) or the answer (a file). */
  raw?: 'body' | 'answer';
  /** The content types a raw body is taken in. */
  bodyTypes?: readonly string[];
  /** The content types of the answers that are not JSON, by status. */
  types?: Readonly<Record<number, readonly string[]>>;
}

export const endpoint = <const S extends EndpointSpec>(spec: S): S => spec;
