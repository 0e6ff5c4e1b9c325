import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, test } from 'node:test';
import type { ExitError } from '../src/errors.js';
import { findContained, resolveCommit } from '../src/git.js';
import { Repo, tempDir } from './helpers.js';

/**
 * main:   root … old10 ─ m1 ─ m2 ──────────────────────── merge ─ m3 … m12 (deployed)
 *                  └ early ─ late ─ later1 … later6 ┘   (late and the laters back-dated 3 years)
 * side:   m2 ─ unmerged
 * `early` is reachable from the deployed commit only through `late` and six more commits,
 * whose dates are years older: git's date-limited walk gives up a few commits (its "slop")
 * after the last one it still had to show, long before it gets there — with `m1` and
 * `unmerged` as candidates too, which keep the walk going a little longer (two back-dated
 * commits are not enough to fool that walk; six are).
 */
function backdatedHistory() {
  const repo = Repo.init();
  repo.commit('root');
  for (let i = 1; i <= 10; i += 1) repo.commit(`old${i}`);
  const m1 = repo.commit('m1');
  const m2 = repo.commit('m2');
  repo.git(['checkout', '-q', '-b', 'topic']);
  const early = repo.commit('early');
  const late = repo.commit('late', { backdateDays: 3 * 365 });
  for (let i = 1; i <= 6; i += 1) repo.commit(`later${i}`);
  repo.git(['checkout', '-q', '-b', 'side', m2]);
  const unmerged = repo.commit('unmerged');
  repo.git(['checkout', '-q', 'main']);
  repo.merge('topic');
  let deployed = '';
  for (let i = 3; i <= 12; i += 1) deployed = repo.commit(`m${i}`);
  return { repo, m1, m2, early, late, unmerged, deployed };
}

