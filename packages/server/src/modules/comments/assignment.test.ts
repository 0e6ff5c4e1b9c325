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
  createTestDatabase,
  dialect,
  type Member,
  RACE_POINTS,
  signUp,
  type TestApp,
  waitersAre,
} from '../../../test/helpers.js';
import { callServer, killRemainingServers, startServers } from '../../../test/server-process.js';

/** An agent of the admin's workspace, acting through its first key. */
async function addAgent(t: TestApp, admin: Member, name = 'CI agent') {
  const created = await call(t.app, 'POST', '/api/workspace/agents', { token: admin.token, body: { name } });
  assert.equal(created.status, 201, JSON.stringify(created.body));
  return { id: created.body.agent.id as string, token: created.body.apiKey.key as string, name };
}

const notificationsOf = async (t: TestApp, who: { token: string }) =>
  (await call(t.app, 'GET', '/api/me/notifications', { token: who.token })).body.items as {
    type: string;
    comment: { id: string };
    actor: { name: string } | null;
  }[];

describe('a team divides the work: assignees, agents, claims', () => {
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

  test('an admin adds an agent: listed with the team as an agent, acting through its key, never an admin', async () => {
    const agent = await addAgent(t, admin, 'Fixer bot');
    const team = (await call(t.app, 'GET', '/api/workspace/members', { token: member.token })).body.items;
    assert.deepEqual(
      team.find((m: { id: string }) => m.id === agent.id),
      { id: agent.id, name: 'Fixer bot', role: 'member', agent: true },
    );
    assert.equal(team.find((m: { id: string }) => m.id === member.id).agent, false);
    const me = await call(t.app, 'GET', '/api/me', { token: agent.token });
    assert.equal(me.body.user.name, 'Fixer bot');
    const byMember = await call(t.app, 'POST', '/api/workspace/agents', { token: member.token, body: { name: 'x' } });
    assert.equal(byMember.status, 403);
    const promoted = await call(t.app, 'PATCH', `/api/workspace/members/${agent.id}`, {
      token: admin.token,
      body: { role: 'admin' },
    });
    assert.equal(promoted.status, 409);
    const second = await call(t.app, 'POST', `/api/workspace/agents/${agent.id}/api-keys`, {
      token: admin.token,
      body: { name: 'second runner' },
    });
    assert.equal(second.status, 201);
    assert.equal((await call(t.app, 'GET', '/api/me', { token: second.body.key })).body.user.id, agent.id);
    const notAnAgent = await call(t.app, 'POST', `/api/workspace/agents/${member.id}/api-keys`, {
      token: admin.token,
      body: { name: 'no' },
    });
    assert.equal(notAnAgent.status, 404, "a person's keys are their own to make");
  });

  test('assigning tells the assignee (not when they assign themselves), writes the timeline, and follows the comment through apply', async () => {
    const agent = await addAgent(t, admin);
    const { id } = await createComment(t.app, admin, project.key, 'Logo is blurry');
    const assigned = await call(t.app, 'PUT', `/api/comments/${id}/assignee`, {
      token: member.token,
      body: { assigneeId: agent.id },
    });
    assert.equal(assigned.status, 200, JSON.stringify(assigned.body));
    assert.deepEqual(assigned.body.assignee, { id: agent.id, name: 'CI agent', agent: true });
    assert.ok(assigned.body.assignedAt);
    const told = await notificationsOf(t, agent);
    assert.deepEqual(
      told.map((n) => [n.type, n.comment.id, n.actor?.name]),
      [['CommentAssigned', id, 'Mo Member']],
    );
    // The same again changes nothing and tells nobody twice.
    await call(t.app, 'PUT', `/api/comments/${id}/assignee`, { token: member.token, body: { assigneeId: agent.id } });
    assert.equal((await notificationsOf(t, agent)).length, 1);

    const self = await call(t.app, 'PUT', `/api/comments/${id}/assignee`, {
      token: member.token,
      body: { assigneeId: member.id },
    });
    assert.equal(self.body.assignee.id, member.id);
    assert.equal((await notificationsOf(t, member)).length, 0, 'nobody is told of their own action');

    const applied = await call(t.app, 'POST', `/api/comments/${id}/apply`, {
      token: agent.token,
      body: { commitSha: 'abcdef1' },
    });
    assert.equal(applied.body.assignee.id, member.id, 'the assignee stays through apply');
    const { timeline } = (await call(t.app, 'GET', `/api/comments/${id}`, { token: admin.token })).body;
    assert.deepEqual(
      timeline
        .filter((e: { kind: string }) => e.kind === 'assigned')
        .map((e: { by: { name: string }; assignee: { name: string } | null }) => [e.by.name, e.assignee?.name]),
      [
        ['Mo Member', 'CI agent'],
        ['Mo Member', 'Mo Member'],
      ],
    );
    const nobody = await call(t.app, 'PUT', `/api/comments/${id}/assignee`, {
      token: admin.token,
      body: { assigneeId: null },
    });
    assert.equal(nobody.body.assignee, null);
    assert.equal(nobody.body.assignedAt, null);
  });

  test('a fix sent back tells the assignee as well as the one who applied it, each once', async () => {
    const { id } = await createComment(t.app, admin, project.key, 'Footer overlaps');
    const agent = await addAgent(t, admin, 'Night agent');
    await call(t.app, 'PUT', `/api/comments/${id}/assignee`, { token: admin.token, body: { assigneeId: member.id } });
    await call(t.app, 'POST', `/api/comments/${id}/apply`, { token: agent.token, body: { commitSha: 'abcdef2' } });
    const before = (await notificationsOf(t, member)).length;
    const rejected = await call(t.app, 'POST', `/api/comments/${id}/verify`, {
      token: admin.token,
      body: { ok: false, note: 'Still overlaps' },
    });
    assert.equal(rejected.status, 200, JSON.stringify(rejected.body));
    const memberTold = (await notificationsOf(t, member)).filter((n) => n.comment.id === id);
    assert.deepEqual(
      memberTold.map((n) => n.type),
      ['CommentReopened', 'CommentAssigned'],
    );
    assert.equal((await notificationsOf(t, member)).length, before + 1);
    assert.deepEqual(
      (await notificationsOf(t, agent)).filter((n) => n.comment.id === id).map((n) => n.type),
      ['CommentReopened'],
    );
    // Applied and sent back by the assignee: told once, not twice.
    const { id: other } = await createComment(t.app, admin, project.key, 'Menu misaligned');
    await call(t.app, 'PUT', `/api/comments/${other}/assignee`, { token: admin.token, body: { assigneeId: agent.id } });
    await call(t.app, 'POST', `/api/comments/${other}/apply`, { token: agent.token, body: { commitSha: 'abcdef3' } });
    await call(t.app, 'POST', `/api/comments/${other}/reopen`, { token: member.token });
    assert.deepEqual(
      (await notificationsOf(t, agent)).filter((n) => n.comment.id === other).map((n) => n.type),
      ['CommentReopened', 'CommentAssigned'],
    );
  });

  test('who may be assigned: the team and its agents of this workspace only; clients see who is on it and assign nothing', async () => {
    const { id } = await createComment(t.app, admin, project.key, 'Wrong price');
    const client = await addClient(t.app, admin, project.key);
    const stranger = await signUp(t.app, 'Stranger');
    for (const assigneeId of [client.id, stranger.id, 'usr_nobody']) {
      const refused = await call(t.app, 'PUT', `/api/comments/${id}/assignee`, {
        token: admin.token,
        body: { assigneeId },
      });
      assert.equal(refused.status, 400, assigneeId);
      assert.match(refused.body.detail, /names nobody of the team/);
    }
    const comment = (await call(t.app, 'GET', `/api/comments/${id}`, { token: admin.token })).body;
    assert.equal(comment.assignee, null, 'nothing written');
    assert.equal(comment.timeline.filter((e: { kind: string }) => e.kind === 'assigned').length, 0);

    await call(t.app, 'PUT', `/api/comments/${id}/assignee`, { token: admin.token, body: { assigneeId: member.id } });
    const seen = await call(t.app, 'GET', `/api/comments/${id}`, { token: client.token });
    assert.equal(seen.body.assignee.name, 'Mo Member');
    assert.equal(seen.body.can.assign, false);
    assert.equal(seen.body.can.claim, false);
    const byClient = await call(t.app, 'PUT', `/api/comments/${id}/assignee`, {
      token: client.token,
      body: { assigneeId: null },
    });
    assert.equal(byClient.status, 403);
    assert.equal((await call(t.app, 'POST', `/api/comments/${id}/claim`, { token: client.token })).status, 403);
    const fromAnother = await call(t.app, 'PUT', `/api/comments/${id}/assignee`, {
      token: stranger.token,
      body: { assigneeId: stranger.id },
    });
    assert.equal(fromAnother.status, 404);
  });

  test('claim: takes an open comment nobody is on; yours already is answered as it is; held by another is 409 naming them; not open is 409', async () => {
    const agent = await addAgent(t, admin, 'Claude');
    const { id } = await createComment(t.app, admin, project.key, 'Button text cut off');
    const before = (await call(t.app, 'GET', `/api/comments/${id}`, { token: agent.token })).body;
    assert.equal(before.can.claim, true);
    const claimed = await call(t.app, 'POST', `/api/comments/${id}/claim`, { token: agent.token });
    assert.equal(claimed.status, 200);
    assert.deepEqual(claimed.body.assignee, { id: agent.id, name: 'Claude', agent: true });
    assert.equal(claimed.body.can.claim, false);
    const again = await call(t.app, 'POST', `/api/comments/${id}/claim`, { token: agent.token });
    assert.equal(again.status, 200);
    assert.equal(again.body.assignedAt, claimed.body.assignedAt, 'nothing changed');
    const second = await call(t.app, 'POST', `/api/comments/${id}/claim`, { token: member.token });
    assert.equal(second.status, 409);
    assert.equal(second.body.code, 'conflict');
    assert.match(second.body.detail, /^Claude is already on this comment/);
    assert.equal((await notificationsOf(t, agent)).filter((n) => n.comment.id === id).length, 0);

    const { id: applied } = await createComment(t.app, admin, project.key, 'Already fixed');
    await call(t.app, 'POST', `/api/comments/${applied}/apply`, { token: member.token, body: {} });
    const late = await call(t.app, 'POST', `/api/comments/${applied}/claim`, { token: agent.token });
    assert.equal(late.status, 409);
    assert.equal(late.body.code, 'invalid_state');
    assert.equal((await call(t.app, 'POST', '/api/comments/cmt_nothing/claim', { token: agent.token })).status, 404);
  });

  test('fifty claim one comment at once: exactly one wins, forty-nine are told who holds it', async () => {
    const { id } = await createComment(t.app, admin, project.key, 'Race for it');
    const claimants = await Promise.all(Array.from({ length: 50 }, (_, i) => addAgent(t, admin, `Agent ${i}`)));
    const answers = await Promise.all(
      claimants.map((agent) => call(t.app, 'POST', `/api/comments/${id}/claim`, { token: agent.token })),
    );
    const won = answers.filter((a) => a.status === 200);
    assert.equal(won.length, 1);
    const winner = won[0]?.body.assignee.name;
    const lost = answers.filter((a) => a.status === 409);
    assert.equal(lost.length, 49);
    for (const answer of lost) assert.match(answer.body.detail, new RegExp(`^${winner} is already on this comment`));
    const { timeline } = (await call(t.app, 'GET', `/api/comments/${id}`, { token: admin.token })).body;
    assert.equal(timeline.filter((e: { kind: string }) => e.kind === 'assigned').length, 1);
  });

  test('lists filter by assignee (me, none, someone); an agent waits for what is assigned to it', async () => {
    const own = await createProject(t.app, admin);
    const agent = await addAgent(t, admin, 'Waiter');
    const mine = await createComment(t.app, admin, own.key, 'For the agent');
    const theirs = await createComment(t.app, admin, own.key, 'For the member');
    const nobodys = await createComment(t.app, admin, own.key, 'For nobody yet');
    await call(t.app, 'POST', `/api/comments/${mine.id}/claim`, { token: agent.token });
    await call(t.app, 'PUT', `/api/comments/${theirs.id}/assignee`, {
      token: admin.token,
      body: { assigneeId: member.id },
    });
    const ids = async (url: string, token = agent.token) =>
      (await call(t.app, 'GET', url, { token })).body.items.map((c: { id: string }) => c.id);
    assert.deepEqual(await ids(`/api/projects/${own.key}/comments?assignee=me`), [mine.id]);
    assert.deepEqual(await ids(`/api/projects/${own.key}/comments?assignee=none`), [nobodys.id]);
    assert.deepEqual(await ids(`/api/comments?project=${own.key}&assignee=${member.id}`), [theirs.id]);
    assert.deepEqual(await ids(`/api/comments?project=${own.key}&assignee=me`, member.token), [theirs.id]);

    const base = (await t.app.listen({ port: 0, host: '127.0.0.1' })).replace('localhost', '127.0.0.1');
    const start = await callServer(base, 'GET', `/api/comments/changes?project=${own.key}`, { token: agent.token });
    const waiting = callServer(
      base,
      'GET',
      `/api/comments/changes?project=${own.key}&assignee=me&cursor=${start.body.cursor}&wait=10`,
      { token: agent.token },
    );
    await waitersAre(t.app, 1);
    // Another's work changes first: the wait goes on.
    await call(t.app, 'POST', `/api/comments/${theirs.id}/replies`, {
      token: admin.token,
      body: { body: 'any news?' },
    });
    await new Promise((resolve) => setTimeout(resolve, 200));
    await call(t.app, 'PUT', `/api/comments/${nobodys.id}/assignee`, {
      token: admin.token,
      body: { assigneeId: agent.id },
    });
    const answer = await waiting;
    assert.deepEqual(
      answer.body.items.map((c: { id: string }) => c.id),
      [nobodys.id],
    );
    const next = await callServer(
      base,
      'GET',
      `/api/comments/changes?project=${own.key}&assignee=me&cursor=${answer.body.cursor}`,
      { token: agent.token },
    );
    assert.deepEqual(next.body.items, [], 'the cursor moved past what it answered');
  });

  test('a member removed is on nothing any more: their work shows as unassigned', async () => {
    const leaving = await addMember(t.app, admin, 'member', 'Lee Leaving');
    const { id } = await createComment(t.app, admin, project.key, 'Left behind');
    await call(t.app, 'POST', `/api/comments/${id}/claim`, { token: leaving.token });
    assert.equal(
      (await call(t.app, 'DELETE', `/api/workspace/members/${leaving.id}`, { token: admin.token })).status,
      204,
    );
    const comment = (await call(t.app, 'GET', `/api/comments/${id}`, { token: admin.token })).body;
    assert.equal(comment.assignee, null);
    assert.equal(comment.can.claim, true);
  });
});

