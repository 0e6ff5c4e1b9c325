import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Insights, InsightsRow } from '@svc/contract';
import {
  addClient,
  addMember,
  call,
  createComment,
  createProject,
  createTestApp,
  dialect,
  type Member,
  manualClock,
  signUp,
  type TestApp,
} from '../../../test/helpers.js';
import type { Actor } from '../../actor.js';
import { newId } from '../../ids.js';
import { remeasure } from '../comments/measures.js';
import { readInsights } from './insights.js';

const HOUR = 60 * 60 * 1000;
const DAY = 24 * HOUR;
/** The fixture's now: noon, so that whole days back stay on their date. */
const NOW = Date.parse('2026-11-20T12:00:00.000Z');
const COMMIT = 'a1b2c3d4e5f6a7b8c9d0a1b2c3d4e5f6a7b8c9d0';

type Kind = 'created' | 'applied' | 'reapplied' | 'live' | 'verified' | 'not_fixed' | 'reopened' | 'archived';
type Via = 'person' | 'api_key' | 'mcp';
/** One step of a fixture comment's history: when (ms before NOW), what, and through what. */
type Step = [ago: number, kind: Kind, via?: Via];

describe(`insights (${dialect})`, () => {
  let t: TestApp;
  let admin: Member;
  let stranger: Member;
  let project: { id: string; key: string };
  let other: { id: string; key: string };
  let actor: Actor;

  before(async () => {
    t = await createTestApp();
    admin = await signUp(t.app);
    stranger = await signUp(t.app, 'Sam Stranger');
    project = await createProject(t.app, admin);
    other = await createProject(t.app, admin);
    actor = {
      id: admin.id,
      workspaceId: admin.workspaceId,
      name: 'Ada Admin',
      role: 'admin',
      projectId: null,
      credential: { kind: 'session', id: 'ses_1', hash: '', lastUsedAt: 0, expiresAt: Infinity, idleMs: Infinity },
    };
  });
  after(() => t.close());

  /** A comment whose whole timeline is `steps` (its row's columns agreeing with them), measured as a change would. */
  const history = async (owner: Member, key: string, status: 'open' | 'applied' | 'archived', steps: Step[]) => {
    const { id } = await createComment(t.app, owner, key, `Comment ${steps.length} ${status}`);
    const db = t.app.database.db;
    const at = (ago: number) => new Date(NOW - ago).toISOString();
    const row = await db.selectFrom('comments').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    const last = (kind: Kind) => steps.filter((step) => step[1] === kind).at(-1);
    const live = last('live');
    const verified = last('verified');
    await db
      .updateTable('comments')
      .set({
        status,
        created_at: at(steps[0]?.[0] ?? 0),
        commit_sha: status === 'open' ? null : COMMIT,
        deployed_at: live ? at(live[0]) : null,
        verified_at: verified ? at(verified[0]) : null,
      })
      .where('id', '=', id)
      .execute();
    await db.deleteFrom('comment_events').where('comment_id', '=', id).execute();
    for (const [ago, kind, via] of steps) {
      await db
        .insertInto('comment_events')
        .values({
          id: newId('evt'),
          workspace_id: row.workspace_id,
          project_id: row.project_id,
          comment_id: id,
          kind,
          actor_id: owner.id,
          via: via ?? 'person',
          // Each fix names the commit its comment records: one without a commit is Live at once, measured apart.
          commit_sha: kind === 'applied' || kind === 'reapplied' ? COMMIT : null,
          build_sha: null,
          note: null,
          derived: 0,
          created_at: at(ago),
        })
        .execute();
    }
    await remeasure(db, row.workspace_id, [id]);
    return id;
  };

  const row = (insights: Insights, who: InsightsRow['who']) => {
    const found = insights.rows.find((r) => r.who === who);
    assert.ok(found, who);
    return found;
  };
  const spread = (count: number, median: number | null, p90: number | null) => ({ count, median, p90 });
  /** The backlog by day ('MM-DD'): open at its end, written, fixed. */
  const byDayOf = (insights: Insights) =>
    Object.fromEntries(insights.backlog.days.map((d) => [d.day.slice(5), [d.open, d.created, d.fixed]]));

  test('figures of a hand-computed fixture: backlog by day, waits, fixes sent back, first time right, what is stuck', async () => {
    // c1: fixed by a person, Live, verified: right the first time.
    await history(admin, project.key, 'applied', [
      [10 * DAY, 'created'],
      [9 * DAY, 'applied', 'person'],
      [8 * DAY, 'live'],
      [7 * DAY + HOUR, 'verified', 'person'],
    ]);
    // c2: an API key's fix rejected, fixed again, Live, verified.
    await history(admin, project.key, 'applied', [
      [6 * DAY, 'created'],
      [5 * DAY, 'applied', 'api_key'],
      [4 * DAY, 'not_fixed'],
      [3 * DAY, 'applied', 'api_key'],
      [2 * DAY, 'live'],
      [DAY, 'verified'],
    ]);
    // c3: an agent's fix, Live, never verified.
    const c3 = await history(admin, project.key, 'applied', [
      [5 * DAY, 'created'],
      [5 * DAY - 2 * HOUR, 'applied', 'mcp'],
      [3 * DAY, 'live'],
    ]);
    // c4: open since before them all.
    const c4 = await history(admin, project.key, 'open', [[20 * DAY, 'created']]);
    // c5: a person's fix, reopened: open again.
    const c5 = await history(admin, project.key, 'open', [
      [5 * DAY, 'created'],
      [2 * DAY, 'applied', 'person'],
      [DAY, 'reopened'],
    ]);
    // c6: archived while open; c7: fixed before the period; c8: archived once fixed (the backlog had already lost it).
    await history(admin, project.key, 'archived', [
      [2 * DAY, 'created'],
      [DAY, 'archived'],
    ]);
    await history(admin, project.key, 'applied', [
      [40 * DAY, 'created'],
      [35 * DAY, 'applied', 'person'],
    ]);
    await history(admin, project.key, 'archived', [
      [8 * DAY, 'created'],
      [7 * DAY - HOUR, 'applied', 'person'],
      [6 * DAY, 'archived'],
    ]);
    // Neither another project's nor another workspace's count for this project.
    await history(admin, other.key, 'open', [[3 * DAY, 'created']]);
    const theirs = await createProject(t.app, stranger);
    await history(stranger, theirs.key, 'applied', [
      [3 * DAY, 'created'],
      [2 * DAY, 'applied', 'person'],
    ]);

    const month = await readInsights(t.app.database, actor, {
      projectId: project.id,
      projectKey: project.key,
      days: 30,
      now: NOW,
    });
    assert.equal(month.from, '2026-10-21T12:00:00.000Z');
    assert.equal(month.to, '2026-11-20T12:00:00.000Z');
    assert.equal(month.backlog.open, 2);
    assert.equal(month.backlog.days.length, 31);
    const byDay = byDayOf(month);
    assert.deepEqual(byDay['10-21'], [0, 0, 0]);
    assert.deepEqual(byDay['10-30'], [0, 0, 0]);
    assert.deepEqual(byDay['10-31'], [1, 1, 0]);
    assert.deepEqual(byDay['11-10'], [2, 1, 0]);
    assert.deepEqual(byDay['11-11'], [1, 0, 1]);
    assert.deepEqual(byDay['11-12'], [2, 1, 0]);
    assert.deepEqual(byDay['11-13'], [1, 0, 1]);
    assert.deepEqual(byDay['11-14'], [2, 1, 0]);
    assert.deepEqual(byDay['11-15'], [2, 2, 2]);
    assert.deepEqual(byDay['11-16'], [3, 0, 0]);
    assert.deepEqual(byDay['11-17'], [2, 0, 1]);
    assert.deepEqual(byDay['11-18'], [2, 1, 1]);
    assert.deepEqual(byDay['11-19'], [2, 0, 0]);
    assert.deepEqual(byDay['11-20'], [2, 0, 0]);

    // Created → first fix: c3 2 h (mcp); c1 24 h, c8 25 h, c5 72 h (person); c2 24 h (api_key, its second fix not counted).
    const everyone = row(month, 'everyone');
    assert.deepEqual(everyone.toFix, spread(5, 24 * HOUR, 72 * HOUR));
    assert.deepEqual(row(month, 'person').toFix, spread(3, 25 * HOUR, 72 * HOUR));
    assert.deepEqual(row(month, 'api_key').toFix, spread(1, 24 * HOUR, 24 * HOUR));
    assert.deepEqual(row(month, 'mcp').toFix, spread(1, 2 * HOUR, 2 * HOUR));
    // Latest fix → Live: c1 24 h (person), c2 24 h from its second fix (api_key), c3 46 h (mcp).
    assert.deepEqual(everyone.toLive, spread(3, 24 * HOUR, 46 * HOUR));
    assert.deepEqual(row(month, 'mcp').toLive, spread(1, 46 * HOUR, 46 * HOUR));
    // Live → verified: c1 23 h, c2 24 h; each counted for whose fix it verified.
    assert.deepEqual(everyone.toVerified, spread(2, 23 * HOUR, 24 * HOUR));
    assert.deepEqual(row(month, 'person').toVerified, spread(1, 23 * HOUR, 23 * HOUR));
    assert.deepEqual(row(month, 'api_key').toVerified, spread(1, 24 * HOUR, 24 * HOUR));
    assert.deepEqual(row(month, 'mcp').toVerified, spread(0, null, null));

    // Fixes: person c1, c5 (reopened), c8; api_key c2 twice (the first rejected); mcp c3.
    const fixes = (r: InsightsRow) => [
      r.fixes,
      r.sentBack,
      r.reopenRate,
      r.verified,
      r.firstTimeRight,
      r.firstTimeRightRate,
    ];
    assert.deepEqual(fixes(everyone), [6, 2, 2 / 6, 2, 1, 0.5]);
    assert.deepEqual(fixes(row(month, 'person')), [3, 1, 1 / 3, 1, 1, 1]);
    assert.deepEqual(fixes(row(month, 'api_key')), [2, 1, 0.5, 1, 0, 0]);
    assert.deepEqual(fixes(row(month, 'mcp')), [1, 0, 0, 0, 0, null]);

    assert.deepEqual(
      month.oldestWaiting.map((c) => [c.id, c.since]),
      [
        [c4, '2026-10-31T12:00:00.000Z'],
        [c5, '2026-11-15T12:00:00.000Z'],
      ],
    );
    assert.equal(month.oldestWaiting[0]?.projectKey, project.key);
    assert.equal(month.liveUnverified.count, 1);
    assert.deepEqual(
      month.liveUnverified.oldest.map((c) => [c.id, c.since]),
      [[c3, '2026-11-17T12:00:00.000Z']],
    );

    // A week: only what happened since Nov 13, noon.
    const week = await readInsights(t.app.database, actor, {
      projectId: project.id,
      projectKey: project.key,
      days: 7,
      now: NOW,
    });
    assert.equal(week.backlog.days.length, 8);
    assert.deepEqual(row(week, 'everyone').toFix, spread(4, 24 * HOUR, 72 * HOUR));
    assert.deepEqual(fixes(row(week, 'everyone')).slice(0, 5), [5, 2, 2 / 5, 1, 0]);

    // The whole workspace adds the other project's open comment, and nothing of the stranger's.
    const workspace = await readInsights(t.app.database, actor, {
      projectId: null,
      projectKey: null,
      days: 30,
      now: NOW,
    });
    assert.equal(workspace.backlog.open, 3);
    assert.equal(workspace.backlog.days.at(-4)?.created, 1);
    assert.deepEqual(fixes(row(workspace, 'everyone')), fixes(everyone));

    // Folding the deltas into day and month rows changes no figure, nor does folding twice.
    const read = (days: number, projectId: string | null) =>
      readInsights(t.app.database, actor, {
        projectId,
        projectKey: projectId ? project.key : null,
        days,
        now: NOW,
      });
    const before = await Promise.all([read(30, project.id), read(7, project.id), read(30, null), read(366, null)]);
    assert.ok((await t.app.database.compactInsightRollups()) > 0);
    const deltasLeft = await t.app.database.db
      .selectFrom('insight_rollups')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('compacted', '=', 0)
      .executeTakeFirstOrThrow();
    assert.equal(Number(deltasLeft.n), 0);
    assert.deepEqual(
      await Promise.all([read(30, project.id), read(7, project.id), read(30, null), read(366, null)]),
      before,
    );
    // A change after the fold (c4 deleted, its events with it) is a delta against the folded rows.
    await call(t.app, 'DELETE', `/api/comments/${c4}`, { token: admin.token });
    const afterDelete = await read(30, project.id);
    assert.equal(afterDelete.backlog.open, 1);
    assert.deepEqual(byDayOf(afterDelete)['10-31'], [0, 0, 0], 'its arrival is gone from the backlog');
    await t.app.database.compactInsightRollups();
    assert.deepEqual(await read(30, project.id), afterDelete);
  });

  test('figures read while the deltas are folded are those of before the fold: fifty reads at once never see a fold half-done', async () => {
    const fresh = await createProject(t.app, admin);
    const read = (projectId: string | null) =>
      readInsights(t.app.database, actor, { projectId, projectKey: projectId ? fresh.key : null, days: 30, now: NOW });
    for (let round = 0; round < 5; round++) {
      // Deltas to fold: a comment written, fixed by a person, Live and verified.
      await history(admin, fresh.key, 'applied', [
        [5 * DAY, 'created'],
        [4 * DAY, 'applied'],
        [3 * DAY, 'live'],
        [2 * DAY, 'verified'],
      ]);
      const expected = [await read(fresh.id), await read(null)];
      assert.equal(row(expected[0] as Insights, 'person').fixes, round + 1);
      const [, ...reads] = await Promise.all([
        t.app.database.compactInsightRollups(),
        ...Array.from({ length: 25 }, () => [read(fresh.id), read(null)]).flat(),
      ]);
      for (const [i, insights] of reads.entries())
        assert.deepEqual(insights, expected[i % 2], `round ${round}, read ${i}`);
    }
  });

  test('who is on the open comments: how many each holds and since when, nobody counted too; applied ones are not', async () => {
    const fresh = await createProject(t.app, admin);
    const dana = await addMember(t.app, admin, 'member', 'Dana Dev');
    const agent = await call(t.app, 'POST', '/api/workspace/agents', { token: admin.token, body: { name: 'Bot' } });
    const made = [];
    for (let i = 0; i < 5; i++) made.push((await createComment(t.app, admin, fresh.key, `Open ${i}`)).id);
    const [first, second, third, fourth] = made as [string, string, string, string];
    await call(t.app, 'POST', `/api/comments/${first}/claim`, { token: dana.token });
    await call(t.app, 'POST', `/api/comments/${second}/claim`, { token: dana.token });
    await call(t.app, 'POST', `/api/comments/${third}/claim`, { token: agent.body.apiKey.key });
    // Applied: no longer waiting on whoever is on it.
    await call(t.app, 'POST', `/api/comments/${fourth}/claim`, { token: agent.body.apiKey.key });
    await call(t.app, 'POST', `/api/comments/${fourth}/apply`, { token: agent.body.apiKey.key, body: {} });
    const read = await call<Insights>(t.app, 'GET', `/api/workspace/insights?project=${fresh.key}&days=7`, {
      token: admin.token,
    });
    assert.deepEqual(
      read.body.assignees.map((row) => [row.assignee?.name ?? null, row.assignee?.agent ?? null, row.open]),
      [
        ['Dana Dev', false, 2],
        ['Bot', true, 1],
        [null, null, 1],
      ],
    );
    const danaRow = read.body.assignees.find((row) => row.assignee?.name === 'Dana Dev');
    const claimedFirst = (await call(t.app, 'GET', `/api/comments/${first}`, { token: admin.token })).body.assignedAt;
    assert.equal(danaRow?.waitingSince, claimedFirst, 'since the one held longest was claimed');
    assert.equal(read.body.assignees.find((row) => row.assignee === null)?.waitingSince, null);
  });

  test('a fix without a commit: Live at once, so no wait for a deploy is counted; its verdict waits from the fix; Live unverified until then', async () => {
    const clock = manualClock({ stopped: true });
    const own = await createTestApp({}, { clock });
    try {
      const lead = await signUp(own.app);
      const site = await createProject(own.app, lead);
      const insights = async () =>
        (
          await call<Insights>(own.app, 'GET', `/api/workspace/insights?project=${site.key}&days=7`, {
            token: lead.token,
          })
        ).body;
      // For comparison, a fix with a commit, Live 30 minutes later.
      const coded = await createComment(own.app, lead, site.key, 'The footer overlaps');
      await call(own.app, 'POST', `/api/comments/${coded.id}/apply`, {
        token: lead.token,
        body: { commitSha: COMMIT },
      });
      clock.advance(30 * 60_000);
      await call(own.app, 'POST', `/api/projects/${site.key}/builds`, {
        token: lead.token,
        body: { sha: 'b'.repeat(40), containsCommitShas: [COMMIT] },
      });
      // The copy, changed in the site's content system: no commit.
      const copy = await createComment(own.app, lead, site.key, 'Typo in the headline');
      clock.advance(HOUR);
      assert.equal(
        (await call(own.app, 'POST', `/api/comments/${copy.id}/apply`, { token: lead.token, body: {} })).status,
        200,
      );
      let read = await insights();
      assert.deepEqual(row(read, 'everyone').toLive, spread(1, 30 * 60_000, 30 * 60_000), 'the coded fix alone');
      assert.equal(row(read, 'everyone').fixes, 2);
      assert.deepEqual(row(read, 'everyone').toFix, spread(2, 0, HOUR));
      assert.equal(read.liveUnverified.count, 2, 'both wait for a verdict on the site');
      assert.ok(read.liveUnverified.oldest.some((c) => c.id === copy.id));
      clock.advance(2 * HOUR);
      await call(own.app, 'POST', `/api/comments/${copy.id}/verify`, { token: lead.token, body: { ok: true } });
      read = await insights();
      assert.deepEqual(row(read, 'everyone').toVerified, spread(1, 2 * HOUR, 2 * HOUR), 'from the fix, Live then');
      assert.equal(read.liveUnverified.count, 1);
    } finally {
      await own.close();
    }
  });

  test('through the API: a fix made with an API key counts as one; members read it, clients and strangers cannot', async () => {
    const fresh = await createProject(t.app, admin);
    const dana = await addMember(t.app, admin, 'member', 'Dana Dev');
    const key = (await call(t.app, 'POST', '/api/me/api-keys', { token: dana.token, body: { name: 'ci' } })).body.key;
    const { id } = await createComment(t.app, admin, fresh.key);
    const applied = await call(t.app, 'POST', `/api/comments/${id}/apply`, { token: key, body: { commitSha: COMMIT } });
    assert.equal(applied.status, 200, JSON.stringify(applied.body));

    const read = await call<Insights>(t.app, 'GET', `/api/workspace/insights?project=${fresh.key}&days=7`, {
      token: dana.token,
    });
    assert.equal(read.status, 200, JSON.stringify(read.body));
    assert.equal(read.body.project, fresh.key);
    assert.equal(read.body.days, 7);
    assert.equal(read.body.backlog.open, 0);
    assert.deepEqual(read.body.backlog.days.at(-1), { day: read.body.to.slice(0, 10), open: 0, created: 1, fixed: 1 });
    assert.equal(row(read.body, 'api_key').fixes, 1);
    assert.equal(row(read.body, 'api_key').toFix.count, 1);
    assert.equal(row(read.body, 'person').fixes, 0);

    const client = await addClient(t.app, admin);
    assert.equal((await call(t.app, 'GET', '/api/workspace/insights', { token: client.token })).status, 403);
    const elsewhere = await call(t.app, 'GET', `/api/workspace/insights?project=${fresh.key}`, {
      token: stranger.token,
    });
    assert.equal(elsewhere.status, 404);
    for (const bad of ['days=0', 'days=400', 'days=week', 'project=no%20such']) {
      const answer = await call(t.app, 'GET', `/api/workspace/insights?${bad}`, { token: admin.token });
      assert.ok([400, 404].includes(answer.status), `${bad}: ${answer.status}`);
    }
  });
});