describe('ancestry of pending commits', () => {
  test('a merged commit reached only through back-dated commits is contained, though git’s date-limited walk misses it', async () => {
    const h = backdatedHistory();
    const candidates = [h.early, h.m1, h.unmerged];
    // The trap is real for exactly the walk findContained makes (same candidates, no
    // commit-graph): it lists `early` as not reached. Only the confirmation pass saves it.
    const listed = execRevList(h.repo, candidates, h.deployed);
    assert.ok(listed.includes(h.early), 'fixture: the date-limited walk should misclassify `early`');

    const result = await findContained(h.repo.dir, h.deployed, candidates);
    assert.deepEqual(
      [...result.contained.keys()].sort(),
      [h.early, h.m1].sort(),
      'early and m1 are ancestors; unmerged is not',
    );
    assert.deepEqual(result.unknown, []);
  });

  test('with a commit-graph the same history gives the same answer', async () => {
    const h = backdatedHistory();
    h.repo.git(['commit-graph', 'write', '--reachable']);
    const later = h.repo.commit('after the graph was written');
    const result = await findContained(h.repo.dir, later, [h.early, h.late, h.m1, h.unmerged, h.deployed]);
    assert.deepEqual([...result.contained.keys()].sort(), [h.early, h.late, h.m1, h.deployed].sort());
  });

  test('the deployed commit itself, abbreviated SHAs and an older deployed rev', async () => {
    const h = backdatedHistory();
    const result = await findContained(h.repo.dir, h.m2, [h.m2, h.m1.slice(0, 9), h.early, h.deployed]);
    assert.deepEqual([...result.contained.keys()].sort(), [h.m2, h.m1.slice(0, 9)].sort());
    assert.equal(result.contained.get(h.m1.slice(0, 9)), h.m1, 'abbreviations resolve to the full SHA');
  });

  test('unknown SHAs and non-commits are not contained, and are reported as unknown', async () => {
    const h = backdatedHistory();
    const tree = h.repo.git(['rev-parse', `${h.deployed}^{tree}`]);
    const missing = 'deadbeef'.repeat(5);
    const result = await findContained(h.repo.dir, h.deployed, [missing, tree, h.m1]);
    assert.deepEqual([...result.contained.keys()], [h.m1]);
    assert.deepEqual(result.unknown.sort(), [missing, tree].sort());
    assert.equal(result.shallow, false);
  });

  test('in a shallow clone, commits beyond its depth are unknown and the clone says it is shallow', async () => {
    const h = backdatedHistory();
    const clone = tempDir();
    h.repo.git(['clone', '-q', '--depth', '3', `file://${h.repo.dir}`, clone]);
    const recent = h.repo.git(['rev-parse', 'HEAD~1']);
    const result = await findContained(clone, h.deployed, [recent, h.m1, h.early]);
    assert.deepEqual([...result.contained.keys()], [recent]);
    assert.deepEqual(result.unknown.sort(), [h.m1, h.early].sort());
    assert.equal(result.shallow, true);
  });

  test('a commit-graph git cannot use (empty, or a split chain with a layer missing) does not make the walk trusted', async () => {
    for (const breakGraph of [
      (repo: Repo) => fs.writeFileSync(path.join(repo.dir, '.git/objects/info/commit-graph'), ''),
      (repo: Repo) => {
        const dir = path.join(repo.dir, '.git/objects/info/commit-graphs');
        fs.mkdirSync(dir, { recursive: true });
        fs.writeFileSync(path.join(dir, 'commit-graph-chain'), `${'0123456789'.repeat(4)}\n`);
      },
    ]) {
      const h = backdatedHistory();
      breakGraph(h.repo);
      const result = await findContained(h.repo.dir, h.deployed, [h.early, h.m1, h.unmerged]);
      assert.deepEqual([...result.contained.keys()].sort(), [h.early, h.m1].sort());
      assert.deepEqual(result.undecided, []);
    }
  });

  test('a valid commit-graph that git ignores (a graft in effect) does not make the walk trusted', async () => {
    for (const graft of [
      // The deprecated grafts file, and the same through GIT_GRAFT_FILE's default place.
      (repo: Repo) =>
        fs.writeFileSync(
          path.join(repo.dir, '.git/info/grafts'),
          `${repo.git(['rev-parse', 'main~20'])} ${repo.git(['rev-parse', 'main~22'])}\n`,
        ),
    ]) {
      const h = backdatedHistory();
      h.repo.git(['commit-graph', 'write', '--reachable']);
      graft(h.repo);
      const result = await findContained(h.repo.dir, h.deployed, [h.early, h.m1, h.unmerged]);
      assert.deepEqual([...result.contained.keys()].sort(), [h.early, h.m1].sort());
    }
  });

  test('a shallow clone whose boundary cuts the path: the commit it holds is undecided, never "not contained"', async () => {
    // topic branches off early and is merged far back; the clone holds topic's fix (through its
    // branch) but not the merge, which lies below the boundary of main's recent history.
    const repo = Repo.init();
    repo.commit('root');
    repo.git(['checkout', '-q', '-b', 'topic']);
    const fix = repo.commit('fix on topic');
    repo.git(['checkout', '-q', 'main']);
    repo.commit('main moves on');
    repo.merge('topic');
    let deployed = '';
    for (let i = 0; i < 20; i += 1) deployed = repo.commit(`main ${i}`);
    repo.git(['tag', '-a', 'v1', '-m', 'release', deployed]);
    const clone = tempDir();
    repo.git(['clone', '-q', '--depth', '5', '--no-single-branch', `file://${repo.dir}`, clone]);
    const inClone = (sha: string) =>
      spawnSync('git', ['cat-file', '-e', `${sha}^{commit}`], { cwd: clone }).status === 0;
    assert.ok(inClone(fix), 'fixture: the clone holds the fix');
    const result = await findContained(clone, deployed, [fix, deployed]);
    assert.deepEqual([...result.contained.keys()], [deployed]);
    assert.deepEqual(result.undecided, [fix]);
    assert.equal(result.shallow, true);
  });

  test('the SHA of an annotated tag counts as its commit', async () => {
    const h = backdatedHistory();
    h.repo.git(['tag', '-a', 'fixed', '-m', 'the fix', h.m1]);
    const tag = h.repo.git(['rev-parse', 'fixed']);
    assert.notEqual(tag, h.m1);
    const result = await findContained(h.repo.dir, h.deployed, [tag, tag.slice(0, 9)]);
    assert.equal(result.contained.get(tag), h.m1);
    assert.equal(result.contained.get(tag.slice(0, 9)), h.m1);
  });

  test('a prefix two commits share is ambiguous, never guessed; one a commit shares with a blob is that commit', async () => {
    const { dir, head, sharedByCommits, sharedWithBlob } = collidingHistory();
    const result = await findContained(dir, head, [sharedByCommits.prefix, sharedWithBlob.prefix]);
    assert.deepEqual(result.ambiguous.get(sharedByCommits.prefix), sharedByCommits.commits);
    assert.equal(result.contained.has(sharedByCommits.prefix), false);
    assert.equal(result.contained.get(sharedWithBlob.prefix), sharedWithBlob.commit);
    assert.deepEqual(result.unknown, []);
    // The same prefix as the deployed rev: exit 2 naming both commits, not "not a commit".
    await assert.rejects(resolveCommit(dir, sharedByCommits.prefix), (error: ExitError) => {
      assert.equal(error.exitCode, 2);
      assert.match(error.message, /is ambiguous: it is the start of 2 commits/);
      for (const commit of sharedByCommits.commits) assert.ok(error.message.includes(commit));
      return true;
    });
    assert.equal(await resolveCommit(dir, sharedWithBlob.prefix), sharedWithBlob.commit);
  });

  test('no candidates: nothing to walk', async () => {
    const h = backdatedHistory();
    const result = await findContained(h.repo.dir, h.deployed, []);
    assert.equal(result.contained.size, 0);
    assert.deepEqual(result.unknown, []);
  });
});

