import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { findContained } from '../src/git.js';
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
