import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
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

// One policy gives both the guard and the ability: what a client is served (`can`, of a comment,
// of its replies, and of the workspace in `GET /api/me`) is what the routes then allow. For
// every role, every state of a comment and every action, the served ability and the route's
// answer are held together, so that a rule changed in one place only fails here.

type Role = 'admin' | 'member' | 'client' | 'agent';
const ROLES: readonly Role[] = ['admin', 'member', 'client', 'agent'];

/** The states a comment is put in before each action: its lifecycle, and who is on it. */
const STATES = [
  'open',
  'taken by another',
  'taken by the caller',
  'completed',
  'live',
  'verified',
  'archived',
] as const;
type State = (typeof STATES)[number];

const COMMIT = 'a1b2c3d4e5f6a7b8c9d0a1b2c3d4e5f6a7b8c9d0';

interface Caller extends Member {
  role: Role;
}

describe(`one policy: what each comment and the workspace say one may do is what the routes allow (${dialect})`, () => {
  let t: TestApp;
  let admin: Member;
  let other: Member;
  let teammate: Member;
  let callers: Record<Role, Caller>;
  let project: { key: string };

  const as = (
    who: { token: string },
    method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE',
    url: string,
    body?: unknown,
  ) => call(t.app, method, url, { token: who.token, ...(body === undefined ? {} : { body }) });

  const upload = (who: { token: string }, method: 'PUT' | 'POST', url: string) =>
    t.app.inject({
      method,
      url,
      headers: { authorization: `Bearer ${who.token}`, 'content-type': 'image/png' },
      payload: cleanPng,
    });

  /** Each action of a comment's `can` as the route that does it (a new verb without one fails the test). */
  const ACTIONS: Record<string, (who: Caller, id: string) => Promise<{ status: number; body: string }>> = {
    apply: (who, id) => said(as(who, 'POST', `/api/comments/${id}/apply`, {})),
    verify: (who, id) => said(as(who, 'POST', `/api/comments/${id}/verify`, { ok: true })),
    reopen: (who, id) => said(as(who, 'POST', `/api/comments/${id}/reopen`)),
    archive: (who, id) => said(as(who, 'POST', `/api/comments/${id}/archive`)),
    delete: (who, id) => said(as(who, 'DELETE', `/api/comments/${id}`)),
    reply: (who, id) => said(as(who, 'POST', `/api/comments/${id}/replies`, { body: 'Seen here too' })),
    repin: (who, id) =>
      said(as(who, 'PUT', `/api/comments/${id}/anchor`, { anchor: { selector: 'main > p', x: 1, y: 2 } })),
    attachScreenshot: (who, id) => injected(upload(who, 'PUT', `/api/comments/${id}/screenshot`)),
    attachImage: (who, id) => injected(upload(who, 'POST', `/api/comments/${id}/images`)),
    sendNow: (who, id) => injected(upload(who, 'POST', `/api/comments/${id}/images?now=true`)),
    assign: (who, id) => said(as(who, 'PUT', `/api/comments/${id}/assignee`, { assigneeId: teammate.id })),
    claim: (who, id) => said(as(who, 'POST', `/api/comments/${id}/claim`)),
    triage: (who, id) => said(as(who, 'PUT', `/api/comments/${id}/priority`, { priority: 'high' })),
  };

  const said = async (answer: Promise<{ status: number; body: unknown }>) => {
    const { status, body } = await answer;
    return { status, body: JSON.stringify(body) };
  };
  const injected = async (answer: Promise<{ statusCode: number; body: string }>) => {
    const { statusCode, body } = await answer;
    return { status: statusCode, body };
  };

  /** A comment by `author`, put in `state` by the admin (the caller only where the state is theirs). */
  async function commentIn(state: State, author: Member, caller: Caller): Promise<string> {
    const { id } = await createComment(t.app, author, project.key, `A comment ${state}`);
    const ok = async (answer: Promise<{ status: number; body: unknown }>) => {
      const { status, body } = await answer;
      assert.ok(status < 300, `${state}: ${status} ${JSON.stringify(body)}`);
    };
    if (state === 'taken by another') {
      await ok(as(admin, 'PUT', `/api/comments/${id}/assignee`, { assigneeId: other.id }));
    }
    if (state === 'taken by the caller') {
      await ok(as(admin, 'PUT', `/api/comments/${id}/assignee`, { assigneeId: caller.id }));
    }
    if (state === 'completed') await ok(as(admin, 'POST', `/api/comments/${id}/apply`, { commitSha: COMMIT }));
    if (state === 'live' || state === 'verified') await ok(as(admin, 'POST', `/api/comments/${id}/apply`, {}));
    if (state === 'verified') await ok(as(admin, 'POST', `/api/comments/${id}/verify`, { ok: true }));
    if (state === 'archived') await ok(as(admin, 'POST', `/api/comments/${id}/archive`));
    return id;
  }

  /** What the comment is now, as its readers see it (null: gone). */
  async function seen(id: string) {
    const answer = await as(admin, 'GET', `/api/comments/${id}`);
    if (answer.status === 404) return null;
    const { can: _can, ...comment } = answer.body;
    return JSON.stringify(comment);
  }

  before(async () => {
    t = await createTestApp({ limits: { commentsPerMinute: 100_000, repliesPerMinute: 100_000 } });
    admin = await signUp(t.app);
    project = await createProject(t.app, admin);
    other = await addMember(t.app, admin, 'member', 'Otto Other');
    teammate = await addMember(t.app, admin, 'member', 'Tess Teammate');
    const agent = await as(admin, 'POST', '/api/workspace/agents', { name: 'Fix bot' });
    assert.equal(agent.status, 201, JSON.stringify(agent.body));
    callers = {
      admin: { ...(await addMember(t.app, admin, 'admin', 'Ann Admin')), role: 'admin' },
      member: { ...(await addMember(t.app, admin, 'member', 'Mia Member')), role: 'member' },
      client: { ...(await addClient(t.app, admin)), role: 'client' },
      agent: {
        token: agent.body.apiKey.key,
        id: agent.body.agent.id,
        email: '',
        role: 'agent',
        workspaceId: admin.workspaceId,
      },
    };
  });
  after(async () => {
    await t.close();
  });

  for (const role of ROLES) {
    for (const whose of ['their own', 'another’s'] as const) {
      test(`${role}, on ${whose} comment: each action its \`can\` offers is allowed (2xx), each it does not is refused (403/409) or changes nothing`, async () => {
        const caller = callers[role];
        const author = whose === 'their own' ? caller : other;
        const mismatches: string[] = [];
        for (const state of STATES) {
          // A quick-access account is nobody to put on a comment.
          if (state === 'taken by the caller' && role === 'client') continue;
          const probe = await commentIn(state, author, caller);
          const shown = await as(caller, 'GET', `/api/comments/${probe}`);
          assert.equal(shown.status, 200, JSON.stringify(shown.body));
          const { moves: _moves, ...can } = shown.body.can as Record<string, boolean>;
          assert.deepEqual(Object.keys(can).sort(), Object.keys(ACTIONS).sort(), 'every ability has its route here');
          for (const [verb, offered] of Object.entries(can)) {
            // Each action on a comment of its own, in the state: one action's effect is no other's cause.
            const id = await commentIn(state, author, caller);
            const before = await seen(id);
            const answer = await ACTIONS[verb]?.(caller, id);
            assert.ok(answer, verb);
            const allowed = answer.status < 300;
            const unchanged = (await seen(id)) === before;
            const refused = answer.status === 403 || answer.status === 409;
            const agrees = offered ? allowed : refused || (allowed && unchanged);
            if (!agrees) mismatches.push(`${state} · ${verb}: can ${offered}, route ${answer.status} ${answer.body}`);
          }
        }
        assert.deepEqual(mismatches, []);
      });
    }
  }

  test('a reply says who may attach images to it, and the route agrees: its author only', async () => {
    const { id } = await createComment(t.app, other, project.key, 'A thread of replies');
    for (const role of ROLES) {
      const caller = callers[role];
      const reply = await as(caller, 'POST', `/api/comments/${id}/replies`, { body: `A reply by the ${role}` });
      assert.equal(reply.status, 201, JSON.stringify(reply.body));
      for (const reader of ROLES) {
        const thread = await as(callers[reader], 'GET', `/api/comments/${id}`);
        const served = thread.body.replies.find((r: { id: string }) => r.id === reply.body.id);
        const attached = await upload(callers[reader], 'POST', `/api/comments/${id}/images?reply=${reply.body.id}`);
        assert.equal(served.can.attachImage, reader === role, `${reader} on the ${role}'s reply`);
        assert.equal(attached.statusCode, served.can.attachImage ? 201 : 403, `${reader} on the ${role}'s reply`);
      }
    }
  });

  test('a board’s moves are the stages the comment’s actions take it to, and each move does it', async () => {
    for (const role of ROLES) {
      const caller = callers[role];
      for (const state of STATES) {
        if (state === 'taken by the caller' && role === 'client') continue;
        const shown = await as(caller, 'GET', `/api/comments/${await commentIn(state, other, caller)}`);
        for (const move of shown.body.can.moves as { to: string; by: string }[]) {
          assert.ok(shown.body.can[move.by], `${role}, ${state}: a move by ${move.by} is an action it may take`);
          const id = await commentIn(state, other, caller);
          const answer = await ACTIONS[move.by]?.(caller, id);
          assert.ok(answer && answer.status < 300, `${role}, ${state} → ${move.to}: ${answer?.status} ${answer?.body}`);
          const moved = await as(admin, 'GET', `/api/comments/${id}`);
          assert.equal(moved.body.stage, move.to, `${role}, ${state}: moved by ${move.by}`);
        }
      }
    }
  });

  test('who can read a project is one rule: those a comment of it may mention are those whose scope lets them read its comments', async () => {
    const elsewhere = await createProject(t.app, admin);
    const limited = await addClient(t.app, admin, project.key, 'Lena Limited');
    const everyone = [admin, other, teammate, limited, ...Object.values(callers)];
    for (const shown of [project, elsewhere]) {
      const people = await as(admin, 'GET', `/api/projects/${shown.key}/people`);
      assert.equal(people.status, 200, JSON.stringify(people.body));
      const mentionable = new Set(people.body.items.map((p: { id: string }) => p.id));
      for (const person of everyone) {
        const reads = (await as(person, 'GET', `/api/projects/${shown.key}/comments`)).status === 200;
        assert.equal(mentionable.has(person.id), reads, `${person.id} on ${shown.key}`);
      }
    }
  });

  test('the workspace’s abilities in GET /api/me are what the routes allow, for every role', async () => {
    const { id: openComment } = await createComment(t.app, admin, project.key, 'For the team to take');
    /** Each ability as a request it decides: allowed, anything but 403; refused, 403. */
    const PROBES: Record<string, ((who: Caller) => Promise<{ status: number; body: string }>) | 'no route'> = {
      // The console's pages are static files; each screen's data has its own guard (below).
      useConsole: 'no route',
      listMembers: (who) => said(as(who, 'GET', '/api/workspace/members')),
      manageMembers: (who) => said(as(who, 'GET', '/api/workspace/invites')),
      manageClients: (who) => said(as(who, 'GET', '/api/workspace/quick-access')),
      manageAgents: (who) =>
        said(as(who, 'POST', '/api/workspace/agents/usr_nobody/api-keys', { name: 'Another key' })),
      readLabels: (who) => said(as(who, 'GET', '/api/workspace/labels')),
      manageLabels: (who) => said(as(who, 'DELETE', '/api/workspace/labels/lbl_nothing')),
      readAudit: (who) => said(as(who, 'GET', '/api/workspace/audit')),
      readInsights: (who) => said(as(who, 'GET', '/api/workspace/insights')),
      // An export answers a stream of lines, not one JSON document.
      export: (who) =>
        injected(
          t.app.inject({
            method: 'GET',
            url: `/api/workspace/export?project=${project.key}`,
            headers: { authorization: `Bearer ${who.token}` },
          }),
        ),
      manageSecurity: (who) => said(as(who, 'GET', '/api/workspace/sso')),
      manageSettings: (who) => said(as(who, 'PATCH', '/api/workspace', { defaultLocale: null })),
      readStorage: (who) => said(as(who, 'GET', '/api/workspace/storage')),
      holdApiKeys: (who) => said(as(who, 'GET', '/api/me/api-keys')),
      manageAllApiKeys: (who) => said(as(who, 'GET', '/api/workspace/api-keys')),
      changePassword: (who) =>
        said(
          as(who, 'POST', '/api/me/password', {
            currentPassword: 'not the password',
            newPassword: 'a new and long passphrase',
          }),
        ),
      manageProjects: (who) => said(as(who, 'GET', `/api/projects/${project.key}/refused-origins`)),
      followProjects: (who) => said(as(who, 'GET', '/api/me/following')),
      comment: (who) =>
        said(
          as(who, 'POST', `/api/projects/${project.key}/comments`, {
            body: 'One more',
            pageUrl: 'https://app.example.test/',
          }),
        ),
      applyComments: (who) => said(as(who, 'POST', `/api/comments/${openComment}/apply`, {})),
      assignComments: (who) => said(as(who, 'PUT', `/api/comments/${openComment}/assignee`, { assigneeId: null })),
      reportBuilds: (who) =>
        said(as(who, 'POST', `/api/projects/${project.key}/builds`, { sha: COMMIT, containsCommitShas: [] })),
    };
    const mismatches: string[] = [];
    for (const role of ROLES) {
      const me = await as(callers[role], 'GET', '/api/me');
      assert.equal(me.status, 200);
      assert.deepEqual(Object.keys(me.body.can).sort(), Object.keys(PROBES).sort(), 'every ability has its probe here');
      for (const [ability, probe] of Object.entries(PROBES)) {
        if (probe === 'no route') continue;
        const answer = await probe(callers[role]);
        const offered = me.body.can[ability] as boolean;
        if (offered ? answer.status === 403 : answer.status !== 403) {
          mismatches.push(`${role} · ${ability}: can ${offered}, route ${answer.status} ${answer.body.slice(0, 200)}`);
        }
      }
    }
    assert.deepEqual(mismatches, []);
  });
});
