import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { SHA_PATTERN } from '@svc/contract/sha';
import { usageError } from './errors.js';

/** A git command that failed; `stderr` is git's own explanation. */
export class GitError extends Error {
  constructor(
    readonly args: string[],
    readonly exitCode: number | null,
    readonly stderr: string,
  ) {
    super(`git ${args.join(' ')} failed (${exitCode}): ${stderr.trim() || 'no message'}`);
  }
}

interface RunOptions {
  input?: string;
  /** Called with each complete line of output; return true to stop git early. */
  onLine?: (line: string) => boolean | undefined;
  /** Variables added to git's environment. */
  env?: Record<string, string>;
}

/** Runs git with an argument array (never a shell) and resolves with its stdout. */
export function git(cwd: string, args: string[], options: RunOptions = {}): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn('git', args, {
      cwd,
      stdio: ['pipe', 'pipe', 'pipe'],
      env: { ...process.env, LC_ALL: 'C', ...options.env },
    });
    const out: string[] = [];
    let err = '';
    let partial = '';
    let stopped = false;
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk: string) => {
      if (!options.onLine) {
        out.push(chunk);
        return;
      }
      if (stopped) return;
      const lines = (partial + chunk).split('\n');
      partial = lines.pop() ?? '';
      for (const line of lines) {
        if (options.onLine(line)) {
          stopped = true;
          child.kill();
          return;
        }
      }
    });
    child.stderr.on('data', (chunk) => {
      err += chunk;
    });
    child.on('error', (error: NodeJS.ErrnoException) => {
      reject(
        error.code === 'ENOENT'
          ? usageError('git is not installed or not on PATH; svc-cli needs it to read commits.')
          : error,
      );
    });
    child.on('close', (code) => {
      if (stopped) return resolve('');
      if (partial && options.onLine) options.onLine(partial);
      if (code === 0) resolve(out.join(''));
      else reject(new GitError(args, code, err));
    });
    child.stdin.on('error', () => {
      // git may exit before reading all of stdin (a failure it reports on close).
    });
    child.stdin.end(options.input ?? '');
  });
}

/**
 * The full SHA of the commit `rev` names. Exit 2 with a readable reason when there is no
 * repository, no commit yet, or `rev` is not a commit.
 */
export async function resolveCommit(cwd: string, rev: string): Promise<string> {
  if (rev.startsWith('-')) throw usageError(`"${rev}" is not a revision.`);
  try {
    return (await git(cwd, ['rev-parse', '--verify', `${rev}^{commit}`])).trim();
  } catch (error) {
    if (!(error instanceof GitError)) throw error;
    if (/ambiguous/i.test(error.stderr)) {
      const names = await commitsNamedBy(cwd, rev);
      throw usageError(
        `"${rev}" is ambiguous: it is the start of ${names.length > 1 ? `${names.length} commits (${names.join(', ')})` : 'several objects'}. Give more of the SHA.`,
      );
    }
  }
  try {
    await git(cwd, ['rev-parse', '--git-dir']);
  } catch {
    throw usageError(`${cwd} is not inside a git repository. Run svc-cli from your project's checkout.`);
  }
  if (rev === 'HEAD') {
    throw usageError('HEAD could not be read: this repository has no commits yet. Commit first, or name a revision.');
  }
  throw usageError(`"${rev}" is not a commit in this repository. Check the revision, or fetch it first (git fetch).`);
}

export interface Ancestry {
  /** Candidate (as given) → full SHA, for candidates that are commits contained in the deployed one. */
  contained: Map<string, string>;
  /** Candidates this clone does not have, or that name no commit. */
  unknown: string[];
  /** Candidates that are the start of several commits: candidate → those commits. Never guessed. */
  ambiguous: Map<string, string[]>;
  /**
   * Candidates the clone has but whose ancestry it cannot decide: in a shallow clone, one the
   * deployed commit does not reach within the history the clone holds may still be contained.
   */
  undecided: string[];
  /** Whether the clone is shallow (unknown candidates may be in the history it lacks). */
  shallow: boolean;
}

/** The commits whose SHA starts with `prefix` (a hex prefix; otherwise none). */
async function commitsNamedBy(cwd: string, prefix: string): Promise<string[]> {
  if (!/^[0-9a-f]{4,40}$/i.test(prefix)) return [];
  const objects = (await git(cwd, ['rev-parse', `--disambiguate=${prefix.toLowerCase()}`]).catch(() => ''))
    .split('\n')
    .filter(Boolean);
  if (objects.length === 0) return [];
  const types = (await git(cwd, ['cat-file', '--batch-check'], { input: `${objects.join('\n')}\n` })).split('\n');
  return objects.filter((_, i) => types[i]?.split(' ')[1] === 'commit').sort();
}

// Replacement refs are a local view of history; the deployed commits are the real ones.
const plainHistory = ['--no-replace-objects', '-c', 'core.commitGraph=true'];

/**
 * Which `candidates` are `deployed` itself or one of its ancestors, in a few git processes
 * whatever their number.
 *
 * 1. `cat-file --batch-check` resolves every candidate at once (abbreviated ones included);
 *    those the clone lacks are unknown, hence not contained.
 * 2. One `rev-list <candidates> ^<deployed>` walk lists the candidates' commits that
 *    `deployed` does not reach. A commit is only ever marked reached by walking down from
 *    `deployed`, so a candidate missing from that list is certainly contained. With generation
 *    numbers (a commit-graph, full history) and `--topo-order` the walk is exact. Without
 *    them git stops the walk by commit dates, so a back-dated commit may be listed although
 *    `deployed` reaches it: those suspects are
 * 3. confirmed by walking everything `deployed` reaches, stopping as soon as all are found.
 *    That costs one pass over the history, and only when some candidate looks uncontained.
 */