describe('claiming across two server processes', { skip: dialect !== 'postgres' }, () => {
  after(killRemainingServers);
  test('twenty claims split over two processes on one PostgreSQL: exactly one wins', async () => {
    const { database, drop } = await createTestDatabase();
    if (database.dialect !== 'postgres') return;
    const servers = await startServers(2, { DATABASE_URL: database.url, SVC_DEMO: 'false' });
    try {
      const [a, b] = servers.map((s) => s.baseUrl) as [string, string];
      const token = (
        await callServer(a, 'POST', '/api/signup', {
          body: { workspaceName: 'W', name: 'Lead', email: 'claims@example.test', password: 'long enough pass' },
        })
      ).body.token as string;
      await callServer(a, 'POST', '/api/projects', { token, body: { key: 'site', name: 'Site' } });
      const comment = await callServer(a, 'POST', '/api/projects/site/comments', {
        token,
        body: { body: 'contended', pageUrl: 'https://a.test/' },
      });
      const keys: string[] = [];
      for (let i = 0; i < 20; i++) {
        const agent = await callServer(a, 'POST', '/api/workspace/agents', { token, body: { name: `Agent ${i}` } });
        keys.push(agent.body.apiKey.key);
      }
      const answers = await Promise.all(
        keys.map((key, i) =>
          callServer(i % 2 ? b : a, 'POST', `/api/comments/${comment.body.id}/claim`, { token: key }),
        ),
      );
      assert.deepEqual(answers.map((answer) => answer.status).sort(), [200, ...Array.from({ length: 19 }, () => 409)]);
    } finally {
      for (const server of servers) await server.stop();
      await drop();
    }
  });
});

