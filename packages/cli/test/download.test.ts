// The CLI as a deploy job gets it: downloaded from the server, checked with sha256sum, run.
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { installSnippets } from '../../console/src/snippets.js';
import { call } from '../../server/test/helpers.js';
import { versionMismatch } from '../src/server-version.js';
import { CLI_VERSION } from '../src/version.js';
import { type LiveServer, pendingComment, Repo, runCli, startLiveServer, withNewProject } from './helpers.js';

describe('svc-cli from the server: /cli/svc-cli.mjs', () => {
  let server: LiveServer;
  before(async () => {
    server = await startLiveServer();
  });
  after(() => server.close());

  test('downloads, passes sha256sum -c with the published checksum, and reports a deploy from a real repository', async () => {
    const own = await withNewProject(server);
    const repo = Repo.init();
    repo.writeConfig(own);
    const fix = repo.commit('the fix');
    const head = repo.commit('deployed');
    const id = await pendingComment(own, fix);

    const script = await fetch(`${server.url}/cli/svc-cli.mjs`);
    assert.equal(script.status, 200);
    assert.match(String(script.headers.get('content-type')), /javascript/);
    fs.writeFileSync(path.join(repo.dir, 'svc-cli.mjs'), Buffer.from(await script.arrayBuffer()));
    const checksum = await (await fetch(`${server.url}/cli/svc-cli.mjs.sha256`)).text();
    assert.match(checksum, /^[0-9a-f]{64} {2}svc-cli\.mjs\n$/);
    const checked = spawnSync('sha256sum', ['-c', '-'], { cwd: repo.dir, input: checksum, encoding: 'utf8' });
    assert.equal(checked.status, 0, checked.stderr);
    assert.match(checked.stdout, /svc-cli\.mjs: OK/);
    const info = (await call(server.app, 'GET', '/api/server')).body;
    assert.deepEqual(info.cli, { url: '/cli/svc-cli.mjs', sha256: checksum.slice(0, 64) });

    // The event loop must stay free: this process is the server.
    const run = (...args: string[]) =>
      runCli(args, { cwd: repo.dir, env: { SVC_API_KEY: server.apiKey }, script: 'svc-cli.mjs' });
    const reported = await run('status', '--deployed');
    assert.equal(reported.code, 0, reported.stderr);
    assert.equal(reported.stdout, `Build ${head.slice(0, 7)} reported: 1 comment(s) marked deployed.\n`);
    assert.doesNotMatch(reported.stderr, /warning/, 'the same version as the server');
    const comment = (await call(server.app, 'GET', `/api/comments/${id}`, { token: server.admin.token })).body;
    assert.equal(comment.deployedBuildSha, head);

    const version = await run('--version');
    assert.equal(version.stdout, `${info.version}\n`);
    assert.match(version.stderr, new RegExp(`server ${server.url}: ${info.version}`));

    // A damaged download fails the check.
    fs.appendFileSync(path.join(repo.dir, 'svc-cli.mjs'), '\n// changed');
    const damaged = spawnSync('sha256sum', ['-c', '-'], { cwd: repo.dir, input: checksum, encoding: 'utf8' });
    assert.notEqual(damaged.status, 0);
  });

  test("the console's first-run snippet: checked, it runs; a tampered download stops it before anything runs", async () => {
    const own = await withNewProject(server);
    const { init } = installSnippets(server.url, own.project.key);
    // Run asynchronously: this process is the server the snippet downloads from.
    const runSnippet = async (serverUrl: string) => {
      const repo = Repo.init();
      repo.commit('start');
      const script = installSnippets(serverUrl, own.project.key).init;
      const child = spawn('bash', ['-c', script], {
        cwd: repo.dir,
        env: { PATH: process.env.PATH ?? '', HOME: repo.dir },
      });
      let stderr = '';
      child.stderr.on('data', (chunk) => {
        stderr += chunk;
      });
      const status = await new Promise<number | null>((resolve) => child.on('close', resolve));
      return { shell: { status, stderr }, repo, configured: fs.existsSync(path.join(repo.dir, '.svc', 'config.json')) };
    };
    assert.match(init, /sha256sum -c -\) &&\nnode \.svc\/svc-cli\.mjs init/);
    const clean = await runSnippet(server.url);
    assert.equal(clean.shell.status, 0, clean.shell.stderr);
    assert.equal(clean.configured, true, 'svc-cli init ran');
    assert.match(clean.repo.git(['log', '--oneline', '-1']), /Feedback comments/);

    // A man in the middle changes the script, not its checksum.
    const tampering = http.createServer(async (request, response) => {
      const upstream = await fetch(`${server.url}${request.url}`);
      let body = Buffer.from(await upstream.arrayBuffer());
      if (request.url === '/cli/svc-cli.mjs') body = Buffer.concat([body, Buffer.from('\n// tampered')]);
      response.writeHead(upstream.status).end(body);
    });
    await new Promise<void>((resolve) => tampering.listen(0, '127.0.0.1', resolve));
    try {
      const tampered = await runSnippet(`http://127.0.0.1:${(tampering.address() as AddressInfo).port}`);
      assert.notEqual(tampered.shell.status, 0);
      assert.match(tampered.shell.stderr, /FAILED|did NOT match/);
      assert.equal(tampered.configured, false, 'nothing ran after the failed check');
    } finally {
      await new Promise((resolve) => tampering.close(resolve));
    }
  });

  test('a CLI of another version than the server is told where to get the right one', () => {
    assert.equal(versionMismatch('https://f.example', CLI_VERSION), null);
    assert.equal(versionMismatch('https://f.example', null), null, 'an older server without /api/server');
    assert.match(versionMismatch('https://f.example', '9.0.0') ?? '', /https:\/\/f\.example\/cli\/svc-cli\.mjs/);
  });
});
