import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import {
  addClient,
  addMember,
  amid,
  call,
  createComment,
  createProject,
  createTestApp,
  type Member,
  RACE_POINTS,
  signUp,
  type TestApp,
} from '../../../test/helpers.js';

describe('priority and labels: the team triages, clients read', () => {
  let t: TestApp;
  let admin: Member;
  let member: Member;
  let project: { key: string };
  before(async () => {
    t = await createTestApp();
    admin = await signUp(t.app);
    member = await addMember(t.app, admin);
    project = await createProject(t.app, admin);
  });
  after(() => t.close());

  const label = async (name: string, color = 'red') => {
    const made = await call(t.app, 'POST', '/api/workspace/labels', { token: admin.token, body: { name, color } });
    assert.equal(made.status, 201, JSON.stringify(made.body));
    return made.body as { id: string; name: string; color: string };
  };
  const kinds = async (id: string) =>
    (await call(t.app, 'GET', `/api/comments/${id}`, { token: admin.token })).body.timeline.map(
      (e: { kind: string; note: string | null }) => [e.kind, e.note],
    );

  test("labels are the admin's to make: unique by name whatever its case, from the palette; the team lists them, clients do not", async () => {
    const bug = await label('Bug');
    assert.deepEqual(Object.keys(bug).sort(), ['color', 'id', 'name']);
    const twin = await call(t.app, 'POST', '/api/workspace/labels', {
      token: admin.token,
      body: { name: 'BUG', color: 'blue' },
    });
    assert.equal(twin.status, 409);
    const offPalette = await call(t.app, 'POST', '/api/workspace/labels', {
      token: admin.token,
      body: { name: 'Neon', color: '#00ff00' },
    });
    assert.equal(offPalette.status, 400);
    const byMember = await call(t.app, 'POST', '/api/workspace/labels', {
      token: member.token,
      body: { name: 'Mine', color: 'green' },
    });
    assert.equal(byMember.status, 403);
    const listed = await call(t.app, 'GET', '/api/workspace/labels', { token: member.token });
    assert.ok(listed.body.items.some((l: { id: string }) => l.id === bug.id));
    const client = await addClient(t.app, admin);
    assert.equal((await call(t.app, 'GET', '/api/workspace/labels', { token: client.token })).status, 403);
    const renamed = await call(t.app, 'PATCH', `/api/workspace/labels/${bug.id}`, {
      token: admin.token,
      body: { name: 'Defect', color: 'orange' },
    });
    assert.deepEqual(renamed.body, { id: bug.id, name: 'Defect', color: 'orange' });
    const stranger = await signUp(t.app, 'Stranger');
    const theirs = await call(t.app, 'PATCH', `/api/workspace/labels/${bug.id}`, {
      token: stranger.token,
      body: { name: 'Taken over' },
    });
    assert.equal(theirs.status, 404);
  });

  test('the team sets priority and labels; each change is on the timeline, the same again writes nothing; clients see them and set nothing', async () => {
    const design = await label('Design', 'purple');
    const copy = await label('Copy', 'teal');
    const { id } = await createComment(t.app, admin, project.key, 'Button colour is off');
    const fresh = (await call(t.app, 'GET', `/api/comments/${id}`, { token: member.token })).body;
    assert.equal(fresh.priority, 'none');
    assert.deepEqual(fresh.labels, []);
    assert.equal(fresh.can.triage, true);

    const urgent = await call(t.app, 'PUT', `/api/comments/${id}/priority`, {
      token: member.token,
      body: { priority: 'urgent' },
    });
    assert.equal(urgent.status, 200);
    assert.equal(urgent.body.priority, 'urgent');
    await call(t.app, 'PUT', `/api/comments/${id}/priority`, { token: member.token, body: { priority: 'urgent' } });
    const labelled = await call(t.app, 'PUT', `/api/comments/${id}/labels`, {
      token: member.token,
      body: { labelIds: [design.id, copy.id] },
    });
    assert.deepEqual(
      labelled.body.labels.map((l: { name: string }) => l.name),
      ['Copy', 'Design'],
      'by name',
    );
    await call(t.app, 'PUT', `/api/comments/${id}/labels`, {
      token: member.token,
      body: { labelIds: [copy.id, design.id] },
    });
    await call(t.app, 'PUT', `/api/comments/${id}/labels`, { token: member.token, body: { labelIds: [] } });
    assert.deepEqual(await kinds(id), [
      ['created', null],
      ['prioritized', 'urgent'],
      ['labeled', 'Copy\nDesign'],
      ['labeled', null],
    ]);
    const bad = await call(t.app, 'PUT', `/api/comments/${id}/priority`, {
      token: member.token,
      body: { priority: 'asap' },
    });
    assert.equal(bad.status, 400);

    const client = await addClient(t.app, admin, project.key);
    await call(t.app, 'PUT', `/api/comments/${id}/labels`, { token: member.token, body: { labelIds: [design.id] } });
    const seen = (await call(t.app, 'GET', `/api/comments/${id}`, { token: client.token })).body;
    assert.deepEqual(seen.labels, [{ id: design.id, name: 'Design', color: 'purple' }]);
    assert.equal(seen.priority, 'urgent');
    assert.equal(seen.can.triage, false);
    for (const [url, body] of [
      [`/api/comments/${id}/priority`, { priority: 'low' }],
      [`/api/comments/${id}/labels`, { labelIds: [] }],
    ] as const) {
      assert.equal((await call(t.app, 'PUT', url, { token: client.token, body })).status, 403);
    }
  });

  test("another workspace's label is refused as no label at all, and nothing is written", async () => {
    const stranger = await signUp(t.app, 'Other Admin');
    const theirs = await call(t.app, 'POST', '/api/workspace/labels', {
      token: stranger.token,
      body: { name: 'Theirs', color: 'gray' },
    });
    const mine = await label('Mine', 'green');
    const { id } = await createComment(t.app, admin, project.key, 'Not theirs to label');
    const refused = await call(t.app, 'PUT', `/api/comments/${id}/labels`, {
      token: member.token,
      body: { labelIds: [mine.id, theirs.body.id] },
    });
    assert.equal(refused.status, 400);
    assert.equal(refused.body.errors[0].path, '/labelIds/1');
    assert.deepEqual((await call(t.app, 'GET', `/api/comments/${id}`, { token: admin.token })).body.labels, []);
  });

  test('sort=priority: the most urgent first, the newest first within each, page after page', async () => {
    const own = await createProject(t.app, admin);
    const made: Record<string, string> = {};
    for (const [name, priority] of [
      ['low-1', 'low'],
      ['urgent-1', 'urgent'],
      ['none-1', 'none'],
      ['high-1', 'high'],
      ['urgent-2', 'urgent'],
      ['low-2', 'low'],
    ] as const) {
      const { id } = await createComment(t.app, admin, own.key, name);
      made[id] = name;
      await call(t.app, 'PUT', `/api/comments/${id}/priority`, { token: admin.token, body: { priority } });
    }
    const names: string[] = [];
    let cursor = '';
    do {
      const page = await call(t.app, 'GET', `/api/comments?project=${own.key}&sort=priority&limit=2${cursor}`, {
        token: member.token,
      });
      assert.equal(page.status, 200, JSON.stringify(page.body));
      names.push(...page.body.items.map((c: { id: string }) => made[c.id]));
      cursor = page.body.nextCursor ? `&cursor=${page.body.nextCursor}` : '';
    } while (cursor);
    assert.deepEqual(names, ['urgent-2', 'urgent-1', 'high-1', 'low-2', 'low-1', 'none-1']);
  });

  test('lists filter by priority and by label; a label deleted comes off every comment', async () => {
    const own = await createProject(t.app, admin);
    const ux = await label('UX', 'blue');
    const high = await createComment(t.app, admin, own.key, 'High one');
    const labelled = await createComment(t.app, admin, own.key, 'Labelled one');
    await createComment(t.app, admin, own.key, 'Plain one');
    await call(t.app, 'PUT', `/api/comments/${high.id}/priority`, { token: admin.token, body: { priority: 'high' } });
    await call(t.app, 'PUT', `/api/comments/${labelled.id}/labels`, {
      token: admin.token,
      body: { labelIds: [ux.id] },
    });
    const ids = async (url: string) =>
      (await call(t.app, 'GET', url, { token: member.token })).body.items.map((c: { id: string }) => c.id);
    assert.deepEqual(await ids(`/api/comments?project=${own.key}&priority=high`), [high.id]);
    assert.deepEqual(await ids(`/api/projects/${own.key}/comments?label=${ux.id}`), [labelled.id]);
    assert.deepEqual(await ids(`/api/comments?project=${own.key}&label=${ux.id}&priority=high`), []);
    // Pages of one label, newest first, in either order.
    const more = [
      await createComment(t.app, admin, own.key, 'Second'),
      await createComment(t.app, admin, own.key, 'Third'),
    ];
    for (const c of more) {
      await call(t.app, 'PUT', `/api/comments/${c.id}/labels`, { token: admin.token, body: { labelIds: [ux.id] } });
    }
    const first = await call(t.app, 'GET', `/api/comments?label=${ux.id}&limit=2`, { token: member.token });
    const second = await call(t.app, 'GET', `/api/comments?label=${ux.id}&limit=2&cursor=${first.body.nextCursor}`, {
      token: member.token,
    });
    assert.deepEqual(
      [...first.body.items, ...second.body.items].map((c: { id: string }) => c.id),
      [more[1]?.id, more[0]?.id, labelled.id],
    );
    assert.equal(second.body.nextCursor, null);
    const oldest = await ids(`/api/comments?label=${ux.id}&sort=oldest`);
    assert.deepEqual(oldest, [labelled.id, more[0]?.id, more[1]?.id]);
    assert.equal((await call(t.app, 'DELETE', `/api/workspace/labels/${ux.id}`, { token: admin.token })).status, 204);
    const after = (await call(t.app, 'GET', `/api/comments/${labelled.id}`, { token: admin.token })).body;
    assert.deepEqual(after.labels, []);
    assert.deepEqual(await ids(`/api/comments?project=${own.key}&label=${ux.id}`), []);
  });
});