describe('who is on a comment, while the team changes: a removed member is on nothing, on either database', () => {
  let t: TestApp;
  let admin: Member;
  let project: { key: string };
  before(async () => {
    t = await createTestApp({ limits: { commentsPerMinute: 100_000, repliesPerMinute: 100_000 } });
    admin = await signUp(t.app);
    project = await createProject(t.app, admin);
  });
  after(() => t.close());

  /** Fifty comments of the project, made one after the other. */
  const fiftyComments = async (what: string) => {
    const made = [];
    for (let i = 0; i < 50; i++) made.push(await createComment(t.app, admin, project.key, `${what} ${i}`));
    return made;
  };
  /** Runs `requests`, and, through connections of its own, removes `leaving` once `answered` of them have answered. */
  const amidRemoval = async (
    requests: (() => Promise<{ status: number }>)[],
    answered: number,
    leaving: { id: string },
  ) => {
    const other = await t.twin();
    const { answers, meanwhile: removed } = await amid(requests, answered, () =>
      call(other, 'DELETE', `/api/workspace/members/${leaving.id}`, { token: admin.token }),
    );
    assert.equal(removed.status, 204);
    return answers;
  };
  const assignedTo = async (userId: string) =>
    (await t.app.database.db.selectFrom('comments').select('id').where('assignee_id', '=', userId).execute()).length;

  test('fifty comments assigned to a member while an admin removes them: none is left with them', async () => {
    const comments = await fiftyComments('Assigned');
    for (const [round, answered] of RACE_POINTS.entries()) {
      const leaving = await addMember(t.app, admin, 'member', `Leaving ${round}`);
      const answers = await amidRemoval(
        comments.map(
          (c) => () =>
            call(t.app, 'PUT', `/api/comments/${c.id}/assignee`, {
              token: admin.token,
              body: { assigneeId: leaving.id },
            }),
        ),
        answered,
        leaving,
      );
      for (const answer of answers) assert.ok([200, 400].includes(answer.status), JSON.stringify(answer));
      assert.equal(await assignedTo(leaving.id), 0, `round ${round}: the removed member is on comments`);
    }
  });

  test('a member claiming fifty comments while an admin removes them: none is left with them', async () => {
    const comments = await fiftyComments('Claimed');
    for (const [round, answered] of RACE_POINTS.entries()) {
      const leaving = await addMember(t.app, admin, 'member', `Claimer ${round}`);
      // Free again for this round.
      await t.app.database.db
        .updateTable('comments')
        .set({ assignee_id: null, assigned_at: null })
        .where(
          'id',
          'in',
          comments.map((c) => c.id),
        )
        .execute();
      const answers = await amidRemoval(
        comments.map((c) => () => call(t.app, 'POST', `/api/comments/${c.id}/claim`, { token: leaving.token })),
        answered,
        leaving,
      );
      for (const answer of answers) assert.ok([200, 401].includes(answer.status), JSON.stringify(answer));
      assert.equal(await assignedTo(leaving.id), 0, `round ${round}: the removed member is on comments`);
    }
  });
});
