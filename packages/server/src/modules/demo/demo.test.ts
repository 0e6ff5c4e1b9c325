import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { call, createTestApp, type TestApp } from '../../../test/helpers.js';
import { type DemoCredentials, seedDemoIfEmpty } from './seed.js';

describe('the demo workspace: a few weeks of a team’s loop, as a newcomer first sees it', () => {
  let t: TestApp;
  let demo: DemoCredentials;
  let token: string;
  before(async () => {
    t = await createTestApp();
    const seeded = await seedDemoIfEmpty(t.app.ctx, ['http://demo.test'], 'http://demo.test/demo');
    assert.ok(seeded);
    demo = seeded;
    token = demo.apiKey;
  });
  after(() => t.close());

  test('Insights show comments written over weeks, fixed by a person and by an agent, Live, verified, one sent back', async () => {
    const insights = (await call(t.app, 'GET', '/api/workspace/insights?days=30', { token })).body;
    const written = insights.backlog.days.filter((day: { created: number }) => day.created > 0);
    assert.ok(written.length >= 6, `comments written on ${written.length} days`);
    assert.equal(insights.backlog.open, 2, 'two still open');
    const row = (who: string) => insights.rows.find((r: { who: string }) => r.who === who);
    assert.ok(row('person').fixes >= 3, 'fixed by a person');
    assert.ok(row('mcp').fixes >= 2, 'fixed by an agent');
    assert.equal(row('everyone').sentBack, 1, 'one sent back');
    assert.equal(row('everyone').verified, 3);
    assert.ok(row('everyone').toFix.median > 0 && row('everyone').toLive.median > 0);
    assert.equal(insights.liveUnverified.count, 2, 'two Live, waiting for their verdict');
  });

  test('the comments and the admin’s inbox tell the same story', async () => {
    const comments = (await call(t.app, 'GET', `/api/comments?project=${demo.projectKey}&limit=50`, { token })).body;
    assert.equal(comments.items.length, 7);
    const pinned = comments.items.filter((c: { anchor: unknown }) => c.anchor);
    assert.equal(pinned.length, 1, 'one pinned on the demo page');
    const inbox = (await call(t.app, 'GET', '/api/me/notifications', { token })).body;
    assert.ok(inbox.items.length >= 2, `${inbox.items.length} notifications`);
  });

  test('a database with data gets no demo', async () => {
    assert.equal(await seedDemoIfEmpty(t.app.ctx, [], 'http://demo.test/demo'), null);
  });
});