export async function findContained(cwd: string, deployed: string, candidates: string[]): Promise<Ancestry> {
  const unique = [...new Set(candidates)];
  const valid = unique.filter((sha) => SHA_PATTERN.test(sha));
  const unknown = unique.filter((sha) => !valid.includes(sha));
  // Independent questions, asked of two git processes at once.
  const [layout, answers] = await Promise.all([
    git(cwd, [
      'rev-parse',
      '--is-shallow-repository',
      '--git-path',
      'objects/info/commit-graph',
      '--git-path',
      'objects/info/commit-graphs/commit-graph-chain',
    ]).then((out) => out.trim().split('\n')),
    // `<sha>^{commit}`: an annotated tag's SHA names its commit, and a prefix that a commit
    // shares with a tree or blob names the commit.
    valid.length === 0
      ? Promise.resolve('')
      : git(cwd, [...plainHistory, 'cat-file', '--batch-check'], {
          input: `${valid.map((sha) => `${sha}^{commit}`).join('\n')}\n`,
        }),
  ]);
  const shallow = layout[0] === 'true';
  const hasGraph = fs.existsSync(pathIn(cwd, layout[1])) || fs.existsSync(pathIn(cwd, layout[2]));

  const commitOf = new Map<string, string>();
  const ambiguous = new Map<string, string[]>();
  const lines = answers.trimEnd().split('\n');
  const missing: string[] = [];
  for (const [i, sha] of valid.entries()) {
    const [full, type] = (lines[i] ?? '').split(' ');
    if (type === 'commit' && full) commitOf.set(sha, full);
    else missing.push(sha);
  }
  // `<prefix>^{commit}` is "missing" when two commits share the prefix: ask once more, plainly.
  if (missing.length > 0) {
    const plain = (
      await git(cwd, [...plainHistory, 'cat-file', '--batch-check'], { input: `${missing.join('\n')}\n` })
    ).split('\n');
    for (const [i, sha] of missing.entries()) {
      const commits = plain[i]?.endsWith(' ambiguous') ? await commitsNamedBy(cwd, sha) : [];
      if (commits.length > 1) ambiguous.set(sha, commits);
      else unknown.push(sha);
    }
  }

  const contained = new Map<string, string>();
  if (commitOf.size === 0) return { contained, unknown, ambiguous, undecided: [], shallow };
  const commits = new Set(commitOf.values());
  const input = `${[...commits].join('\n')}\n^${deployed}\n`;
  const { walk, exact } =
    hasGraph && !shallow
      ? await walkWithGenerations(cwd, input)
      : { walk: await git(cwd, [...plainHistory, 'rev-list', '--stdin'], { input }), exact: false };
  const suspects = new Set<string>();
  for (const line of walk.split('\n')) if (commits.has(line)) suspects.add(line);

  if (!exact && suspects.size > 0) {
    const unconfirmed = new Set(suspects);
    await git(cwd, [...plainHistory, 'rev-list', deployed], {
      onLine: (line) => unconfirmed.delete(line) && unconfirmed.size === 0,
    });
    for (const sha of suspects) if (!unconfirmed.has(sha)) suspects.delete(sha);
  }
  const undecided: string[] = [];
  for (const [candidate, full] of commitOf) {
    if (!suspects.has(full)) contained.set(candidate, full);
    // Not reached within a shallow clone's history: it may be reached below its boundary.
    else if (shallow) undecided.push(candidate);
  }
  return { contained, unknown, ambiguous, undecided, shallow };
}

/**
 * The `--topo-order` walk, and whether git walked it by generation numbers, which makes it
 * exact. Only git knows whether it used the commit-graph: it ignores one it cannot read
 * (empty, truncated, a split chain with a layer missing) and any at all in a repository with
 * grafts or replace refs in effect. Its trace says so: the generation-number walk reports its
 * statistics (category `topo_walk`), the date-limited one does not.
 */
async function walkWithGenerations(cwd: string, input: string): Promise<{ walk: string; exact: boolean }> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-cli-trace-'));
  const trace = path.join(dir, 'events.json');
  try {
    const walk = await git(cwd, [...plainHistory, 'rev-list', '--topo-order', '--stdin'], {
      input,
      env: { GIT_TRACE2_EVENT: trace },
    });
    const events = fs.existsSync(trace) ? fs.readFileSync(trace, 'utf8') : '';
    return { walk, exact: events.includes('"category":"topo_walk"') };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

function pathIn(cwd: string, gitPath: string | undefined): string {
  return gitPath ? path.resolve(cwd, gitPath) : '';
}

/** The web page of a commit on `origin`, when origin is on a forge we know (SSH remotes included). */
export async function originWebUrl(cwd: string): Promise<string | null> {
  let remote: string;
  try {
    remote = (await git(cwd, ['remote', 'get-url', 'origin'])).trim();
  } catch {
    return null;
  }
  const scp = /^[\w.-]+@([\w.-]+):(.+)$/.exec(remote);
  if (scp) return `https://${scp[1]}/${scp[2]}`;
  try {
    const url = new URL(remote);
    if (!['http:', 'https:', 'ssh:', 'git:'].includes(url.protocol)) return null;
    return `https://${url.hostname}${url.pathname}`;
  } catch {
    return null;
  }
}