describe('labels under concurrency: the cap, the unique name and the label put on a comment hold on either database', () => {
  let t: TestApp;
  let admin: Member;
  let project: { key: string };
  before(async () => {
    t = await createTestApp();
    admin = await signUp(t.app);
    project = await createProject(t.app, admin);
  });
  after(() => t.close());

  const create = (name: string, token = admin.token) =>
    call(t.app, 'POST', '/api/workspace/labels', { token, body: { name, color: 'gray' } });
  const statuses = (answers: { status: number }[]) => {
    const tally: Record<number, number> = {};
    for (const { status } of answers) tally[status] = (tally[status] ?? 0) + 1;
    return tally;
  };

  test('sixty creations at once, thirty past the cap of 100: exactly thirty are made, thirty told of the cap', async () => {
    const workspace = await signUp(t.app, 'Cap Admin');
    for (let i = 0; i < 70; i++) assert.equal((await create(`Before ${i}`, workspace.token)).status, 201);
    const answers = await Promise.all(Array.from({ length: 60 }, (_, i) => create(`At once ${i}`, workspace.token)));
    assert.deepEqual(statuses(answers), { 201: 30, 409: 30 });
    for (const refused of answers.filter((a) => a.status === 409)) assert.match(refused.body.detail, /at most 100/);
    const listed = await call(t.app, 'GET', '/api/workspace/labels', { token: workspace.token });
    assert.equal(listed.body.items.length, 100);
  });

  test('sixty creations of one name at once, in any case: one is made, fifty-nine are told it exists', async () => {
    const answers = await Promise.all(Array.from({ length: 60 }, (_, i) => create(i % 2 ? 'Duplicate' : 'DUPLICATE')));
    assert.deepEqual(statuses(answers), { 201: 1, 409: 59 });
    for (const refused of answers.filter((a) => a.status === 409)) {
      assert.match(refused.body.detail, /has a label named "Duplicate|DUPLICATE" already/i);
    }
  });

  test('sixty labels renamed to one name at once: one takes it, fifty-nine are told it exists', async () => {
    const made = [];
    for (let i = 0; i < 60; i++) made.push((await create(`Rename me ${i}`)).body as { id: string });
    const answers = await Promise.all(
      made.map((label) =>
        call(t.app, 'PATCH', `/api/workspace/labels/${label.id}`, { token: admin.token, body: { name: 'Winner' } }),
      ),
    );
    assert.deepEqual(statuses(answers), { 200: 1, 409: 59 });
  });

  test('a label deleted while fifty comments are given it: each is labelled before the deletion or refused, none fails', async () => {
    const comments: { id: string }[] = [];
    for (let i = 0; i < 50; i++) comments.push(await createComment(t.app, admin, project.key, `Labelled ${i}`));
    const other = await t.twin();
    for (const [round, answered] of RACE_POINTS.entries()) {
      const doomed = (await create(`Doomed ${round}`)).body as { id: string };
      const { answers, meanwhile: deleted } = await amid(
        comments.map(
          (c) => () =>
            call(t.app, 'PUT', `/api/comments/${c.id}/labels`, {
              token: admin.token,
              body: { labelIds: [doomed.id] },
            }),
        ),
        answered,
        () => call(other, 'DELETE', `/api/workspace/labels/${doomed.id}`, { token: admin.token }),
      );
      assert.equal(deleted.status, 204);
      assert.deepEqual(
        answers.filter((a) => ![200, 400].includes(a.status)),
        [],
        `round ${round}: ${JSON.stringify(statuses(answers))}`,
      );
      for (const refused of answers.filter((a) => a.status === 400)) {
        assert.equal(refused.body.errors[0].path, '/labelIds/0');
      }
      const left = await t.app.database.db
        .selectFrom('comment_labels')
        .select('comment_id')
        .where('label_id', '=', doomed.id)
        .execute();
      assert.deepEqual(left, []);
    }
  });
});
