// svc-cli mcp driven by the MCP SDK's own client, over stdio, in a real git repository.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { addClient, call, createComment } from '../../server/test/helpers.js';
import { cliBin, type LiveServer, Repo, startLiveServer, withNewProject } from './helpers.js';

type Text = { type: 'text'; text: string };

describe('svc-cli mcp (stdio)', () => {
  let server: LiveServer;
  const clients: Client[] = [];
  before(async () => {
    server = await startLiveServer();
  });
  after(async () => {
    for (const client of clients) await client.close();
    await server.close();
  });

  async function connect(apiKey = server.apiKey, projectExtra: Record<string, unknown> = {}) {
    const own = await withNewProject(server, projectExtra);
    const repo = Repo.init();
    repo.writeConfig(own);
    repo.git(['remote', 'add', 'origin', 'git@github.com:acme/site.git']);
    const client = new Client({ name: 'test-agent', version: '1.0.0' });
    await client.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: [cliBin, 'mcp'],
        cwd: repo.dir,
        env: { PATH: process.env.PATH ?? '', HOME: repo.dir, SVC_API_KEY: apiKey },
        stderr: 'pipe',
      }),
    );
    clients.push(client);
    return { client, own, repo };
  }
  const json = (result: Record<string, unknown>) => JSON.parse(((result.content as Text[])[0] as Text).text);

  test('lists its tools, with input schemas from the API contract', async () => {
    const { client } = await connect();
    const { tools } = await client.listTools();
    assert.deepEqual(tools.map((t) => t.name).sort(), [
      'apply_fix',
      'archive',
      'claim_feedback',
      'get_feedback',
      'list_feedback',
      'list_notifications',
      'mark_notifications_read',
      'reopen',
      'reply',
      'wait_for_feedback',
    ]);
    const apply = tools.find((t) => t.name === 'apply_fix');
    assert.ok(apply?.inputSchema.properties && 'commitSha' in apply.inputSchema.properties);
    assert.ok((apply?.description ?? '').length > 80, 'a description an agent can act on');
  });

  test('the loop: wait, list, read (with the screenshot), reply, apply HEAD, reopen, archive; bad input is refused', async () => {
    const { client, own, repo } = await connect();
    const start = json(await client.callTool({ name: 'wait_for_feedback', arguments: {} }));
    const waiting = client.callTool({ name: 'wait_for_feedback', arguments: { cursor: start.cursor, wait: 20 } });
    await new Promise((resolve) => setTimeout(resolve, 300));
    const { id } = await createComment(server.app, server.admin, own.project.key, 'The logo is blurry');
    const woke = json(await waiting);
    assert.equal(woke.items[0].id, id);

    const listed = json(await client.callTool({ name: 'list_feedback', arguments: { status: 'open' } }));
    assert.equal(listed.items[0].id, id);
    const png = Buffer.from(
      'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
      'base64',
    );
    await server.app.inject({
      method: 'PUT',
      url: `/api/comments/${id}/screenshot`,
      headers: { authorization: `Bearer ${server.admin.token}`, 'content-type': 'image/png' },
      payload: png,
    });
    const read = await client.callTool({ name: 'get_feedback', arguments: { id } });
    const [text, image] = read.content as [Text, { type: string; data: string; mimeType: string }];
    const feedback = JSON.parse(text.text);
    assert.equal(feedback.element, 'heading', 'an anchor of a selector alone, read aloud');
    assert.deepEqual(feedback.pinned, { selector: 'main > h1' });
    assert.equal(image.type, 'image');
    assert.equal(image.mimeType, 'image/png');
    assert.deepEqual(Buffer.from(image.data, 'base64'), png);

    await client.callTool({ name: 'reply', arguments: { id, body: 'Looking into it' } });
    const head = repo.commit('sharper logo');
    const applied = json(await client.callTool({ name: 'apply_fix', arguments: { id } }));
    assert.equal(applied.commit, head);
    const stored = (await call(server.app, 'GET', `/api/comments/${id}`, { token: server.admin.token })).body;
    assert.equal(stored.commitUrl, `https://github.com/acme/site/commit/${head}`);
    assert.equal(stored.replies.at(-1).body, 'Looking into it');
    assert.equal(json(await client.callTool({ name: 'reopen', arguments: { id } })).status, 'open');
    assert.equal(json(await client.callTool({ name: 'archive', arguments: { id } })).status, 'archived');
    const story = json(await client.callTool({ name: 'get_feedback', arguments: { id } }));
    assert.deepEqual(
      story.timeline.map((event: { kind: string }) => event.kind),
      ['created', 'screenshot_added', 'replied', 'applied', 'reopened', 'archived'],
    );
    assert.match(
      story.fix,
      new RegExp(`^Applied by .+ in ${head.slice(0, 7)} through an agent \\(MCP\\) · Reopened by `),
    );

    const bad = await client.callTool({ name: 'reply', arguments: { id } });
    assert.equal(bad.isError, true);
    assert.match((bad.content as Text[])[0]?.text ?? '', /Invalid arguments/);
    const missing = await client.callTool({
      name: 'get_feedback',
      arguments: { id: 'cmt_01JD0000000000000000000000' },
    });
    assert.equal(missing.isError, true);
    assert.match((missing.content as Text[])[0]?.text ?? '', /404/);
    const quiet = json(
      await client.callTool({ name: 'wait_for_feedback', arguments: { cursor: woke.cursor, wait: 1 } }),
    );
    assert.ok(Array.isArray(quiet.items));
  });

  test('refused by role: a client account may not apply or archive', async () => {
    const { client: agent, own } = await connect();
    const clientAccount = await addClient(server.app, server.admin);
    const { id } = await createComment(server.app, server.admin, own.project.key, 'Client cannot fix this');
    const { client } = await connect(clientAccount.token);
    const refused = await client.callTool({ name: 'archive', arguments: { id } });
    assert.equal(refused.isError, true);
    assert.match((refused.content as Text[])[0]?.text ?? '', /403/);
    const notes = json(await agent.callTool({ name: 'list_notifications', arguments: {} }));
    assert.ok(typeof notes.unreadCount === 'number');
  });
});
