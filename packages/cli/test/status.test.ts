import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { call } from '../../server/test/helpers.js';
import { type LiveServer, pendingComment, Repo, runCli, startLiveServer, tempDir, withNewProject } from './helpers.js';

async function comment(server: LiveServer, id: string) {
  return (await call(server.app, 'GET', `/api/comments/${id}`, { token: server.admin.token })).body;
}

describe('svc-cli status --deployed', () => {
  let server: LiveServer;
  before(async () => {
    server = await startLiveServer();
  });
  after(async () => {
    await server.close();
  });

  /** A repository configured for a project of its own on `s`. */
  async function repoFor(s: LiveServer = server) {
    const own = await withNewProject(s);
    const repo = Repo.init();
    repo.writeConfig(own);
    return { repo, own };
  }

  test('reports HEAD: merged commits (back-dated ones too) go Live, an unmerged branch stays pending', async () => {
    const { repo, own } = await repoFor();
    repo.commit('root');
    for (let i = 0; i < 8; i += 1) repo.commit(`history ${i}`);
    const fork = repo.commit('fork point');
    repo.git(['checkout', '-q', '-b', 'topic']);
    const early = repo.commit('fix on a branch');
    repo.commit('rebased, back-dated', { backdateDays: 1000 });
    repo.commit('rebased, back-dated too');
    repo.git(['checkout', '-q', '-b', 'unmerged', fork]);
    const unmerged = repo.commit('not merged yet');
    repo.git(['checkout', '-q', 'main']);
    const mainFix = repo.commit('fix on main');
    repo.merge('topic');
    for (let i = 0; i < 8; i += 1) repo.commit(`later ${i}`);
    const head = repo.git(['rev-parse', 'HEAD']);

    const onMain = await pendingComment(own, mainFix);
    const onBranch = await pendingComment(own, early.slice(0, 10));
    const notMerged = await pendingComment(own, unmerged);

    const result = await runCli(['status', '--deployed'], { cwd: repo.dir, env: { SVC_API_KEY: server.apiKey } });
    assert.equal(result.code, 0, result.stderr);
    assert.equal(result.stdout, `Build ${head.slice(0, 7)} reported: 2 comment(s) marked deployed.\n`);
    assert.equal((await comment(server, onMain)).deployedBuildSha, head);
    assert.equal((await comment(server, onBranch)).deployedBuildSha, head, 'abbreviated, back-dated, merged');
    assert.equal((await comment(server, notMerged)).deployedAt, null);

    const again = await runCli(['status', '--deployed'], { cwd: repo.dir, env: { SVC_API_KEY: server.apiKey } });
    assert.equal(again.code, 0);
    assert.equal(again.stdout, `Build ${head.slice(0, 7)} reported: 0 comment(s) marked deployed.\n`);
    assert.match(again.stderr, /already reported/);
  });

  test('an older rev deploys only what it contains; --json reports the ids', async () => {
    const { repo, own } = await repoFor();
    repo.commit('root');
    const first = repo.commit('first fix');
    const second = repo.commit('second fix');
    const older = await pendingComment(own, first);
    const newer = await pendingComment(own, second);

    const result = await runCli(['status', '--deployed', 'HEAD~1', '--json'], {
      cwd: path.join(repo.dir),
      env: { SVC_API_KEY: server.apiKey },
    });
    assert.equal(result.code, 0, result.stderr);
    const report = JSON.parse(result.stdout);
    assert.equal(report.sha, first);
    assert.equal(report.firstSeen, true);
    assert.deepEqual(report.deployedCommentIds, [older]);
    assert.deepEqual(report.unknownCommitShas, []);
    assert.equal((await comment(server, newer)).deployedAt, null);
  });

  test('more than 200 contained: exactly the oldest 200 are sent, with a warning, and --json lists the rest as deferred', async () => {
    const { repo, own } = await repoFor();
    repo.commit('root');
    const shas = repo.commits(Array.from({ length: 230 }, (_, i) => `fix ${i}`));
    assert.equal(shas.length, 230);
    // Pending comments are listed oldest first: applied in commit order, the first 200 are the oldest.
    const ids: string[] = [];
    for (const sha of shas) ids.push(await pendingComment(own, sha));
    const head = repo.commit('release');

    const result = await runCli(['status', '--deployed', '--json'], {
      cwd: repo.dir,
      env: { SVC_API_KEY: server.apiKey },
    });
    assert.equal(result.code, 0, result.stderr);
    assert.match(
      result.stderr,
      /contains 230 pending commits.*oldest 200 were sent.*other 30 go live with the next deploy/,
    );
    const report = JSON.parse(result.stdout);
    assert.equal(report.sha, head);
    assert.deepEqual(report.containsCommitShas, shas.slice(0, 200));
    assert.deepEqual(report.deferredCommitShas, shas.slice(200));
    assert.deepEqual([...report.deployedCommentIds].sort(), ids.slice(0, 200).sort());
    assert.equal((await comment(server, ids[229] as string)).deployedAt, null, 'the newest wait for the next deploy');
    assert.equal((await comment(server, ids[0] as string)).deployedBuildSha, head);
  });

  test('a deployed rev that names an annotated tag reports its commit; a tree is exit 2 and reports nothing', async () => {
    const { repo, own } = await repoFor();
    repo.commit('root');
    const fix = repo.commit('the fix');
    const pending = await pendingComment(own, fix);
    repo.git(['tag', '-a', 'v1.0', '-m', 'Release 1.0'], {
      GIT_COMMITTER_DATE: '1700000000 +0000',
    });
    const tagObject = repo.git(['rev-parse', 'v1.0']);
    assert.notEqual(tagObject, fix, 'fixture: an annotated tag is an object of its own');

    const tagged = await runCli(['status', '--deployed', 'v1.0', '--json'], {
      cwd: repo.dir,
      env: { SVC_API_KEY: server.apiKey },
    });
    assert.equal(tagged.code, 0, tagged.stderr);
    assert.equal(JSON.parse(tagged.stdout).sha, fix, "the build is the tag's commit, not the tag object");
    assert.equal((await comment(server, pending)).deployedBuildSha, fix);

    const tree = repo.git(['rev-parse', 'HEAD^{tree}']);
    const builds = async () =>
      (await call(server.app, 'GET', `/api/projects/${own.project.key}/builds`, { token: server.admin.token })).body
        .items.length;
    const before = await builds();
    for (const rev of [tree, 'HEAD^{tree}']) {
      const refused = await runCli(['status', '--deployed', rev], {
        cwd: repo.dir,
        env: { SVC_API_KEY: server.apiKey },
      });
      assert.equal(refused.code, 2, `${rev}: ${refused.stderr}`);
    }
    assert.equal(await builds(), before);
  });

  test('without --deployed it only shows what the rev contains and reports nothing', async () => {
    const { repo, own } = await repoFor();
    const sha = repo.commit('a fix');
    const id = await pendingComment(own, sha);
    const result = await runCli(['status'], { cwd: repo.dir, env: { SVC_API_KEY: server.apiKey } });
    assert.equal(result.code, 0, result.stderr);
    assert.match(result.stdout, new RegExp(id));
    assert.match(result.stderr, /Nothing was reported/);
    assert.equal((await comment(server, id)).deployedAt, null);
  });

  test('runs from a subdirectory, finding .svc/config.json above it', async () => {
    const { repo, own } = await repoFor();
    const sha = repo.commit('a fix');
    await pendingComment(own, sha);
    const sub = path.join(repo.dir, 'web', 'src');
    fs.mkdirSync(sub, { recursive: true });
    const result = await runCli(['status', '--deployed'], { cwd: sub, env: { SVC_API_KEY: server.apiKey } });
    assert.equal(result.code, 0, result.stderr);
    assert.match(result.stdout, /reported: 1 comment\(s\) marked deployed/);
  });

  test('a shallow clone: commits it lacks are not deployed, with a warning that says how to fetch them', async () => {
    const { repo, own } = await repoFor();
    const old = repo.commit('old fix');
    for (let i = 0; i < 5; i += 1) repo.commit(`work ${i}`);
    const recent = repo.commit('recent fix');
    const oldId = await pendingComment(own, old);
    const recentId = await pendingComment(own, recent);
    const clone = tempDir();
    repo.git(['clone', '-q', '--depth', '1', `file://${repo.dir}`, clone]);
    new Repo(clone).writeConfig(own);

    const result = await runCli(['status', '--deployed'], { cwd: clone, env: { SVC_API_KEY: server.apiKey } });
    assert.equal(result.code, 0, result.stderr);
    assert.match(result.stdout, /reported: 1 comment\(s\) marked deployed/);
    assert.match(result.stderr, /1 pending commit\(s\) are not in this clone \(it is shallow\)/);
    assert.match(result.stderr, /fetch-depth: 0/);
    assert.match(result.stderr, /git fetch --unshallow/);
    assert.equal((await comment(server, oldId)).deployedAt, null);
    assert.notEqual((await comment(server, recentId)).deployedAt, null);
  });

  test('a shallow clone that holds a fix below its boundary: undecided, said every time, listed apart in --json', async () => {
    const { repo, own } = await repoFor();
    repo.commit('root');
    repo.git(['checkout', '-q', '-b', 'topic']);
    const fix = repo.commit('fix on topic');
    repo.git(['checkout', '-q', 'main']);
    repo.commit('main moves on');
    repo.merge('topic');
    for (let i = 0; i < 20; i += 1) repo.commit(`main ${i}`);
    const pending = await pendingComment(own, fix);
    const clone = tempDir();
    repo.git(['clone', '-q', '--depth', '5', '--no-single-branch', `file://${repo.dir}`, clone]);
    new Repo(clone).writeConfig(own);

    for (let i = 0; i < 2; i += 1) {
      const result = await runCli(['status', '--deployed', '--json'], {
        cwd: clone,
        env: { SVC_API_KEY: server.apiKey },
      });
      assert.equal(result.code, 0, result.stderr);
      assert.match(result.stderr, /this clone is shallow: 1 pending commit\(s\) it holds could not be decided/);
      assert.match(result.stderr, /git fetch --unshallow/);
      const report = JSON.parse(result.stdout);
      assert.deepEqual(report.undecidedCommitShas, [fix]);
      assert.deepEqual(report.containsCommitShas, []);
      assert.deepEqual(report.unknownCommitShas, []);
    }
    assert.equal((await comment(server, pending)).deployedAt, null);
  });

  test('the key from .svc/credentials.env when SVC_API_KEY is not set', async () => {
    const { repo } = await repoFor();
    repo.commit('a commit');
    fs.writeFileSync(path.join(repo.dir, '.svc', 'credentials.env'), `# local only\nSVC_API_KEY="${server.apiKey}"\n`);
    const result = await runCli(['status', '--deployed'], { cwd: repo.dir });
    assert.equal(result.code, 0, result.stderr);
  });

  test('exit 3 without a key, naming SVC_API_KEY; nothing reported', async () => {
    const { repo, own } = await repoFor();
    const sha = repo.commit('a commit');
    const result = await runCli(['status', '--deployed'], { cwd: repo.dir });
    assert.equal(result.code, 3);
    assert.match(result.stderr, /SVC_API_KEY/);
    assert.equal(result.stdout, '');
    const builds = await call(server.app, 'GET', `/api/projects/${own.project.key}/builds`, {
      token: server.admin.token,
    });
    assert.ok(!builds.body.items.some((b: { sha: string }) => b.sha === sha));
  });

  test('exit 2: an unknown rev, a repository with no commits yet, a folder that is no repository', async () => {
    const { repo } = await repoFor();
    const env = { SVC_API_KEY: server.apiKey };
    const empty = await runCli(['status', '--deployed'], { cwd: repo.dir, env });
    assert.equal(empty.code, 2);
    assert.match(empty.stderr, /no commits yet/);

    repo.commit('a commit');
    const unknown = await runCli(['status', '--deployed', 'no-such-branch'], { cwd: repo.dir, env });
    assert.equal(unknown.code, 2);
    assert.match(unknown.stderr, /"no-such-branch" is not a commit in this repository/);

    const plain = tempDir();
    fs.mkdirSync(path.join(plain, '.svc'));
    fs.copyFileSync(path.join(repo.dir, '.svc', 'config.json'), path.join(plain, '.svc', 'config.json'));
    const noRepo = await runCli(['status', '--deployed'], { cwd: plain, env });
    assert.equal(noRepo.code, 2);
    assert.match(noRepo.stderr, /not inside a git repository/);
  });

  test('exit 1: the server is down, or refuses the key', async () => {
    const { repo } = await repoFor();
    repo.commit('a commit');
    const refused = await runCli(['status', '--deployed'], { cwd: repo.dir, env: { SVC_API_KEY: 'svc_key_wrong' } });
    assert.equal(refused.code, 1);
    assert.match(refused.stderr, /401/);
    assert.match(refused.stderr, /API key was refused/);

    const down = await startLiveServer();
    const { repo: downRepo } = await repoFor(down);
    downRepo.commit('a commit');
    await down.close();
    const unreachable = await runCli(['status', '--deployed'], {
      cwd: downRepo.dir,
      env: { SVC_API_KEY: down.apiKey },
    });
    assert.equal(unreachable.code, 1);
    assert.match(unreachable.stderr, /could not reach the server at http:\/\/127\.0\.0\.1:\d+ \(ECONNREFUSED\)/);
  });

  test('exit 2 without configuration, and for a secret given as a flag', async () => {
    const repo = Repo.init();
    repo.commit('a commit');
    const unconfigured = await runCli(['status', '--deployed'], { cwd: repo.dir, env: { SVC_API_KEY: server.apiKey } });
    assert.equal(unconfigured.code, 2);
    assert.match(unconfigured.stderr, /svc-cli init/);

    const flagged = await runCli(['status', '--deployed', '--api-key', 'abc'], { cwd: repo.dir });
    assert.equal(flagged.code, 2);
    assert.match(flagged.stderr, /never taken as flags/);

    const overridden = await runCli(['status', '--deployed'], {
      cwd: repo.dir,
      env: { SVC_API_KEY: server.apiKey, SVC_SERVER: server.url, SVC_PROJECT: server.project.key },
    });
    assert.equal(overridden.code, 0, overridden.stderr);
  });
});
