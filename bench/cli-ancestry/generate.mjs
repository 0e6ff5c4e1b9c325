// Builds a repository shaped like a busy product's: a main line with feature branches merged
// back, some of them back-dated (commits whose dates are years older than their parents',
// as a skewed clock or a rebase with --committer-date-is-author-date leaves them), and some
// never merged. Written with one `git fast-import`, so 20k commits take a second or two.
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';

/**
 * Creates the repository in `dir` and returns `{ deployed, candidates }`: the main tip and
 * `candidateCount` commit SHAs picked across merged, back-dated and unmerged work.
 */
export function generateRepo(dir, { commits = 20_000, candidateCount = 200, seed = 7 } = {}) {
  fs.mkdirSync(dir, { recursive: true });
  git(dir, ['init', '-q', '-b', 'main']);
  let state = seed;
  const random = () => {
    state = (state * 1_103_515_245 + 12_345) % 2 ** 31;
    return state / 2 ** 31;
  };

  const lines = [];
  let mark = 0;
  let time = 1_600_000_000;
  let mainTip = 0;
  const kinds = new Map(); // mark -> 'main' | 'merged' | 'backdated' | 'unmerged'
  const commit = (ref, parents, when, kind) => {
    mark += 1;
    const message = `change ${mark}`;
    lines.push(
      `commit ${ref}`,
      `mark :${mark}`,
      `committer Dev <dev@example.com> ${when} +0000`,
      `data ${Buffer.byteLength(message)}`,
      message,
    );
    if (parents[0]) lines.push(`from :${parents[0]}`);
    for (const parent of parents.slice(1)) lines.push(`merge :${parent}`);
    lines.push(`M 644 inline file-${mark % 50}.txt`, `data ${String(mark).length}`, String(mark), '');
    kinds.set(mark, kind);
    return mark;
  };

  let branchNo = 0;
  while (mark < commits) {
    time += 600;
    mainTip = commit('refs/heads/main', mainTip ? [mainTip] : [], time, 'main');
    if (mark > 50 && random() < 0.08) {
      // A feature branch forked from the current main tip.
      branchNo += 1;
      const length = 3 + Math.floor(random() * 12);
      const fate = random();
      const backdated = fate < 0.3;
      const unmerged = fate > 0.85;
      const ref = unmerged ? `refs/heads/feature-${branchNo}` : 'refs/heads/topic';
      let tip = mainTip;
      let when = time;
      for (let i = 0; i < length; i += 1) {
        // A back-dated branch: its first commits have true dates, the later ones dates years
        // older than their parents', so its early commits are reachable from main only
        // through commits that look older than they are.
        if (backdated && i === Math.floor(length / 2)) when -= 3 * 365 * 86_400;
        when += 60;
        tip = commit(ref, [tip], when, unmerged ? 'unmerged' : backdated ? 'backdated' : 'merged');
      }
      if (!unmerged) {
        // Main moves on a little before the merge.
        for (let i = 0; i < 3; i += 1) {
          time += 600;
          mainTip = commit('refs/heads/main', [mainTip], time, 'main');
        }
        time += 600;
        mainTip = commit('refs/heads/main', [mainTip, tip], time, 'main');
      }
    }
  }
  lines.push('done', '');
  const marksFile = `${dir}/.git/generated-marks`;
  const result = spawnSync('git', ['fast-import', '--quiet', '--done', `--export-marks=${marksFile}`], {
    cwd: dir,
    input: lines.join('\n'),
    maxBuffer: 1 << 30,
  });
  if (result.status !== 0) throw new Error(`git fast-import failed: ${result.stderr}`);
  git(dir, ['checkout', '-q', 'main']);

  const shaOf = new Map();
  for (const line of fs.readFileSync(marksFile, 'utf8').split('\n')) {
    const match = /^:(\d+) ([0-9a-f]{40})$/.exec(line);
    if (match) shaOf.set(Number(match[1]), match[2]);
  }
  if (shaOf.size < mark) throw new Error(`marks export incomplete (${shaOf.size} of ${mark})`);

  // Candidates: mostly recent merged work (what is pending between two deploys), a share of
  // back-dated merged commits, a few on unmerged branches.
  const pick = (kind, count) => {
    const pool = [...kinds].filter(([, k]) => k === kind).map(([m]) => m);
    const chosen = [];
    for (let i = 0; i < count && pool.length; i += 1) {
      chosen.push(pool.splice(pool.length - 1 - Math.floor(random() * Math.min(pool.length, 2_000)), 1)[0]);
    }
    return chosen;
  };
  const unmerged = Math.round(candidateCount * 0.1);
  const backdated = Math.round(candidateCount * 0.2);
  const candidates = [
    ...pick('merged', candidateCount - unmerged - backdated),
    ...pick('backdated', backdated),
    ...pick('unmerged', unmerged),
  ].map((m) => shaOf.get(m));
  return { deployed: shaOf.get(mainTip), candidates, commits: mark };
}

function git(cwd, args) {
  return execFileSync('git', args, { cwd, encoding: 'utf8' });
}
