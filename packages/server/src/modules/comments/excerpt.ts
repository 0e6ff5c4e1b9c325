import { showMentions } from '@svc/contract';

const EXCERPT_LENGTH = 140;

/** The start of a text for a notification, as people read it, on one line, at most 140 characters. */
export function excerpt(text: string): string {
  const line = showMentions(text).replace(/\s+/g, ' ').trim();
  return line.length <= EXCERPT_LENGTH ? line : `${line.slice(0, EXCERPT_LENGTH - 1)}…`;
}
