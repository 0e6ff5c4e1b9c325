// /mcp driven by the MCP SDK's own client over Streamable HTTP, against the listening server.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import {
  addClient,
  addMember,
  call,
  capturedContext,
  createComment,
  createProject,
  createTestApp,
  type Member,
  signUp,
  type TestApp,
  waitersAre,
} from '../../../test/helpers.js';
import { cleanJpeg } from '../../../test/images.js';
import { withoutMetadata } from '../comments/image-metadata.js';

type Text = { type: 'text'; text: string };
const json = (result: Record<string, unknown>) => JSON.parse(((result.content as Text[])[0] as Text).text);
const message = (result: Record<string, unknown>) => ((result.content as Text[])[0] as Text).text;

const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
);

async function apiKeyOf(t: TestApp, member: Member): Promise<string> {
  const created = await call(t.app, 'POST', '/api/me/api-keys', { token: member.token, body: { name: 'agent' } });
  return created.body.key;
}

async function listen(t: TestApp): Promise<string> {
  return (await t.app.listen({ port: 0, host: '127.0.0.1' })).replace('localhost', '127.0.0.1');
}

/** A raw POST to /mcp: what a client that is not the SDK, or a browser page, would send. */
function post(
  base: string,
  path: string,
  headers: Record<string, string>,
  body: unknown = { jsonrpc: '2.0', id: 1, method: 'tools/list' },
) {
  return fetch(`${base}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
    body: JSON.stringify(body),
  });
}

describe('MCP over Streamable HTTP: /mcp', () => {
  let t: TestApp;
  let admin: Member;
  let member: Member;
  let project: { key: string };
  let apiKey: string;
  let base: string;
  const clients: Client[] = [];
  before(async () => {
    t = await createTestApp();
    admin = await signUp(t.app);
    member = await addMember(t.app, admin);
    project = await createProject(t.app, admin, { repoUrl: 'https://github.com/acme/site' });
    apiKey = await apiKeyOf(t, member);
    base = await listen(t);
  });
  after(async () => {
    for (const client of clients) await client.close();
    await t.close();
  });

  async function connect(key = apiKey, projectKey = project.key) {
    const client = new Client({ name: 'test-agent', version: '1.0.0' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${base}/mcp?project=${projectKey}`), {
        requestInit: { headers: { authorization: `Bearer ${key}` } },
      }),
    );
    clients.push(client);
    return client;
  }

  test('lists the same tools as svc-cli mcp; apply_fix asks for the commit, there being no repository here', async () => {
    const client = await connect();
    const { tools } = await client.listTools();
    assert.deepEqual(tools.map((tool) => tool.name).sort(), [
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
    const apply = tools.find((tool) => tool.name === 'apply_fix');
    assert.deepEqual(apply?.inputSchema.required, ['id', 'commitSha']);
    // One number for the longest wait: the schema and the description say the same.
    const wait = tools.find((tool) => tool.name === 'wait_for_feedback');
    assert.ok(wait);
    const waitSchema = (wait.inputSchema.properties as Record<string, { maximum?: number }>).wait;
    assert.equal(waitSchema?.maximum, 25);
    assert.match(wait.description ?? '', /at most 25\)/);
    assert.match(apply?.description ?? '', /git rev-parse HEAD/);
  });

  test('a screenshot the widget is still sending is said to be pending, not absent', async () => {
    const client = await connect();
    const pending = await call(t.app, 'POST', `/api/projects/${project.key}/comments`, {
      token: admin.token,
      body: {
        body: 'Sent with a screenshot',
        pageUrl: 'https://app.example.test/',
        context: {
          viewport: { width: 1, height: 1 },
          screen: { width: 1, height: 1 },
          devicePixelRatio: 1,
          language: 'en',
          timeZone: 'UTC',
          colorScheme: 'light',
          title: 't',
          url: 'https://app.example.test/',
          buildSha: null,
          errors: [],
          screenshotFollows: true,
        },
      },
    });
    const early = json(await client.callTool({ name: 'get_feedback', arguments: { id: pending.body.id } }));
    assert.match(early.screenshot, /^pending/);
  });

  test('the loop: wait, list, read with the screenshot, reply, apply, reopen, archive, notifications', async () => {
    const client = await connect();
    const start = json(await client.callTool({ name: 'wait_for_feedback', arguments: {} }));
    const waiting = client.callTool({ name: 'wait_for_feedback', arguments: { cursor: start.cursor, wait: 20 } });
    await waitersAre(t.app, 1);
    const started = Date.now();
    const { id } = await createComment(t.app, admin, project.key, 'The logo is blurry');
    const woke = json(await waiting);
    assert.equal(woke.items[0].id, id);
    assert.ok(Date.now() - started < 5000, 'woken by the comment, not by the time-out');

    const listed = json(await client.callTool({ name: 'list_feedback', arguments: { status: 'open' } }));
    assert.equal(listed.items[0].id, id);
    await t.app.inject({
      method: 'PUT',
      url: `/api/comments/${id}/screenshot`,
      headers: { authorization: `Bearer ${admin.token}`, 'content-type': 'image/png' },
      payload: PNG,
    });
    // The element as the widget describes it: in words, and what an agent can search the source for.
    await call(t.app, 'PUT', `/api/comments/${id}/anchor`, {
      token: admin.token,
      body: {
        anchor: {
          selector: 'header > img',
          x: 4,
          y: 4,
          tag: 'img',
          role: 'img',
          name: 'Acme logo',
          attributes: { alt: 'Acme logo', src: '/img/logo.png', testId: 'brand' },
          classes: ['logo'],
          position: { left: 10, top: 10, width: 80, height: 20, viewportWidth: 1280, viewportHeight: 800 },
        },
      },
    });
    // An image a reviewer attached: the agent sees it after the screenshot.
    const attached = await t.app.inject({
      method: 'POST',
      url: `/api/comments/${id}/images`,
      headers: { authorization: `Bearer ${admin.token}`, 'content-type': 'image/jpeg' },
      payload: cleanJpeg,
    });
    assert.equal(attached.statusCode, 201, attached.body);
    const read = await client.callTool({ name: 'get_feedback', arguments: { id } });
    const [text, image, photo] = read.content as [Text, ...{ type: string; data: string; mimeType: string }[]];
    const feedback = JSON.parse(text.text);
    assert.equal(feedback.body, 'The logo is blurry');
    assert.equal(feedback.element, 'the “Acme logo” image');
    assert.equal(feedback.pinned.attributes.testId, 'brand');
    assert.equal(feedback.pinned.selector, 'header > img');
    assert.equal(feedback.pinned.position, undefined, 'where it was on one screen tells an agent nothing');
    assert.equal(image?.mimeType, 'image/png');
    assert.deepEqual(Buffer.from(image?.data ?? '', 'base64'), PNG);
    assert.equal(photo?.mimeType, 'image/jpeg');
    assert.deepEqual(Buffer.from(photo?.data ?? '', 'base64'), withoutMetadata(cleanJpeg, 'image/jpeg'));
    assert.deepEqual(feedback.images, [{ what: 'attached by Ada Admin', reply: null, at: attached.json().createdAt }]);

    await client.callTool({ name: 'reply', arguments: { id, body: 'Looking into it' } });
    const applied = json(await client.callTool({ name: 'apply_fix', arguments: { id, commitSha: 'ABCDEF1234' } }));
    assert.equal(applied.commit, 'abcdef1234');
    const stored = (await call(t.app, 'GET', `/api/comments/${id}`, { token: admin.token })).body;
    assert.equal(stored.commitUrl, 'https://github.com/acme/site/commit/abcdef1234');
    assert.equal(stored.replies.at(-1).body, 'Looking into it');
    assert.equal(stored.replies.at(-1).author.name, 'Mo Member');
    assert.equal(json(await client.callTool({ name: 'reopen', arguments: { id } })).status, 'open');
    assert.equal(json(await client.callTool({ name: 'archive', arguments: { id } })).status, 'archived');

    // The author's side: the reply, the fix and the reopening reached the admin.
    const adminKey = await apiKeyOf(t, admin);
    const adminAgent = await connect(adminKey);
    const notes = json(await adminAgent.callTool({ name: 'list_notifications', arguments: { unread: true } }));
    assert.ok(notes.unreadCount >= 2);
    assert.ok(notes.items.some((n: { comment: string }) => n.comment === id));
    json(await adminAgent.callTool({ name: 'mark_notifications_read', arguments: {} }));
    assert.equal(json(await adminAgent.callTool({ name: 'list_notifications', arguments: {} })).unreadCount, 0);

    const since = json(await client.callTool({ name: 'wait_for_feedback', arguments: { cursor: woke.cursor } }));
    assert.deepEqual(
      since.items.map((c: { id: string }) => c.id),
      [id],
      'its own changes since the last cursor, once',
    );
    const quiet = Date.now();
    const timedOut = json(
      await client.callTool({ name: 'wait_for_feedback', arguments: { cursor: since.cursor, wait: 1 } }),
    );
    assert.ok(Date.now() - quiet >= 900, 'it waited');
    assert.deepEqual(timedOut.items, []);
  });

  test('two agents divide the work: each waits for what is its own, claims before it starts, and the second claimant is told who holds it', async () => {
    const agentKey = async (name: string) =>
      (await call(t.app, 'POST', '/api/workspace/agents', { token: admin.token, body: { name } })).body.apiKey
        .key as string;
    const [ci, night] = [await connect(await agentKey('CI agent')), await connect(await agentKey('Night agent'))];
    const start = json(await ci.callTool({ name: 'wait_for_feedback', arguments: { assignee: 'me' } }));
    const waiting = ci.callTool({
      name: 'wait_for_feedback',
      arguments: { cursor: start.cursor, assignee: 'me', wait: 20 },
    });
    await waitersAre(t.app, 1);
    const { id } = await createComment(t.app, admin, project.key, 'Shared work');
    const free = json(await night.callTool({ name: 'list_feedback', arguments: { assignee: 'none' } }));
    assert.ok(free.items.some((item: { id: string }) => item.id === id));
    const taken = json(await night.callTool({ name: 'claim_feedback', arguments: { id } }));
    assert.equal(taken.assignee, 'Night agent');
    const refused = await ci.callTool({ name: 'claim_feedback', arguments: { id } });
    assert.equal(refused.isError, true);
    assert.match((refused.content as Text[])[0]?.text ?? '', /Night agent is already on this comment/);
    // The lead hands another one to the CI agent: its wait for its own work wakes.
    const { id: handed } = await createComment(t.app, admin, project.key, 'For CI');
    const ciId = (await call(t.app, 'GET', '/api/workspace/members', { token: admin.token })).body.items.find(
      (m: { name: string }) => m.name === 'CI agent',
    ).id;
    await call(t.app, 'PUT', `/api/comments/${handed}/assignee`, { token: admin.token, body: { assigneeId: ciId } });
    const woke = json(await waiting);
    assert.deepEqual(
      woke.items.map((item: { id: string; assignee: string }) => [item.id, item.assignee]),
      [[handed, 'CI agent']],
    );
  });

  test('bad input and refused transitions come back as tool errors, and write nothing', async () => {
    const client = await connect();
    const { id } = await createComment(t.app, admin, project.key, 'Still open');
    const noSha = await client.callTool({ name: 'apply_fix', arguments: { id } });
    assert.equal(noSha.isError, true);
    assert.match(message(noSha), /Invalid arguments: .*commitSha/);
    const badSha = await client.callTool({ name: 'apply_fix', arguments: { id, commitSha: 'not-a-sha' } });
    assert.equal(badSha.isError, true);
    assert.match(message(badSha), /400 .*commitSha/);
    const reopenOpen = await client.callTool({ name: 'reopen', arguments: { id } });
    assert.equal(reopenOpen.isError, true);
    assert.match(message(reopenOpen), /409 .*Only an applied comment can be reopened/);
    const unknown = await client.callTool({ name: 'delete_everything', arguments: {} });
    assert.equal(unknown.isError, true);
    const stored = (await call(t.app, 'GET', `/api/comments/${id}`, { token: admin.token })).body;
    assert.equal(stored.status, 'open');
    assert.equal(stored.commitSha, null);
  });

  test("tenancy: another workspace's key cannot open this project nor read its comments", async () => {
    const stranger = await signUp(t.app, 'Stranger');
    const strangerKey = await apiKeyOf(t, stranger);
    await assert.rejects(connect(strangerKey, project.key), /404|No project/);
    const own = await createProject(t.app, stranger);
    const strangerAgent = await connect(strangerKey, own.key);
    const { id } = await createComment(t.app, admin, project.key, 'Not for strangers');
    const read = await strangerAgent.callTool({ name: 'get_feedback', arguments: { id } });
    assert.equal(read.isError, true);
    assert.match(message(read), /404/);
    const archive = await strangerAgent.callTool({ name: 'archive', arguments: { id } });
    assert.equal(archive.isError, true);
    const listed = json(await strangerAgent.callTool({ name: 'list_feedback', arguments: {} }));
    assert.deepEqual(listed.items, []);
    assert.equal((await call(t.app, 'GET', `/api/comments/${id}`, { token: admin.token })).body.status, 'open');
  });

  test('HTTP: an API key is required (no token 401, a session 403, a client has none); project named; POST only', async () => {
    const path = `/mcp?project=${project.key}`;
    assert.equal((await post(base, path, {})).status, 401);
    const session = await post(base, path, { authorization: `Bearer ${member.token}` });
    assert.equal(session.status, 403);
    assert.match(((await session.json()) as { detail: string }).detail, /API key/);
    const client = await addClient(t.app, admin);
    assert.equal((await post(base, path, { authorization: `Bearer ${client.token}` })).status, 403);
    const noProject = await post(base, '/mcp', { authorization: `Bearer ${apiKey}` });
    assert.equal(noProject.status, 400);
    assert.match(((await noProject.json()) as { detail: string }).detail, /project/);
    for (const method of ['GET', 'DELETE']) {
      const refused = await fetch(`${base}${path}`, { method, headers: { authorization: `Bearer ${apiKey}` } });
      assert.equal(refused.status, 405);
      assert.equal(refused.headers.get('allow'), 'POST');
    }
  });

  test('get_feedback gives the steps that led to a comment as sentences, not the actions they were read from', async () => {
    const client = await connect();
    const at = (second: number) => `2026-11-22T10:00:0${second}.000Z`;
    const created = await call(t.app, 'POST', `/api/projects/${project.key}/comments`, {
      token: member.token,
      body: {
        body: 'Ordering fails',
        pageUrl: 'https://app.example.test/pricing',
        anchor: { selector: '#team button', x: 1, y: 1, name: 'Team $29' },
        context: {
          ...capturedContext,
          actions: [
            { kind: 'open', at: at(1), path: '/pricing' },
            { kind: 'press', at: at(2), name: 'Choose Team' },
          ],
          requests: [
            { method: 'POST', url: 'https://app.example.test/api/orders', status: null, durationMs: 9, at: at(3) },
          ],
        },
      },
    });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    const feedback = json(await client.callTool({ name: 'get_feedback', arguments: { id: created.body.id } }));
    assert.deepEqual(feedback.steps, [
      'Opened /pricing',
      'Pressed “Choose Team”',
      'Request POST /api/orders got no answer',
      'Pinned “Team $29”',
    ]);
    assert.equal(feedback.context.actions, undefined);
    assert.equal(feedback.context.requests.length, 1, 'the requests stay, with their durations');
  });

  test('HTTP: Origin and Host are checked against DNS rebinding; loopback and IP addresses pass', async () => {
    const path = `/mcp?project=${project.key}`;
    const auth = { authorization: `Bearer ${apiKey}` };
    assert.equal((await post(base, path, auth)).status, 200, 'an agent: no Origin, an IP address');
    assert.equal((await post(base, path, { ...auth, origin: 'http://localhost:6274' })).status, 200, 'a local tool');
    const foreign = await post(base, path, { ...auth, origin: 'https://evil.example' });
    assert.equal(foreign.status, 403);
    assert.match(((await foreign.json()) as { detail: string }).detail, /evil\.example/);
    const rebound = await t.app.inject({
      method: 'POST',
      url: path,
      headers: {
        ...auth,
        host: 'evil.example:3000',
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
      },
      payload: { jsonrpc: '2.0', id: 1, method: 'tools/list' },
    });
    assert.equal(rebound.statusCode, 403);
    assert.match(rebound.json().detail, /SVC_PUBLIC_URL/);
  });
});

