import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import {
  addClient,
  addMember,
  call,
  countRows,
  createComment,
  createProject,
  createTestApp,
  createTestDatabase,
  dialect,
  type Member,
  signUp,
  type TestApp,
} from '../../../test/helpers.js';
import { callServer, killRemainingServers, startServers } from '../../../test/server-process.js';

describe('workspace members and quick-access accounts', () => {
  let t: TestApp;
  let admin: Member;
  before(async () => {
    t = await createTestApp();
    admin = await signUp(t.app);
  });
  after(() => t.close());

  test('only an admin adds members; a member or a client is refused with 403 and nothing is written', async () => {
    const member = await addMember(t.app, admin);
    const client = await addClient(t.app, admin);
    const before = await countRows(t.app, 'users');
    for (const caller of [member, client]) {
      const answer = await call(t.app, 'POST', '/api/workspace/members', {
        token: caller.token,
        body: { name: 'X', email: `x-${caller.id}@example.test`, role: 'member', password: 'long enough' },
      });
      assert.equal(answer.status, 403);
      assert.equal(answer.body.code, 'forbidden');
    }
    assert.equal(await countRows(t.app, 'users'), before);
    const anonymous = await call(t.app, 'POST', '/api/workspace/members', {
      body: { name: 'X', email: 'anon@example.test', role: 'member', password: 'long enough' },
    });
    assert.equal(anonymous.status, 401);
  });

  test('members may not be created as clients through the members endpoint', async () => {
    const answer = await call(t.app, 'POST', '/api/workspace/members', {
      token: admin.token,
      body: { name: 'X', email: 'client-role@example.test', role: 'client', password: 'long enough' },
    });
    assert.equal(answer.status, 400);
    assert.equal(answer.body.errors[0].path, '/role');
  });

  test('quick access: a member creates a client whose access token signs in until the account is removed', async () => {
    const member = await addMember(t.app, admin);
    const created = await call(t.app, 'POST', '/api/workspace/quick-access', {
      token: member.token,
      body: { name: 'Client Co' },
    });
    assert.equal(created.status, 201);
    assert.equal(created.body.user.role, 'client');
    assert.match(created.body.accessToken, /^svc_acc_/);
    for (let i = 0; i < 2; i++) {
      const session = await call(t.app, 'POST', '/api/auth/quick-access', {
        body: { accessToken: created.body.accessToken },
      });
      assert.equal(session.status, 200);
      assert.equal(session.body.user.id, created.body.user.id);
      const me = await call(t.app, 'GET', '/api/me', { token: session.body.token });
      assert.equal(me.body.user.role, 'client');
    }
    const bad = await call(t.app, 'POST', '/api/auth/quick-access', { body: { accessToken: 'svc_acc_forged' } });
    assert.equal(bad.status, 401);
  });

  test('a client cannot create accounts or API keys (403)', async () => {
    const client = await addClient(t.app, admin);
    assert.equal(
      (await call(t.app, 'POST', '/api/workspace/quick-access', { token: client.token, body: { name: 'x' } })).status,
      403,
    );
    assert.equal(
      (await call(t.app, 'POST', '/api/me/api-keys', { token: client.token, body: { name: 'x' } })).status,
      403,
    );
    assert.equal((await call(t.app, 'GET', '/api/me/api-keys', { token: client.token })).status, 403);
  });

  test('a quick-access account limited to a project must name a project of the workspace', async () => {
    const stranger = await signUp(t.app);
    const theirs = await createProject(t.app, stranger);
    const before = await countRows(t.app, 'users');
    const answer = await call(t.app, 'POST', '/api/workspace/quick-access', {
      token: admin.token,
      body: { name: 'x', projectKey: theirs.key },
    });
    assert.equal(answer.status, 400);
    assert.equal(answer.body.errors[0].path, '/projectKey');
    assert.equal(await countRows(t.app, 'users'), before);
    const project = await createProject(t.app, admin);
    const client = await addClient(t.app, admin, project.key);
    const me = await call(t.app, 'GET', '/api/me', { token: client.token });
    assert.equal(me.body.user.projectKey, project.key);
  });

  describe('administration', () => {
    let boss: Member;
    before(async () => {
      boss = await signUp(t.app, 'Bea Boss');
    });

    test('the team list: admins see e-mails and last sign-ins, members names and roles; clients are refused; another workspace is never listed', async () => {
      const member = await addMember(t.app, boss, 'member', 'Max Member');
      const client = await addClient(t.app, boss);
      const asAdmin = await call(t.app, 'GET', '/api/workspace/members', { token: boss.token });
      assert.equal(asAdmin.status, 200);
      const max = asAdmin.body.items.find((m: { id: string }) => m.id === member.id);
      assert.equal(max.email, member.email);
      assert.equal(max.role, 'member');
      assert.ok(max.lastSignInAt, 'signed in once');
      assert.ok(!asAdmin.body.items.some((m: { id: string }) => m.id === client.id), 'clients are listed apart');
      assert.ok(!asAdmin.body.items.some((m: { id: string }) => m.id === admin.id), 'nobody of another workspace');
      const asMember = await call(t.app, 'GET', '/api/workspace/members', { token: member.token });
      assert.deepEqual(Object.keys(asMember.body.items[0]).sort(), ['agent', 'id', 'name', 'role']);
      assert.equal((await call(t.app, 'GET', '/api/workspace/members', { token: client.token })).status, 403);
      const paged = await call(t.app, 'GET', '/api/workspace/members?limit=1', { token: boss.token });
      assert.equal(paged.body.items.length, 1);
      assert.ok(paged.body.nextCursor);
    });

    test('roles: an admin promotes and demotes; the last admin cannot demote or remove themselves (409); members may not (403)', async () => {
      const solo = await signUp(t.app, 'Solo Admin');
      const member = await addMember(t.app, solo);
      const role = (who: Member, id: string, value: string) =>
        call(t.app, 'PATCH', `/api/workspace/members/${id}`, { token: who.token, body: { role: value } });
      assert.equal((await role(solo, solo.id, 'member')).status, 409);
      assert.equal(
        (await call(t.app, 'DELETE', `/api/workspace/members/${solo.id}`, { token: solo.token })).status,
        409,
      );
      assert.equal((await role(member, member.id, 'admin')).status, 403);
      assert.equal((await role(solo, member.id, 'client')).status, 400);
      assert.equal((await role(solo, 'usr_01JD0000000000000000000000', 'admin')).status, 404);
      assert.equal((await role(boss, member.id, 'admin')).status, 404, 'another workspace');
      const promoted = await role(solo, member.id, 'admin');
      assert.equal(promoted.status, 200);
      assert.equal(promoted.body.user.role, 'admin');
      // The promoted member's existing session acts with the new role at once.
      assert.equal((await call(t.app, 'GET', '/api/workspace/invites', { token: member.token })).status, 200);
      assert.equal((await role(solo, solo.id, 'member')).status, 200, 'no longer the last admin');
      assert.equal((await call(t.app, 'GET', '/api/workspace/invites', { token: solo.token })).status, 403);
    });

    test('removing a member ends their sessions and API keys at once; their comments stay, by "Former member"; the e-mail is free again', async () => {
      const project = await createProject(t.app, boss);
      const member = await addMember(t.app, boss, 'member', 'Leaving Soon');
      const key = (await call(t.app, 'POST', '/api/me/api-keys', { token: member.token, body: { name: 'ci' } })).body
        .key;
      const comment = await createComment(t.app, member, project.key, 'Kept after they leave');
      assert.equal((await call(t.app, 'GET', '/api/me', { token: key })).status, 200, 'cached');
      const usersBefore = await countRows(t.app, 'users');
      assert.equal(
        (await call(t.app, 'DELETE', `/api/workspace/members/${member.id}`, { token: member.token })).status,
        403,
      );
      assert.equal(
        (await call(t.app, 'DELETE', `/api/workspace/members/${member.id}`, { token: boss.token })).status,
        204,
      );
      assert.equal((await call(t.app, 'GET', '/api/me', { token: member.token })).status, 401);
      assert.equal((await call(t.app, 'GET', '/api/me', { token: key })).status, 401);
      const login = await call(t.app, 'POST', '/api/auth/login', {
        body: { email: member.email, password: 'another good password' },
      });
      assert.equal(login.status, 401);
      const kept = (await call(t.app, 'GET', `/api/comments/${comment.id}`, { token: boss.token })).body;
      assert.equal(kept.body, 'Kept after they leave');
      assert.equal(kept.author.name, 'Former member');
      assert.equal(await countRows(t.app, 'users'), usersBefore, 'the row stays for the comments');
      const team = (await call(t.app, 'GET', '/api/workspace/members', { token: boss.token })).body.items;
      assert.ok(!team.some((m: { id: string }) => m.id === member.id));
      assert.equal(
        (await call(t.app, 'DELETE', `/api/workspace/members/${member.id}`, { token: boss.token })).status,
        404,
      );
      const again = await call(t.app, 'POST', '/api/workspace/invites', {
        token: boss.token,
        body: { email: member.email, role: 'member' },
      });
      assert.equal(again.status, 201, 'the e-mail can be invited again');
    });

    test('client links: listed for admins and members with their project, rotated (old link and sessions end) and revoked; comments stay', async () => {
      const project = await createProject(t.app, boss, { appUrl: 'https://app.client.test/start?lang=en' });
      const member = await addMember(t.app, boss);
      const created = await call(t.app, 'POST', '/api/workspace/quick-access', {
        token: member.token,
        body: { name: 'Cleo Client', projectKey: project.key },
      });
      assert.equal(created.status, 201);
      const url = new URL(created.body.accessUrl);
      assert.equal(`${url.origin}${url.pathname}`, 'https://app.client.test/start');
      assert.equal(url.searchParams.get('lang'), 'en');
      assert.equal(url.searchParams.get('svc_access'), null, 'never in the query, which servers log');
      assert.equal(url.hash, `#svc_access=${created.body.accessToken}`);
      const id = created.body.user.id;
      const signIn = (accessToken: string) => call(t.app, 'POST', '/api/auth/quick-access', { body: { accessToken } });
      const session = (await signIn(created.body.accessToken)).body.token;
      const comment = await createComment(t.app, { ...member, token: session }, project.key, 'From the client');

      const listed = await call(t.app, 'GET', '/api/workspace/quick-access', { token: member.token });
      const cleo = listed.body.items.find((c: { id: string }) => c.id === id);
      assert.equal(cleo.projectKey, project.key);
      assert.ok(cleo.lastSignInAt);
      assert.equal((await call(t.app, 'GET', '/api/workspace/quick-access', { token: session })).status, 403);

      const rotated = await call(t.app, 'POST', `/api/workspace/quick-access/${id}/rotate`, { token: member.token });
      assert.equal(rotated.status, 200);
      assert.notEqual(rotated.body.accessToken, created.body.accessToken);
      assert.equal((await call(t.app, 'GET', '/api/me', { token: session })).status, 401, 'its session ended');
      assert.equal((await signIn(created.body.accessToken)).status, 401, 'the old link is dead');
      const fresh = (await signIn(rotated.body.accessToken)).body.token;
      assert.equal((await call(t.app, 'GET', '/api/me', { token: fresh })).status, 200);

      assert.equal(
        (await call(t.app, 'DELETE', `/api/workspace/quick-access/${id}`, { token: admin.token })).status,
        404,
      );
      assert.equal(
        (await call(t.app, 'DELETE', `/api/workspace/quick-access/${member.id}`, { token: boss.token })).status,
        404,
        'not a client',
      );
      assert.equal(
        (await call(t.app, 'DELETE', `/api/workspace/quick-access/${id}`, { token: boss.token })).status,
        204,
      );
      assert.equal((await call(t.app, 'GET', '/api/me', { token: fresh })).status, 401);
      assert.equal((await signIn(rotated.body.accessToken)).status, 401);
      const kept = (await call(t.app, 'GET', `/api/comments/${comment.id}`, { token: boss.token })).body;
      assert.equal(kept.author.name, 'Cleo Client', "a client's comments keep the name the team gave it");
      assert.equal(
        (await call(t.app, 'GET', '/api/workspace/quick-access', { token: boss.token })).body.items.some(
          (c: { id: string }) => c.id === id,
        ),
        false,
      );
    });

    test('API keys: an admin sees every key of the workspace with its owner and revokes any; a member only their own', async () => {
      const member = await addMember(t.app, boss);
      const key = (await call(t.app, 'POST', '/api/me/api-keys', { token: member.token, body: { name: 'deploy' } }))
        .body;
      const all = await call(t.app, 'GET', '/api/workspace/api-keys', { token: boss.token });
      const listed = all.body.items.find((k: { id: string }) => k.id === key.id);
      assert.deepEqual(listed.owner, { id: member.id, name: 'Mo Member' });
      assert.equal(listed.lastFour, key.key.slice(-4));
      assert.ok(!JSON.stringify(all.body).includes(key.key), 'never the secret');
      assert.equal((await call(t.app, 'GET', '/api/workspace/api-keys', { token: member.token })).status, 403);
      assert.equal(
        (await call(t.app, 'DELETE', `/api/workspace/api-keys/${key.id}`, { token: admin.token })).status,
        404,
      );
      assert.equal((await call(t.app, 'GET', '/api/me', { token: key.key })).status, 200);
      assert.equal(
        (await call(t.app, 'DELETE', `/api/workspace/api-keys/${key.id}`, { token: boss.token })).status,
        204,
      );
      assert.equal((await call(t.app, 'GET', '/api/me', { token: key.key })).status, 401);
    });
  });
});

