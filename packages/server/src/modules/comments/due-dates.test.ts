import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import {
  addClient,
  addMember,
  call,
  createComment,
  createProject,
  createTestApp,
  type Member,
  manualClock,
  signUp,
  type TestApp,
} from '../../../test/helpers.js';

/** The calendar day `days` after the one `ms` falls on, in UTC (YYYY-MM-DD). */
const dayAfter = (ms: number, days: number) => new Date(ms + days * 86_400_000).toISOString().slice(0, 10);

describe('due dates', () => {
  let t: TestApp;
  let admin: Member;
  let member: Member;
  let client: Member;
  let site: { id: string; key: string };
  const clock = manualClock();
  before(async () => {
    t = await createTestApp({}, { clock });
    admin = await signUp(t.app);
    member = await addMember(t.app, admin);
    site = await createProject(t.app, admin);
    client = await addClient(t.app, admin, site.key);
  });
  after(() => t.close());

  const patch = (id: string, body: unknown, token = member.token) =>
    call(t.app, 'PATCH', `/api/comments/${id}`, { token, body });
  const read = async (id: string) => (await call(t.app, 'GET', `/api/comments/${id}`, { token: admin.token })).body;
  const dueEvents = async (id: string) =>
    ((await read(id)).timeline as { kind: string; note: string | null; by: { id: string } | null }[]).filter(
      (event) => event.kind === 'due_set',
    );

  test('a member sets a due date and clears it: the comment says it, its timeline records each change once', async () => {
    const { id } = await createComment(t.app, client, site.key);
    assert.equal((await read(id)).dueOn, null, 'none at first');
    const set = await patch(id, { dueOn: '2026-12-03' });
    assert.equal(set.status, 200, JSON.stringify(set.body));
    assert.equal(set.body.dueOn, '2026-12-03');
    assert.equal((await read(id)).dueOn, '2026-12-03');
    assert.equal((await patch(id, { dueOn: '2026-12-03' })).status, 200, 'the same day again');
    assert.equal((await patch(id, {})).body.dueOn, '2026-12-03', 'an empty patch changes nothing');
    const cleared = await patch(id, { dueOn: null });
    assert.equal(cleared.status, 200);
    assert.equal(cleared.body.dueOn, null);
    assert.deepEqual(
      (await dueEvents(id)).map((event) => [event.note, event.by?.id]),
      [
        ['2026-12-03', member.id],
        [null, member.id],
      ],
      'set, then cleared; the same day again and the empty patch record nothing',
    );
  });

  test('the CSV export has a column for it (the JSON Lines export carries `dueOn` as the API does)', async () => {
    const { id } = await createComment(t.app, client, site.key, 'Due in the spreadsheet');
    await patch(id, { dueOn: '2026-12-03' });
    const csv = await t.app.inject({
      method: 'GET',
      url: `/api/workspace/export?format=csv&project=${site.key}`,
      headers: { authorization: `Bearer ${admin.token}` },
    });
    assert.equal(csv.statusCode, 200);
    const [header = '', ...rows] = csv.body.slice(1).split('\r\n');
    const row = rows.find((line) => line.startsWith(id)) ?? '';
    assert.equal(row.split(',')[header.split(',').indexOf('due_on')], '2026-12-03');
    const jsonl = await t.app.inject({
      method: 'GET',
      url: `/api/workspace/export?project=${site.key}`,
      headers: { authorization: `Bearer ${admin.token}` },
    });
    const line = jsonl.body.split('\n').find((text) => text.includes(id)) ?? '{}';
    assert.equal(JSON.parse(line).dueOn, '2026-12-03');
  });

  test('a client may not set one (403, nothing written), and is told so by the comment’s abilities', async () => {
    const { id } = await createComment(t.app, client, site.key);
    const refused = await patch(id, { dueOn: '2026-12-03' }, client.token);
    assert.equal(refused.status, 403, JSON.stringify(refused.body));
    const seen = await call(t.app, 'GET', `/api/comments/${id}`, { token: client.token });
    assert.equal(seen.body.dueOn, null);
    assert.equal(seen.body.can.triage, false);
    assert.equal((await read(id)).can.triage, true, 'the team may');
    assert.deepEqual(await dueEvents(id), []);
  });

  test('a day that is not a calendar day YYYY-MM-DD is 400 naming the field, and nothing is written', async () => {
    const { id } = await createComment(t.app, client, site.key);
    await patch(id, { dueOn: '2026-11-30' });
    for (const bad of [
      '2026-02-30',
      '2025-02-29',
      '2026-13-01',
      '2026-12-3',
      '03/12/2026',
      '2026-12-03T00:00:00Z',
      '',
      20261203,
      true,
    ]) {
      const refused = await patch(id, { dueOn: bad });
      assert.equal(refused.status, 400, `${JSON.stringify(bad)}: ${JSON.stringify(refused.body)}`);
      assert.match(JSON.stringify(refused.body), /dueOn/, 'the answer names the field');
    }
    assert.equal((await patch(id, { dueOn: '2028-02-29' })).status, 200, 'a leap day is a day');
    const read_ = await read(id);
    assert.equal(read_.dueOn, '2028-02-29');
    assert.deepEqual(
      (await dueEvents(id)).map((event) => event.note),
      ['2026-11-30', '2028-02-29'],
      'nothing was written for the refused ones',
    );
  });

  test('lists filter by due date (due by, overdue) and sort by it, soonest first, the most urgent first within a day, those without one last, page by page', async () => {
    const project = await createProject(t.app, admin);
    const now = clock.now();
    const ids: Record<string, string> = {};
    for (const name of ['none', 'past', 'pastApplied', 'today', 'soon', 'later', 'none2', 'soon2']) {
      ids[name] = (await createComment(t.app, member, project.key, `Comment ${name}`)).id;
    }
    const due: Record<string, number> = { past: -2, pastApplied: -5, today: 0, soon: 3, later: 30, soon2: 3 };
    for (const [name, days] of Object.entries(due)) {
      assert.equal((await patch(ids[name] as string, { dueOn: dayAfter(now, days) })).status, 200);
    }
    await call(t.app, 'POST', `/api/comments/${ids.pastApplied}/apply`, { token: member.token, body: {} });
    // Within a day (and among those without one), the most urgent first.
    await call(t.app, 'PUT', `/api/comments/${ids.soon}/priority`, { token: member.token, body: { priority: 'high' } });
    await call(t.app, 'PUT', `/api/comments/${ids.none}/priority`, { token: member.token, body: { priority: 'low' } });
    const names = new Map(Object.entries(ids).map(([name, id]) => [id, name]));
    const list = async (url: string) => {
      const answer = await call(t.app, 'GET', url, { token: admin.token });
      assert.equal(answer.status, 200, JSON.stringify(answer.body));
      return answer.body as { items: { id: string }[]; nextCursor: string | null };
    };
    const named = (page: { items: { id: string }[] }) => page.items.map((c) => names.get(c.id));
    for (const base of [`/api/projects/${project.key}/comments?`, `/api/comments?project=${project.key}&`]) {
      assert.deepEqual(named(await list(`${base}overdue=true`)), ['past'], `${base}: overdue is open and past`);
      assert.deepEqual(
        named(await list(`${base}dueBy=${dayAfter(now, 3)}`)).sort(),
        ['past', 'pastApplied', 'soon', 'soon2', 'today'].sort(),
        `${base}: due on or before the day`,
      );
    }
    const sorted = ['pastApplied', 'past', 'today', 'soon', 'soon2', 'later', 'none', 'none2'];
    assert.deepEqual(named(await list(`/api/comments?project=${project.key}&sort=due`)), sorted);
    // Page by page, two at a time: the cursor goes on where the page ended, across the comments without a date too.
    const paged: (string | undefined)[] = [];
    let cursor: string | null = null;
    do {
      const page = await list(
        `/api/comments?project=${project.key}&sort=due&limit=2${cursor ? `&cursor=${cursor}` : ''}`,
      );
      paged.push(...named(page));
      cursor = page.nextCursor;
    } while (cursor);
    assert.deepEqual(paged, sorted);
    for (const bad of ['dueBy=2026-02-30', 'dueBy=soon', 'overdue=yes', 'sort=later']) {
      assert.equal((await call(t.app, 'GET', `/api/comments?${bad}`, { token: admin.token })).status, 400, bad);
    }
  });

  test('overdue counts from the server’s day: a comment due today is overdue once the clock passes midnight, in lists and insights', async () => {
    const project = await createProject(t.app, admin);
    const { id } = await createComment(t.app, member, project.key);
    await patch(id, { dueOn: dayAfter(clock.now(), 0) });
    const overdue = async () =>
      (await call(t.app, 'GET', `/api/comments?project=${project.key}&overdue=true`, { token: admin.token })).body.items
        .length;
    const counted = async () =>
      (await call(t.app, 'GET', `/api/workspace/insights?project=${project.key}`, { token: admin.token })).body.overdue;
    assert.equal(await overdue(), 0, 'due today is not overdue');
    assert.equal(await counted(), 0);
    clock.advance(86_400_000);
    assert.equal(await overdue(), 1, 'a day later it is');
    assert.equal(await counted(), 1, 'and insights count it');
    await call(t.app, 'POST', `/api/comments/${id}/apply`, { token: member.token, body: {} });
    assert.equal(await counted(), 0, 'a fixed comment is overdue no more');
  });

  test('50 people setting it at once: every change recorded in order, the comment holds the last', async () => {
    const { id } = await createComment(t.app, client, site.key);
    const days = Array.from({ length: 50 }, (_, i) => `2027-01-${String((i % 28) + 1).padStart(2, '0')}`);
    const answers = await Promise.all(days.map((day) => patch(id, { dueOn: day })));
    assert.ok(answers.every((answer) => answer.status === 200));
    const events = await dueEvents(id);
    const comment = await read(id);
    assert.equal(events.at(-1)?.note, comment.dueOn, 'the last event is the day it holds');
    for (let i = 1; i < events.length; i++) {
      assert.notEqual(events[i]?.note, events[i - 1]?.note, 'each event a change');
    }
  });
});