describe('/mcp behind a public name (SVC_PUBLIC_URL), and closing', () => {
  let t: TestApp;
  let apiKey: string;
  let project: { key: string };
  before(async () => {
    t = await createTestApp({ publicUrl: 'https://feedback.example.com' });
    const admin = await signUp(t.app);
    project = await createProject(t.app, admin);
    apiKey = await apiKeyOf(t, admin);
  });
  after(() => t.close());

  test('the public name and its pages are accepted; another name is not', async () => {
    const request = (headers: Record<string, string>) =>
      t.app.inject({
        method: 'POST',
        url: `/mcp?project=${project.key}`,
        headers: {
          authorization: `Bearer ${apiKey}`,
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          ...headers,
        },
        payload: { jsonrpc: '2.0', id: 1, method: 'tools/list' },
      });
    assert.equal((await request({ host: 'feedback.example.com' })).statusCode, 200);
    assert.equal(
      (await request({ host: 'feedback.example.com', origin: 'https://feedback.example.com' })).statusCode,
      200,
    );
    assert.equal((await request({ host: 'other.example.com' })).statusCode, 403);
    assert.equal(
      (await request({ host: 'feedback.example.com', origin: 'https://other.example.com' })).statusCode,
      403,
    );
  });

  test('closing the server answers a waiting agent at once', async () => {
    const base = await listen(t);
    const client = new Client({ name: 'test-agent', version: '1.0.0' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${base}/mcp?project=${project.key}`), {
        requestInit: { headers: { authorization: `Bearer ${apiKey}` } },
      }),
    );
    const { cursor } = json(await client.callTool({ name: 'wait_for_feedback', arguments: {} }));
    const waiting = client.callTool({ name: 'wait_for_feedback', arguments: { cursor, wait: 25 } });
    await waitersAre(t.app, 1);
    const started = Date.now();
    await t.app.close();
    const answer = json(await waiting);
    assert.deepEqual(answer.items, []);
    assert.ok(Date.now() - started < 3000, `answered in ${Date.now() - started} ms`);
    await client.close();
  });
});