describe('the last admin under concurrency, on either database', () => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp();
  });
  after(() => t.close());

  const admins = async (workspaceId: string) =>
    (
      await t.app.database.db
        .selectFrom('users')
        .select('id')
        .where('workspace_id', '=', workspaceId)
        .where('role', '=', 'admin')
        .where('removed_at', 'is', null)
        .execute()
    ).length;

  test('fifty admins each stepping down at once: one is told it is the last, and stays admin', async () => {
    const first = await signUp(t.app);
    const team = [first];
    for (let i = 1; i < 50; i++) team.push(await addMember(t.app, first, 'admin', `Admin ${i}`));
    const answers = await Promise.all(
      team.map((who) =>
        call(t.app, 'PATCH', `/api/workspace/members/${who.id}`, { token: who.token, body: { role: 'member' } }),
      ),
    );
    assert.deepEqual(answers.map((a) => a.status).sort(), [...Array.from({ length: 49 }, () => 200), 409]);
    assert.match(answers.find((a) => a.status === 409)?.body.detail, /last admin/);
    assert.equal(await admins(first.workspaceId), 1);
  });

  test('fifty admins each removing the next at once: the workspace keeps an admin', async () => {
    const first = await signUp(t.app);
    const team = [first];
    for (let i = 1; i < 50; i++) team.push(await addMember(t.app, first, 'admin', `Admin ${i}`));
    const answers = await Promise.all(
      team.map((who, i) =>
        call(t.app, 'DELETE', `/api/workspace/members/${team[(i + 1) % team.length]?.id}`, { token: who.token }),
      ),
    );
    for (const answer of answers) assert.ok([204, 401, 404, 409].includes(answer.status), JSON.stringify(answer.body));
    assert.ok((await admins(first.workspaceId)) >= 1, 'no admin left');
  });
});