function execRevList(repo: Repo, candidates: string[], deployed: string): string[] {
  return repo.git(['-c', 'core.commitGraph=false', 'rev-list', ...candidates, `^${deployed}`]).split('\n');
}

/**
 * 60,000 commits (with a blob each) made by fast-import, the same objects every time: among
 * them are 7-character prefixes shared by two commits, and by a commit and a blob.
 */
function collidingHistory() {
  const repo = Repo.init();
  const parts: string[] = [];
  for (let i = 0; i < 60_000; i += 1) {
    const content = `content ${i}\n`;
    const message = `c${i}\n`;
    parts.push(`blob\nmark :${2 * i + 1}\ndata ${content.length}\n${content}\n`);
    parts.push(
      `commit refs/heads/main\nmark :${2 * i + 2}\ncommitter Dev <dev@example.test> ${1_700_000_000 + i} +0000\ndata ${message.length}\n${message}`,
    );
    if (i > 0) parts.push(`from :${2 * i}\n`);
    parts.push(`M 100644 :${2 * i + 1} f\n\n`);
  }
  execFileSync('git', ['fast-import', '--quiet'], { cwd: repo.dir, input: parts.join('') });
  const objects = execFileSync(
    'git',
    ['cat-file', '--batch-all-objects', '--batch-check=%(objectname) %(objecttype)'],
    { cwd: repo.dir, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 },
  );
  const byPrefix = new Map<string, [string, string][]>();
  for (const line of objects.trim().split('\n')) {
    const [sha = '', type = ''] = line.split(' ');
    const group = byPrefix.get(sha.slice(0, 7)) ?? [];
    group.push([sha, type]);
    byPrefix.set(sha.slice(0, 7), group);
  }
  const commitsOf = (group: [string, string][]) => group.filter(([, t]) => t === 'commit').map(([sha]) => sha);
  const groups = [...byPrefix.entries()].sort(([a], [b]) => a.localeCompare(b));
  const twoCommits = groups.find(([, g]) => commitsOf(g).length === 2 && g.length === 2);
  const withBlob = groups.find(([, g]) => commitsOf(g).length === 1 && g.some(([, t]) => t === 'blob'));
  if (!twoCommits || !withBlob) throw new Error('fixture: no colliding prefixes among the generated objects');
  return {
    dir: repo.dir,
    head: repo.git(['rev-parse', 'HEAD']),
    sharedByCommits: { prefix: twoCommits[0], commits: commitsOf(twoCommits[1]).sort() },
    sharedWithBlob: { prefix: withBlob[0], commit: commitsOf(withBlob[1])[0] as string },
  };
}
