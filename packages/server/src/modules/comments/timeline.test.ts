import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { TimelineEvent } from '@svc/contract';
import { fixStory } from '@svc/contract/vocabulary';
import {
  addClient,
  addMember,
  call,
  createComment,
  createProject,
  createTestApp,
  dialect,
  type Member,
  signUp,
  type TestApp,
} from '../../../test/helpers.js';
import { cleanPng } from '../../../test/images.js';
import type { Actor } from '../../actor.js';
import { inTransaction } from '../../db/transaction.js';
import { fire } from './lifecycle.js';

const COMMIT = 'a1b2c3d4e5f6a7b8c9d0a1b2c3d4e5f6a7b8c9d0';
const OTHER = 'ffffeeee00001111222233334444555566667777';
const BUILD = '9f1c2e0aa11bb22cc33dd44ee55ff66778899001';
const PNG = cleanPng;

type Event = TimelineEvent;

describe(`each comment's timeline (${dialect})`, () => {
  let t: TestApp;
  let admin: Member;
  let dana: Member;
  let cleo: Member;
  let apiKey: string;
  let project: { key: string };

  before(async () => {
    t = await createTestApp();
    admin = await signUp(t.app);
    dana = await addMember(t.app, admin, 'member', 'Dana Dev');
    cleo = await addClient(t.app, admin, undefined, 'Cleo Client');
    project = await createProject(t.app, admin);
    apiKey = (await call(t.app, 'POST', '/api/me/api-keys', { token: dana.token, body: { name: 'ci' } })).body.key;
  });
  after(() => t.close());

  const timeline = async (id: string): Promise<Event[]> =>
    (await call(t.app, 'GET', `/api/comments/${id}`, { token: admin.token })).body.timeline;
  const post = (id: string, path: string, token: string, body?: unknown, headers?: Record<string, string>) =>
    call(t.app, 'POST', `/api/comments/${id}/${path}`, { token, body, headers });

  test('every change writes one event: who, through what, which commit and build, the note', async () => {
    const { id } = await createComment(t.app, cleo, project.key);
    const expect: Partial<Event>[] = [{ kind: 'created', by: { id: cleo.id, name: 'Cleo Client' }, via: 'person' }];
    const check = async (step: string) => {
      const events = await timeline(id);
      assert.equal(events.length, expect.length, `${step}: ${events.map((e) => e.kind).join(', ')}`);
      expect.forEach((wanted, index) => {
        const event = events[index] as Event;
        for (const [field, value] of Object.entries(wanted)) {
          assert.deepEqual(event[field as keyof Event], value, `${step}: event ${index} ${field}`);
        }
        assert.equal(event.derived, false);
      });
    };
    await check('created');

    assert.equal((await post(id, 'replies', dana.token, { body: 'Which  browser?\nChrome?' })).status, 201);
    expect.push({ kind: 'replied', note: 'Which browser? Chrome?' });
    await check('replied');

    assert.equal((await post(id, 'apply', apiKey, { commitSha: COMMIT })).status, 200);
    expect.push({ kind: 'applied', via: 'api_key', commitSha: COMMIT, by: { id: dana.id, name: 'Dana Dev' } });
    await check('applied with an API key');

    const build = await call(t.app, 'POST', `/api/projects/${project.key}/builds`, {
      token: admin.token,
      body: { sha: BUILD, containsCommitShas: [COMMIT] },
    });
    assert.equal(build.status, 201, JSON.stringify(build.body));
    expect.push({ kind: 'live', buildSha: BUILD, by: { id: admin.id, name: 'Ada Admin' } });
    await check('Live');

    assert.equal((await post(id, 'verify', cleo.token, { ok: false, note: '  Still wraps ' })).status, 200);
    expect.push({
      kind: 'not_fixed',
      note: 'Still wraps',
      commitSha: COMMIT,
      by: { id: cleo.id, name: 'Cleo Client' },
    });
    await check('not fixed (its reply "Not fixed: …" is no second event)');

    assert.equal((await post(id, 'apply', dana.token, { commitSha: OTHER }, { 'x-svc-via': 'mcp' })).status, 200);
    expect.push({ kind: 'applied', via: 'mcp', commitSha: OTHER });
    const reapplied = await post(id, 'apply', dana.token, { commitSha: OTHER, commitUrl: 'https://git.test/c/1' });
    assert.equal(reapplied.status, 200);
    expect.push({ kind: 'reapplied', via: 'person', commitSha: OTHER });
    await check('applied through MCP, then applied again with a link');

    assert.equal((await post(id, 'verify', cleo.token, { ok: true })).status, 200);
    assert.equal((await post(id, 'verify', cleo.token, { ok: true })).status, 200);
    expect.push({ kind: 'verified', commitSha: OTHER });
    await check('verified (twice: one event, as nothing changed the second time)');

    assert.equal((await post(id, 'reopen', dana.token)).status, 200);
    expect.push({ kind: 'reopened', by: { id: dana.id, name: 'Dana Dev' } });
    const moved = await call(t.app, 'PUT', `/api/comments/${id}/anchor`, {
      token: cleo.token,
      body: { anchor: { selector: 'main > h2', x: 1, y: 2 } },
    });
    assert.equal(moved.status, 200);
    expect.push({ kind: 'repinned' });
    const shot = await t.app.inject({
      method: 'PUT',
      url: `/api/comments/${id}/screenshot`,
      headers: { authorization: `Bearer ${cleo.token}`, 'content-type': 'image/png' },
      payload: PNG,
    });
    assert.equal(shot.statusCode, 200);
    expect.push({ kind: 'screenshot_added' });
    assert.equal((await post(id, 'archive', dana.token)).status, 200);
    assert.equal((await post(id, 'archive', dana.token)).status, 200);
    expect.push({ kind: 'archived' });
    await check('reopened, pin moved, screenshot, archived (twice: one event)');

    const events = await timeline(id);
    const ats = events.map((e) => Date.parse(e.at));
    assert.deepEqual(
      ats,
      [...ats].sort((a, b) => a - b),
      'oldest first',
    );
  });

  test('refused changes write no event', async () => {
    const { id } = await createComment(t.app, cleo, project.key);
    assert.equal((await post(id, 'verify', cleo.token, { ok: true })).status, 409);
    assert.equal((await post(id, 'apply', cleo.token, { commitSha: COMMIT })).status, 403);
    assert.equal((await post(id, 'apply', dana.token, { commitSha: 'not a sha' })).status, 400);
    assert.deepEqual(
      (await timeline(id)).map((e) => e.kind),
      ['created'],
    );
  });

  test('a transition whose transaction rolls back leaves no event, and no change', async () => {
    const { id } = await createComment(t.app, cleo, project.key);
    await post(id, 'apply', dana.token, { commitSha: COMMIT });
    const actor: Actor = {
      id: dana.id,
      workspaceId: dana.workspaceId,
      name: 'Dana Dev',
      role: 'member',
      projectId: null,
      credential: { kind: 'session', id: 'ses_x', hash: '', lastUsedAt: 0, expiresAt: Infinity, idleMs: Infinity },
    };
    const events = { raise: async () => {}, changed: async () => {} };
    await assert.rejects(
      inTransaction(t.app.database.db, async (trx) => {
        const reopened = await fire(
          trx,
          { database: t.app.database, events, clock: t.app.ctx.clock },
          actor,
          'reopen',
          id,
          undefined,
        );
        assert.equal(reopened?.status, 'open');
        throw new Error('the rest of the change failed');
      }),
      /the rest of the change failed/,
    );
    const comment = (await call(t.app, 'GET', `/api/comments/${id}`, { token: admin.token })).body;
    assert.equal(comment.status, 'applied');
    assert.deepEqual(
      comment.timeline.map((e: Event) => e.kind),
      ['created', 'applied'],
    );
  });

  test('the story of the latest fix in one line, as every client shows it', async () => {
    const { id } = await createComment(t.app, cleo, project.key);
    await post(id, 'apply', dana.token, { commitSha: COMMIT });
    await call(t.app, 'POST', `/api/projects/${project.key}/builds`, {
      token: admin.token,
      body: { sha: OTHER, containsCommitShas: [COMMIT] },
    });
    await post(id, 'verify', cleo.token, { ok: true });
    const story = fixStory(await timeline(id));
    assert.match(
      story ?? '',
      /^Applied by Dana Dev in a1b2c3d · Live (under a minute|\d+ min) later in build ffffeee · Verified by Cleo Client$/,
    );
    const { id: fresh } = await createComment(t.app, cleo, project.key);
    assert.equal(fixStory(await timeline(fresh)), null);
  });

  test('another workspace reads no timeline; deleting a comment deletes its events', async () => {
    const { id } = await createComment(t.app, cleo, project.key);
    const stranger = await signUp(t.app, 'Sam Stranger');
    assert.equal((await call(t.app, 'GET', `/api/comments/${id}`, { token: stranger.token })).status, 404);
    assert.equal((await call(t.app, 'DELETE', `/api/comments/${id}`, { token: cleo.token })).status, 204);
    const left = await t.app.database.db
      .selectFrom('comment_events')
      .select('id')
      .where('comment_id', '=', id)
      .execute();
    assert.equal(left.length, 0);
  });
});
