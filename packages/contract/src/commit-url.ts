/**
 * The web link of a commit, for repositories on forges whose commit pages we know.
 * Anything else gets no link rather than a guess that 404s.
 */
export function deriveCommitUrl(repoUrl: string | null, sha: string): string | null {
  if (!repoUrl) return null;
  let url: URL;
  try {
    url = new URL(repoUrl);
  } catch {
    return null;
  }
  const base = `${url.origin}${url.pathname.replace(/\/+$/, '').replace(/\.git$/, '')}`;
  const host = url.hostname.toLowerCase();
  if (host === 'github.com' || host.startsWith('github.')) return `${base}/commit/${sha}`;
  if (host === 'gitlab.com' || host.includes('gitlab')) return `${base}/-/commit/${sha}`;
  if (host === 'bitbucket.org') return `${base}/commits/${sha}`;
  if (host === 'codeberg.org' || host.includes('gitea') || host.includes('forgejo')) return `${base}/commit/${sha}`;
  return null;
}
