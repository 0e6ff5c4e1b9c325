/** How many contained commits one build report may list. */
export const MAX_CONTAINED_SHAS = 200;

/** A commit SHA as the API accepts it: 7 to 40 lowercase hex characters. */
export const SHA_PATTERN = /^[0-9a-f]{7,40}$/;

/** Trims and lowercases a SHA; null when the result is not 7-40 hex characters. */
export function normalizeSha(input: string): string | null {
  const sha = input.trim().toLowerCase();
  return SHA_PATTERN.test(sha) ? sha : null;
}

/** Two SHAs name the same commit when one is a prefix of the other. */
export function sameCommit(a: string, b: string): boolean {
  return a.length <= b.length ? b.startsWith(a) : a.startsWith(b);
}

export function shortSha(sha: string): string {
  return sha.slice(0, 7);
}
