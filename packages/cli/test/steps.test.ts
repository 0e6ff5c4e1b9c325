// `svc-cli comments show` prints the steps that led to a comment, numbered, as the server kept them.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { capturedContext } from '../../server/test/helpers.js';
import { type LiveServer, Repo, runCli, startLiveServer, withNewProject } from './helpers.js';

const at = (second: number) => `2026-11-22T10:00:0${second}.000Z`;

describe('svc-cli comments show: steps to reproduce', () => {
  let server: LiveServer;
  before(async () => {
    server = await startLiveServer();
  });
  after(() => server.close());

  test('prints the steps, numbered, after the errors', async () => {
    const own = await withNewProject(server);
    const repo = Repo.init();
    repo.writeConfig(own);
    const created = await server.app.inject({
      method: 'POST',
      url: `/api/projects/${own.project.key}/comments`,
      headers: { authorization: `Bearer ${server.admin.token}` },
      payload: {
        body: 'Ordering fails',
        pageUrl: 'https://app.example.test/pricing',
        anchor: { selector: '#team button', x: 1, y: 1, name: 'Team $29' },
        context: {
          ...capturedContext,
          errors: [{ kind: 'error', message: 'TypeError: plan is undefined', at: at(3) }],
          actions: [
            { kind: 'open', at: at(1), path: '/pricing' },
            { kind: 'press', at: at(2), name: 'Choose Team' },
            { kind: 'type', at: at(4), name: 'E-mail' },
          ],
          requests: [
            { method: 'POST', url: 'https://app.example.test/api/orders', status: 500, durationMs: 30, at: at(5) },
          ],
        },
      },
    });
    assert.equal(created.statusCode, 201, created.body);
    const shown = await runCli(['comments', 'show', created.json().id], {
      cwd: repo.dir,
      env: { SVC_API_KEY: server.apiKey },
    });
    assert.equal(shown.code, 0, shown.stderr);
    assert.match(
      shown.stdout,
      /\n {2}steps to reproduce\n {4}1\. Opened \/pricing\n {4}2\. Pressed “Choose Team”\n {4}3\. Error: TypeError: plan is undefined\n {4}4\. Typed in “E-mail”\n {4}5\. Request POST \/api\/orders failed \(500\)\n {4}6\. Pinned “Team \$29”\n/,
    );
  });
});
