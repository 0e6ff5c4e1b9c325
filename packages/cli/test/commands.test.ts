import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { addMember, call, createComment } from '../../server/test/helpers.js';
import { cliBin, type LiveServer, Repo, runCli, startLiveServer, tempDir, withNewProject } from './helpers.js';

/** A 1×1 PNG. */
const png = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
);

describe('svc-cli apply, comments, init, stamp', () => {
  let server: LiveServer;
  before(async () => {
    server = await startLiveServer();
  });
  after(async () => {
    await server.close();
  });

  async function setUp(projectExtra: Record<string, unknown> = {}) {
    const own = await withNewProject(server, projectExtra);
    const repo = Repo.init();
    repo.writeConfig(own);
    const env = { SVC_API_KEY: server.apiKey };
    return { own, repo, env };
  }

  test('comments --watch prints each comment as it is created or changed, one JSON object a line', async () => {
    const { own, repo, env } = await setUp();
    const child = spawn(process.execPath, [cliBin, 'comments', '--watch', '--json'], {
      cwd: repo.dir,
      env: { PATH: process.env.PATH ?? '', HOME: repo.dir, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    try {
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (chunk) => {
        stdout += chunk;
      });
      child.stderr.on('data', (chunk) => {
        stderr += chunk;
      });
      const until = async (predicate: () => boolean, what: string) => {
        const deadline = Date.now() + 10_000;
        while (!predicate()) {
          if (Date.now() > deadline) throw new Error(`${what} did not happen: ${stdout} ${stderr}`);
          await new Promise((resolve) => setTimeout(resolve, 50));
        }
      };
      await until(() => stderr.includes('Watching'), 'the watch start');
      const { id } = await createComment(server.app, server.admin, own.project.key, 'Seen by the watch');
      await until(() => stdout.includes(id), 'the new comment');
      await call(server.app, 'POST', `/api/comments/${id}/apply`, {
        token: server.admin.token,
        body: { commitSha: 'abcdef1' },
      });
      await until(() => stdout.trim().split('\n').length >= 2, 'the change');
      const [created, applied] = stdout
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line));
      assert.equal(created.id, id);
      assert.equal(applied.status, 'applied');
    } finally {
      child.kill();
    }
  });

  test('comments show prints the context and errors; screenshot saves the image by its type', async () => {
    const { own, repo, env } = await setUp();
    const created = await server.app.inject({
      method: 'POST',
      url: `/api/projects/${own.project.key}/comments`,
      headers: {
        authorization: `Bearer ${server.admin.token}`,
        'user-agent': 'Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0',
      },
      payload: {
        body: 'Totals fail',
        pageUrl: 'https://app.example.test/cart',
        anchor: {
          selector: '.totals',
          x: 1,
          y: 1,
          source: { component: 'Totals', file: 'src/Totals.vue' },
        },
        context: {
          viewport: { width: 1280, height: 720 },
          screen: { width: 1920, height: 1080 },
          devicePixelRatio: 1,
          language: 'en',
          timeZone: 'UTC',
          colorScheme: 'light',
          title: 'Cart',
          url: 'https://app.example.test/cart?x=1',
          buildSha: null,
          errors: [
            {
              kind: 'network',
              message: 'GET https://app.example.test/api/totals answered 502',
              at: new Date().toISOString(),
            },
          ],
        },
      },
    });
    const { id } = created.json();
    await server.app.inject({
      method: 'PUT',
      url: `/api/comments/${id}/screenshot`,
      headers: { authorization: `Bearer ${server.admin.token}`, 'content-type': 'image/png' },
      payload: png,
    });
    const photo = await server.app.inject({
      method: 'POST',
      url: `/api/comments/${id}/images`,
      headers: { authorization: `Bearer ${server.admin.token}`, 'content-type': 'image/png' },
      payload: png,
    });
    assert.equal(photo.statusCode, 201, photo.body);
    const shown = await runCli(['comments', 'show', id], { cwd: repo.dir, env });
    assert.equal(shown.code, 0, shown.stderr);
    assert.match(shown.stdout, new RegExp(`image +${photo.json().id}: attached by .+, 0 KB`));
    assert.match(shown.stdout, /browser +Firefox 133\.0 on Linux/);
    assert.match(shown.stdout, /source +Totals · src\/Totals\.vue\n/);
    assert.match(shown.stdout, /! network +GET https:\/\/app\.example\.test\/api\/totals answered 502/);
    assert.match(shown.stdout, new RegExp(`screenshot: svc-cli screenshot ${id}`));
    assert.match(
      shown.stdout,
      /timeline \(UTC\)\n +\d{4}-\d\d-\d\d \d\d:\d\d {2}Written by .+\n +[\d: -]+ {2}Screenshot added by /,
    );
    const json = JSON.parse((await runCli(['comments', 'show', id, '--json'], { cwd: repo.dir, env })).stdout);
    assert.equal(json.context.errors.length, 1);

    const saved = await runCli(['screenshot', id], { cwd: repo.dir, env });
    assert.equal(saved.code, 0, saved.stderr);
    assert.deepEqual(fs.readFileSync(path.join(repo.dir, `${id}.png`)), png);
    const missing = await runCli(['screenshot', 'cmt_01JD0000000000000000000000'], { cwd: repo.dir, env });
    assert.equal(missing.code, 1);
    assert.match(missing.stderr, /404/);
  });

  test('export: this project (or --all) as JSON Lines to a file, --csv to standard output; a member key is refused', async () => {
    const { own, repo, env } = await setUp();
    await createComment(server.app, server.admin, own.project.key, 'Exported, whole');
    const saved = await runCli(['export'], { cwd: repo.dir, env });
    assert.equal(saved.code, 0, saved.stderr);
    const file = fs.readdirSync(repo.dir).find((name) => name.endsWith('.jsonl')) ?? '';
    assert.match(file, new RegExp(`^${own.project.key}-comments-\\d{4}-\\d\\d-\\d\\d\\.jsonl$`));
    assert.match(saved.stderr, /Saved \d+ KB to /);
    const lines = fs
      .readFileSync(path.join(repo.dir, file), 'utf8')
      .trimEnd()
      .split('\n')
      .map((text) => JSON.parse(text));
    assert.deepEqual(
      lines.filter((l) => l.type === 'comment').map((l) => l.body),
      ['Exported, whole'],
    );
    assert.deepEqual(
      lines.filter((l) => l.type === 'project').map((l) => l.key),
      [own.project.key],
    );
    const csv = await runCli(['export', '--csv', '--all', '-o', '-'], { cwd: repo.dir, env });
    assert.equal(csv.code, 0, csv.stderr);
    assert.match(csv.stdout, /^\uFEFFid,project,state,/);
    assert.match(csv.stdout, /"Exported, whole"/);
    const shot = await server.app.inject({
      method: 'PUT',
      url: `/api/comments/${lines.find((l) => l.type === 'comment').id}/screenshot`,
      headers: { authorization: `Bearer ${server.admin.token}`, 'content-type': 'image/png' },
      payload: png,
    });
    assert.equal(shot.statusCode, 200, shot.body);
    const zipped = await runCli(['export', '--screenshots'], { cwd: repo.dir, env });
    assert.equal(zipped.code, 0, zipped.stderr);
    const zip = fs.readdirSync(repo.dir).find((name) => name.endsWith('.zip')) ?? '';
    assert.match(zip, new RegExp(`^${own.project.key}-screenshots-\\d{4}-\\d\\d-\\d\\d\\.zip$`));
    // A zip begins with a local file header naming its first file.
    const archive = fs.readFileSync(path.join(repo.dir, zip));
    assert.equal(archive.readUInt32LE(0), 0x04034b50);
    assert.ok(archive.includes(Buffer.from(`${own.project.key}/`)), 'the screenshot is filed under its project');
    const both = await runCli(['export', '--csv', '--screenshots'], { cwd: repo.dir, env });
    assert.equal(both.code, 2);
    assert.match(both.stderr, /choose one/);

    const member = await addMember(server.app, server.admin, 'member');
    const key = await call(server.app, 'POST', '/api/me/api-keys', { token: member.token, body: { name: 'm' } });
    const refused = await runCli(['export', '-o', 'refused.jsonl'], {
      cwd: repo.dir,
      env: { SVC_API_KEY: key.body.key },
    });
    assert.equal(refused.code, 1);
    assert.match(refused.stderr, /403/);
    assert.equal(fs.existsSync(path.join(repo.dir, 'refused.jsonl')), false);
    assert.equal(fs.existsSync(path.join(repo.dir, 'refused.jsonl.part')), false, 'nothing half-written is left');
  });

  test('apply --mark records HEAD, with the link built from a GitHub origin remote', async () => {
    const { own, repo, env } = await setUp();
    repo.git(['remote', 'add', 'origin', 'git@github.com:acme/site.git']);
    const head = repo.commit('fix the header');
    const { id } = await createComment(server.app, server.admin, own.project.key);

    const result = await runCli(['apply', id, '--mark'], { cwd: repo.dir, env });
    assert.equal(result.code, 0, result.stderr);
    const url = `https://github.com/acme/site/commit/${head}`;
    assert.equal(result.stdout, `Comment ${id} applied with ${head.slice(0, 7)} (${url}).\n`);
    const stored = (await call(server.app, 'GET', `/api/comments/${id}`, { token: server.admin.token })).body;
    assert.equal(stored.status, 'applied');
    assert.equal(stored.commitSha, head);
    assert.equal(stored.commitUrl, url);
  });

  test("apply --mark --commit: an older rev; the project's repoUrl link wins over origin; --url over both", async () => {
    const { own, repo, env } = await setUp({ repoUrl: 'https://gitlab.com/acme/site' });
    repo.git(['remote', 'add', 'origin', 'https://github.com/acme/mirror.git']);
    const older = repo.commit('the fix');
    repo.commit('unrelated');
    const first = await createComment(server.app, server.admin, own.project.key);
    const applied = await runCli(['apply', first.id, '--mark', '--commit', 'HEAD~1', '--json'], { cwd: repo.dir, env });
    assert.equal(applied.code, 0, applied.stderr);
    const body = JSON.parse(applied.stdout);
    assert.equal(body.commitSha, older);
    assert.equal(body.commitUrl, `https://gitlab.com/acme/site/-/commit/${older}`);

    const second = await createComment(server.app, server.admin, own.project.key);
    const given = 'https://ci.example.test/builds/42';
    const withUrl = await runCli(['apply', second.id, '--mark', '--url', given, '--json'], { cwd: repo.dir, env });
    assert.equal(withUrl.code, 0, withUrl.stderr);
    assert.equal(JSON.parse(withUrl.stdout).commitUrl, given);
  });

  test('apply: a bad rev is exit 2 and applies nothing; an unknown comment is exit 1; without --mark it shows the comment', async () => {
    const { own, repo, env } = await setUp();
    repo.commit('something');
    const { id } = await createComment(server.app, server.admin, own.project.key, 'Logo is blurry\nOn retina screens');

    const badRev = await runCli(['apply', id, '--mark', '--commit', 'nope'], { cwd: repo.dir, env });
    assert.equal(badRev.code, 2);
    const stored = (await call(server.app, 'GET', `/api/comments/${id}`, { token: server.admin.token })).body;
    assert.equal(stored.status, 'open');

    const unknown = await runCli(['apply', 'cmt_nope', '--mark'], { cwd: repo.dir, env });
    assert.equal(unknown.code, 1);
    assert.match(unknown.stderr, /404/);

    const keyless = await runCli(['comments'], { cwd: repo.dir, env: {} });
    assert.equal(keyless.code, 3);
    assert.match(keyless.stderr, new RegExp(`Create a key in the console: ${own.url}/api-keys`));

    const shown = await runCli(['apply', id], { cwd: repo.dir, env });
    assert.equal(shown.code, 0, shown.stderr);
    assert.match(shown.stdout, /Logo is blurry/);
    assert.match(shown.stderr, new RegExp(`svc-cli apply ${id} --mark`));
  });

  test('comments lists the project, filtered by status, as text or --json', async () => {
    const { own, repo, env } = await setUp();
    const sha = repo.commit('fix');
    const open = await createComment(server.app, server.admin, own.project.key, 'Still open');
    const done = await createComment(server.app, server.admin, own.project.key, 'Fixed one');
    await call(server.app, 'POST', `/api/comments/${done.id}/apply`, {
      token: server.admin.token,
      body: { commitSha: sha },
    });

    const all = await runCli(['comments'], { cwd: repo.dir, env });
    assert.equal(all.code, 0, all.stderr);
    assert.match(all.stdout, new RegExp(`${open.id}\\s+open\\s`));
    assert.match(all.stdout, new RegExp(`${done.id}\\s+completed\\s`));

    const onlyOpen = await runCli(['comments', '--status', 'open', '--json'], { cwd: repo.dir, env });
    assert.equal(onlyOpen.code, 0, onlyOpen.stderr);
    assert.deepEqual(
      JSON.parse(onlyOpen.stdout).map((c: { id: string }) => c.id),
      [open.id],
    );

    const wrong = await runCli(['comments', '--status', 'done'], { cwd: repo.dir, env });
    assert.equal(wrong.code, 2);
    assert.match(wrong.stderr, /--status must be one of open, applied, archived/);
  });

  test('comments claim, assign and --assignee: an agent takes its work, is told who holds the rest, and lists what is its own', async () => {
    const { own, repo } = await setUp();
    const agent = await call(server.app, 'POST', '/api/workspace/agents', {
      token: server.admin.token,
      body: { name: 'Repo agent' },
    });
    const env = { SVC_API_KEY: agent.body.apiKey.key as string };
    const first = await createComment(server.app, server.admin, own.project.key, 'Claim me');
    const second = await createComment(server.app, server.admin, own.project.key, 'Someone else has it');
    await call(server.app, 'POST', `/api/comments/${second.id}/claim`, { token: server.admin.token });

    const claimed = await runCli(['comments', 'claim', first.id], { cwd: repo.dir, env });
    assert.equal(claimed.code, 0, claimed.stderr);
    assert.match(claimed.stdout, /\(on it: Repo agent\)/);
    const held = await runCli(['comments', 'claim', second.id], { cwd: repo.dir, env });
    assert.equal(held.code, 1);
    assert.match(held.stderr, /is already on this comment/);

    const mine = await runCli(['comments', '--assignee', 'me', '--json'], { cwd: repo.dir, env });
    assert.deepEqual(
      JSON.parse(mine.stdout).map((c: { id: string }) => c.id),
      [first.id],
    );
    const released = await runCli(['comments', 'assign', first.id, 'none'], { cwd: repo.dir, env });
    assert.equal(released.code, 0, released.stderr);
    const free = await runCli(['comments', '--assignee', 'none', '--json'], { cwd: repo.dir, env });
    assert.deepEqual(
      JSON.parse(free.stdout).map((c: { id: string }) => c.id),
      [first.id],
    );
    const back = await runCli(['comments', 'assign', first.id, 'me', '--json'], { cwd: repo.dir, env });
    assert.equal(JSON.parse(back.stdout).assignee.name, 'Repo agent');
    await call(server.app, 'PUT', `/api/comments/${first.id}/priority`, {
      token: server.admin.token,
      body: { priority: 'high' },
    });
    const shown = await runCli(['comments', 'show', first.id], { cwd: repo.dir, env });
    assert.match(shown.stdout, /on it {5}Repo agent \(agent\) since /);
    assert.match(shown.stdout, /priority {2}high/);
  });

  test('init writes .svc/config.json at the repository root and gitignores the credentials, once', async () => {
    const repo = Repo.init();
    fs.writeFileSync(path.join(repo.dir, '.gitignore'), 'node_modules');
    const sub = path.join(repo.dir, 'app');
    fs.mkdirSync(sub);
    const args = ['init', '--server', 'https://feedback.example.test/', '--project', 'site'];
    const first = await runCli(args, { cwd: sub });
    assert.equal(first.code, 0, first.stderr);
    assert.deepEqual(JSON.parse(fs.readFileSync(path.join(repo.dir, '.svc', 'config.json'), 'utf8')), {
      server: 'https://feedback.example.test',
      project: 'site',
    });
    const second = await runCli(args, { cwd: repo.dir });
    assert.equal(second.code, 0, second.stderr);
    assert.equal(
      fs.readFileSync(path.join(repo.dir, '.gitignore'), 'utf8'),
      'node_modules\n.svc/credentials.env\n.svc/svc-cli.mjs\n',
    );
    assert.equal(repo.git(['check-ignore', '.svc/credentials.env']), '.svc/credentials.env');
  });

  test('init refuses a bad server URL or project key and writes nothing', async () => {
    const dir = tempDir();
    const badUrl = await runCli(['init', '--server', 'feedback.example.test', '--project', 'site'], { cwd: dir });
    assert.equal(badUrl.code, 2);
    const badKey = await runCli(['init', '--server', 'https://x.test', '--project', 'Site Key'], { cwd: dir });
    assert.equal(badKey.code, 2);
    assert.match(badKey.stderr, /--project must be a project key/);
    assert.deepEqual(fs.readdirSync(dir), []);
  });

  test('stamp writes HEAD into <html data-build-sha>, idempotently; a file without <html> fails and nothing is written', async () => {
    const repo = Repo.init();
    const head = repo.commit('release');
    const page = path.join(repo.dir, 'index.html');
    const other = path.join(repo.dir, 'about.html');
    fs.writeFileSync(page, '<!doctype html>\n<html lang="en"><body>Hi</body></html>\n');
    fs.writeFileSync(other, '<HTML data-build-sha="0000000" class="x"><body></body></HTML>');

    const first = await runCli(['stamp', 'index.html', 'about.html'], { cwd: repo.dir });
    assert.equal(first.code, 0, first.stderr);
    assert.equal(first.stdout, `Stamped 2 file(s) with ${head.slice(0, 7)}.\n`);
    assert.equal(
      fs.readFileSync(page, 'utf8'),
      `<!doctype html>\n<html data-build-sha="${head}" lang="en"><body>Hi</body></html>\n`,
    );
    assert.equal(fs.readFileSync(other, 'utf8'), `<HTML data-build-sha="${head}" class="x"><body></body></HTML>`);

    const again = await runCli(['stamp', 'index.html', '--json'], { cwd: repo.dir });
    assert.deepEqual(JSON.parse(again.stdout), { sha: head, files: [{ file: 'index.html', changed: false }] });

    const fragment = path.join(repo.dir, 'fragment.html');
    fs.writeFileSync(fragment, '<div>no document</div>');
    const newer = repo.commit('next');
    const failed = await runCli(['stamp', 'index.html', 'fragment.html'], { cwd: repo.dir });
    assert.equal(failed.code, 2);
    assert.match(failed.stderr, /fragment.html has no <html> element/);
    assert.ok(!fs.readFileSync(page, 'utf8').includes(newer), 'index.html was not rewritten');
  });

  test('--help reads well for the tool and for each command; an unknown command is exit 2', async () => {
    const dir = tempDir();
    const help = await runCli(['--help'], { cwd: dir });
    assert.equal(help.code, 0);
    for (const name of ['status', 'apply', 'comments', 'init', 'stamp'])
      assert.match(help.stdout, new RegExp(`\\n  ${name} `));
    const statusHelp = await runCli(['status', '--help'], { cwd: dir });
    assert.match(statusHelp.stdout, /^Usage: svc-cli status --deployed \[rev\]/);
    const unknown = await runCli(['deploy'], { cwd: dir });
    assert.equal(unknown.code, 2);
    assert.match(unknown.stderr, /unknown command "deploy"/);
  });
});

describe('the Vite plugin', () => {
  test('stamps HEAD on the <html> element of the built index.html', async () => {
    const repo = Repo.init();
    const head = repo.commit('release');
    const { svcBuildSha } = await import('../src/vite.js');
    const plugin = svcBuildSha({ cwd: repo.dir });
    assert.equal(plugin.apply, 'build');
    plugin.buildStart();
    assert.equal(
      plugin.transformIndexHtml('<!doctype html><html lang="en"><head></head></html>'),
      `<!doctype html><html data-build-sha="${head}" lang="en"><head></head></html>`,
    );
  });
});