describe('removal and revocation in several processes', { skip: dialect !== 'postgres' }, () => {
  after(killRemainingServers);

  test("a removed member, a revoked client, a rotated link and an admin's key revocation are refused at once by the other process; new origins are allowed there", async () => {
    const { database, drop } = await createTestDatabase();
    if (database.dialect !== 'postgres') return;
    const servers = await startServers(2, { DATABASE_URL: database.url, SVC_DEMO: 'false' });
    try {
      const [a, b] = servers.map((s) => s.baseUrl) as [string, string];
      const password = 'long enough pass';
      const boss = (
        await callServer(a, 'POST', '/api/signup', {
          body: { workspaceName: 'W', name: 'Boss', email: 'boss@example.test', password },
        })
      ).body.token as string;
      const as = (token: string) => ({ token });
      const member = (
        await callServer(a, 'POST', '/api/workspace/members', {
          ...as(boss),
          body: { name: 'Mo', email: 'mo@example.test', role: 'member', password },
        })
      ).body.user.id as string;
      const memberToken = (
        await callServer(b, 'POST', '/api/auth/login', { body: { email: 'mo@example.test', password } })
      ).body.token as string;
      const memberKey = (await callServer(b, 'POST', '/api/me/api-keys', { ...as(memberToken), body: { name: 'ci' } }))
        .body;
      const otherKey = (await callServer(b, 'POST', '/api/me/api-keys', { ...as(boss), body: { name: 'spare' } })).body;
      const clients = [];
      for (const name of ['Rotated', 'Revoked']) {
        const created = (await callServer(a, 'POST', '/api/workspace/quick-access', { ...as(boss), body: { name } }))
          .body;
        const session = (
          await callServer(b, 'POST', '/api/auth/quick-access', { body: { accessToken: created.accessToken } })
        ).body.token as string;
        clients.push({ id: created.user.id as string, session });
      }
      const [rotated, revoked] = clients as [(typeof clients)[0], (typeof clients)[0]];
      const tokens = [memberToken, memberKey.key, otherKey.key, rotated.session, revoked.session];
      // B has every credential cached.
      for (const token of tokens) assert.equal((await callServer(b, 'GET', '/api/me', { token })).status, 200);

      await callServer(a, 'DELETE', `/api/workspace/members/${member}`, as(boss));
      await callServer(a, 'POST', `/api/workspace/quick-access/${rotated.id}/rotate`, as(boss));
      await callServer(a, 'DELETE', `/api/workspace/quick-access/${revoked.id}`, as(boss));
      await callServer(a, 'DELETE', `/api/workspace/api-keys/${otherKey.id}`, as(boss));
      // B hears the change feed within milliseconds of A's commit.
      const deadline = Date.now() + 2000;
      let statuses: number[] = [];
      do {
        statuses = await Promise.all(
          tokens.map(async (token) => (await callServer(b, 'GET', '/api/me', { token })).status),
        );
      } while (statuses.some((status) => status !== 401) && Date.now() < deadline);
      assert.deepEqual(statuses, [401, 401, 401, 401, 401]);
      assert.equal((await callServer(b, 'GET', '/api/me', as(boss))).status, 200);

      const preflight = async () =>
        (
          await fetch(`${b}/api/me`, {
            method: 'OPTIONS',
            headers: { origin: 'https://new-app.test', 'access-control-request-method': 'GET' },
          })
        ).headers.get('access-control-allow-origin');
      await callServer(a, 'POST', '/api/projects', { ...as(boss), body: { key: 'site', name: 'Site' } });
      assert.equal(await preflight(), null);
      await callServer(a, 'PATCH', '/api/projects/site', {
        ...as(boss),
        body: { allowedOrigins: ['https://new-app.test'] },
      });
      const originsDeadline = Date.now() + 2000;
      let allowed = await preflight();
      while (allowed === null && Date.now() < originsDeadline) {
        await new Promise((resolve) => setTimeout(resolve, 20));
        allowed = await preflight();
      }
      assert.equal(allowed, 'https://new-app.test');
    } finally {
      for (const server of servers) await server.stop();
      await drop();
    }
  });
});
