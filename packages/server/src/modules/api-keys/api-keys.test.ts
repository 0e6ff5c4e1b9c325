import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import {
  addMember,
  amid,
  call,
  createTestApp,
  type Member,
  RACE_POINTS,
  signUp,
  type TestApp,
} from '../../../test/helpers.js';

describe('API keys', () => {
  let t: TestApp;
  let admin: Member;
  before(async () => {
    t = await createTestApp();
    admin = await signUp(t.app);
  });
  after(() => t.close());

  test('API keys: shown once, listed without secret, act as their user, and a revoked key is refused at once', async () => {
    const created = await call(t.app, 'POST', '/api/me/api-keys', { token: admin.token, body: { name: 'CI deploy' } });
    assert.equal(created.status, 201);
    assert.match(created.body.key, /^svc_key_[A-Za-z0-9_-]{43}$/);
    assert.match(created.body.id, /^key_/);

    const listed = await call(t.app, 'GET', '/api/me/api-keys', { token: admin.token });
    const entry = listed.body.items.find((k: { id: string }) => k.id === created.body.id);
    assert.deepEqual(Object.keys(entry).sort(), ['createdAt', 'id', 'lastFour', 'lastUsedAt', 'name']);
    assert.equal(entry.lastFour, created.body.key.slice(-4));
    assert.equal(JSON.stringify(listed.body).includes(created.body.key), false);

    const me = await call(t.app, 'GET', '/api/me', { token: created.body.key });
    assert.equal(me.body.user.id, admin.id);
    const used = await call(t.app, 'GET', '/api/me/api-keys', { token: admin.token });
    assert.ok(used.body.items.find((k: { id: string }) => k.id === created.body.id).lastUsedAt);

    assert.equal(
      (await call(t.app, 'DELETE', `/api/me/api-keys/${created.body.id}`, { token: admin.token })).status,
      204,
    );
    assert.equal((await call(t.app, 'GET', '/api/me', { token: created.body.key })).status, 401);
    assert.equal(
      (await call(t.app, 'DELETE', `/api/me/api-keys/${created.body.id}`, { token: admin.token })).status,
      404,
    );
  });

  test('an API key cannot be logged out, only revoked', async () => {
    const created = await call(t.app, 'POST', '/api/me/api-keys', { token: admin.token, body: { name: 'k' } });
    const answer = await call(t.app, 'POST', '/api/auth/logout', { token: created.body.key });
    assert.equal(answer.status, 409);
    assert.equal((await call(t.app, 'GET', '/api/me', { token: created.body.key })).status, 200);
  });

  test("another user's API key, in the workspace or outside it, is 404 and stays valid", async () => {
    const created = await call(t.app, 'POST', '/api/me/api-keys', { token: admin.token, body: { name: 'mine' } });
    const member = await addMember(t.app, admin);
    const stranger = await signUp(t.app);
    for (const other of [member, stranger]) {
      const answer = await call(t.app, 'DELETE', `/api/me/api-keys/${created.body.id}`, { token: other.token });
      assert.equal(answer.status, 404);
    }
    assert.equal((await call(t.app, 'GET', '/api/me', { token: created.body.key })).status, 200);
  });
});

describe('API keys under concurrency, on either database', () => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp({ limits: { apiKeysPerHour: 100_000, apiKeysPerUser: 20 } });
  });
  after(() => t.close());

  test('sixty keys asked for at once by one person allowed twenty: exactly twenty are made, forty told of the cap', async () => {
    const owner = await signUp(t.app, 'Key Owner');
    const answers = await Promise.all(
      Array.from({ length: 60 }, (_, i) =>
        call(t.app, 'POST', '/api/me/api-keys', { token: owner.token, body: { name: `Key ${i}` } }),
      ),
    );
    assert.deepEqual(answers.map((a) => a.status).sort(), [
      ...Array.from({ length: 20 }, () => 201),
      ...Array.from({ length: 40 }, () => 409),
    ]);
    const held = await t.app.database.db.selectFrom('api_keys').select('id').where('user_id', '=', owner.id).execute();
    assert.equal(held.length, 20);
  });

  test('fifty keys made for an agent while an admin removes it: the removed agent holds none', async () => {
    const admin = await signUp(t.app, 'Agent Keeper');
    const other = await t.twin();
    for (const [round, answered] of RACE_POINTS.entries()) {
      const agent = await call(t.app, 'POST', '/api/workspace/agents', {
        token: admin.token,
        body: { name: `Leaving agent ${round}` },
      });
      const agentId = agent.body.agent.id as string;
      const { answers, meanwhile: removed } = await amid(
        Array.from(
          { length: 50 },
          (_, i) => () =>
            call(t.app, 'POST', `/api/workspace/agents/${agentId}/api-keys`, {
              token: admin.token,
              body: { name: `Key ${i}` },
            }),
        ),
        answered,
        () => call(other, 'DELETE', `/api/workspace/members/${agentId}`, { token: admin.token }),
      );
      assert.equal(removed.status, 204);
      for (const answer of answers) assert.ok([201, 404, 409].includes(answer.status), JSON.stringify(answer.body));
      const held = await t.app.database.db.selectFrom('api_keys').select('id').where('user_id', '=', agentId).execute();
      assert.equal(held.length, 0, `round ${round}: the removed agent holds keys`);
    }
  });
});
