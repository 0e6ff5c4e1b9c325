// A comment's due date as the CLI and the agents' tools (svc-cli mcp) say it.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { call, createComment } from '../../server/test/helpers.js';
import { cliBin, type LiveServer, Repo, runCli, startLiveServer, withNewProject } from './helpers.js';

type Text = { type: 'text'; text: string };

describe('due dates in svc-cli comments and svc-cli mcp', () => {
  let server: LiveServer;
  let client: Client | undefined;
  before(async () => {
    server = await startLiveServer();
  });
  after(async () => {
    await client?.close();
    await server.close();
  });

  test('comments lists and shows the due date, overdue in words; get_feedback and list_feedback give it, and filter by it', async () => {
    const own = await withNewProject(server);
    const repo = Repo.init();
    repo.writeConfig(own);
    const env = { SVC_API_KEY: server.apiKey };
    const late = await createComment(server.app, server.admin, own.project.key, 'The logo is blurry');
    const later = await createComment(server.app, server.admin, own.project.key, 'The footer wraps');
    const none = await createComment(server.app, server.admin, own.project.key, 'No date for this one');
    for (const [id, dueOn] of [
      [late.id, '2020-01-02'],
      [later.id, '2999-12-31'],
    ]) {
      const set = await call(server.app, 'PATCH', `/api/comments/${id}`, {
        token: server.admin.token,
        body: { dueOn },
      });
      assert.equal(set.status, 200, JSON.stringify(set.body));
    }

    const listed = await runCli(['comments'], { cwd: repo.dir, env });
    assert.equal(listed.code, 0, listed.stderr);
    const lineOf = (id: string) => listed.stdout.split('\n').find((line) => line.startsWith(id)) ?? '';
    assert.match(lineOf(late.id), /\(Overdue · due Jan 2, 2020\)$/);
    assert.match(lineOf(later.id), /\(Due Dec 31, 2999\)$/);
    assert.doesNotMatch(lineOf(none.id), /Due|Overdue/);

    const shown = await runCli(['comments', 'show', late.id], { cwd: repo.dir, env });
    assert.equal(shown.code, 0, shown.stderr);
    assert.match(shown.stdout, /\n {2}due {7}2020-01-02 \(overdue\)\n/);
    assert.match(shown.stdout, /Due date set to Jan 2, 2020 by Ada Admin/, 'the timeline says who set it');

    const mcp = new Client({ name: 'test-agent', version: '1.0.0' });
    client = mcp;
    await mcp.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: [cliBin, 'mcp'],
        cwd: repo.dir,
        env: { PATH: process.env.PATH ?? '', HOME: repo.dir, SVC_API_KEY: server.apiKey },
        stderr: 'pipe',
      }),
    );
    const json = (result: Record<string, unknown>) => JSON.parse(((result.content as Text[])[0] as Text).text);
    const full = json(await mcp.callTool({ name: 'get_feedback', arguments: { id: late.id } }));
    assert.equal(full.dueOn, '2020-01-02');
    assert.equal(full.overdue, true);
    assert.ok(
      full.timeline.some((event: { what: string }) => event.what === 'Due date set to Jan 2, 2020 by Ada Admin'),
    );
    const overdue = json(await mcp.callTool({ name: 'list_feedback', arguments: { overdue: 'true' } }));
    assert.deepEqual(
      overdue.items.map((item: { id: string }) => item.id),
      [late.id],
    );
    const soonest = json(await mcp.callTool({ name: 'list_feedback', arguments: { sort: 'due' } }));
    assert.deepEqual(
      soonest.items.map((item: { id: string; dueOn: string | null }) => [item.id, item.dueOn]),
      [
        [late.id, '2020-01-02'],
        [later.id, '2999-12-31'],
        [none.id, null],
      ],
    );
  });
});
