import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { deriveCommitUrl } from '@svc/contract';
import {
  addClient,
  addMember,
  amid,
  call,
  countRows,
  createComment,
  createProject,
  createTestApp,
  type Member,
  RACE_POINTS,
  signUp,
  type TestApp,
} from '../../../test/helpers.js';
import { excerpt } from './excerpt.js';

describe('comments', () => {
  let t: TestApp;
  let admin: Member;
  let member: Member;
  let client: Member;
  let stranger: Member;
  let project: { id: string; key: string };
  before(async () => {
    t = await createTestApp();
    admin = await signUp(t.app);
    member = await addMember(t.app, admin);
    client = await addClient(t.app, admin);
    stranger = await signUp(t.app);
    project = await createProject(t.app, admin, { repoUrl: 'https://github.com/acme/site' });
  });
  after(() => t.close());

  test('any user of the workspace pins a comment, clients included; it starts open', async () => {
    for (const user of [admin, member, client]) {
      const answer = await call(t.app, 'POST', `/api/projects/${project.key}/comments`, {
        token: user.token,
        body: {
          body: '  Logo is blurry  ',
          pageUrl: 'https://app.example.test/',
          anchor: { selector: '#logo', x: 3.5, y: 4 },
        },
      });
      assert.equal(answer.status, 201);
      assert.equal(answer.body.status, 'open');
      assert.equal(answer.body.body, 'Logo is blurry');
      assert.equal(answer.body.projectKey, project.key);
      assert.deepEqual(answer.body.anchor, { selector: '#logo', x: 3.5, y: 4 });
      assert.equal(answer.body.author.id, user.id);
      assert.equal(answer.body.replyCount, 0);
      assert.equal(answer.body.commitSha, null);
    }
  });

  test('a comment without an anchor is pinned to the page', async () => {
    const answer = await call(t.app, 'POST', `/api/projects/${project.key}/comments`, {
      token: admin.token,
      body: { body: 'General remark', pageUrl: 'https://app.example.test/about' },
    });
    assert.equal(answer.status, 201);
    assert.equal(answer.body.anchor, null);
  });

  test('each invalid field of a new comment is a 400 naming it; nothing is written', async () => {
    const before = await countRows(t.app, 'comments');
    const cases: [Record<string, unknown>, string][] = [
      [{ pageUrl: 'https://a.test/' }, '/body'],
      [{ body: '   ', pageUrl: 'https://a.test/' }, '/body'],
      [{ body: 'x'.repeat(10_001), pageUrl: 'https://a.test/' }, '/body'],
      [{ body: 'ok' }, '/pageUrl'],
      [{ body: 'ok', pageUrl: 'javascript:alert(1)' }, '/pageUrl'],
      [{ body: 'ok', pageUrl: 'https://a.test/', anchor: { selector: '#a', x: 'left', y: 0 } }, '/anchor/x'],
      [{ body: 'ok', pageUrl: 'https://a.test/', anchor: { x: 1, y: 0 } }, '/anchor/selector'],
    ];
    for (const [body, path] of cases) {
      const answer = await call(t.app, 'POST', `/api/projects/${project.key}/comments`, { token: admin.token, body });
      assert.equal(answer.status, 400, JSON.stringify(body).slice(0, 80));
      assert.ok(
        answer.body.errors.some((e: { path: string }) => e.path.startsWith(path)),
        `${path}: ${JSON.stringify(answer.body.errors)}`,
      );
    }
    const longest = await call(t.app, 'POST', `/api/projects/${project.key}/comments`, {
      token: admin.token,
      body: { body: 'x'.repeat(10_000), pageUrl: 'https://a.test/' },
    });
    assert.equal(longest.status, 201);
    assert.equal(await countRows(t.app, 'comments'), before + 1);
  });

  test("another workspace's project and comments are 404, never 403", async () => {
    const comment = await createComment(t.app, admin, project.key);
    const attempts: [string, string, unknown?][] = [
      ['GET', `/api/projects/${project.key}/comments`],
      ['POST', `/api/projects/${project.key}/comments`, { body: 'x', pageUrl: 'https://a.test/' }],
      ['GET', `/api/comments/${comment.id}`],
      ['POST', `/api/comments/${comment.id}/replies`, { body: 'x' }],
      ['POST', `/api/comments/${comment.id}/apply`, {}],
      ['POST', `/api/comments/${comment.id}/reopen`],
      ['POST', `/api/comments/${comment.id}/archive`],
      ['DELETE', `/api/comments/${comment.id}`],
    ];
    for (const [method, url, body] of attempts) {
      const answer = await call(t.app, method as 'GET', url, { token: stranger.token, body });
      assert.equal(answer.status, 404, `${method} ${url}`);
      assert.equal(answer.body.code, 'not_found');
    }
    const still = await call(t.app, 'GET', `/api/comments/${comment.id}`, { token: admin.token });
    assert.equal(still.body.status, 'open');
    assert.equal(still.body.replyCount, 0);
  });

  test('anonymous calls are 401', async () => {
    const comment = await createComment(t.app, admin, project.key);
    assert.equal((await call(t.app, 'GET', `/api/comments/${comment.id}`)).status, 401);
    assert.equal((await call(t.app, 'POST', `/api/comments/${comment.id}/apply`, { body: {} })).status, 401);
  });

  test('a client limited to another project gets 404 for this one', async () => {
    const other = await createProject(t.app, admin);
    const limited = await addClient(t.app, admin, other.key);
    const comment = await createComment(t.app, admin, project.key);
    assert.equal((await call(t.app, 'GET', `/api/comments/${comment.id}`, { token: limited.token })).status, 404);
    assert.equal(
      (await call(t.app, 'GET', `/api/projects/${project.key}/comments`, { token: limited.token })).status,
      404,
    );
    assert.equal(
      (
        await call(t.app, 'POST', `/api/projects/${other.key}/comments`, {
          token: limited.token,
          body: { body: 'mine', pageUrl: 'https://a.test/' },
        })
      ).status,
      201,
    );
  });

  test('replies: any user replies, the comment shows them oldest first with a count', async () => {
    const comment = await createComment(t.app, client, project.key);
    const first = await call(t.app, 'POST', `/api/comments/${comment.id}/replies`, {
      token: member.token,
      body: { body: 'On it' },
    });
    assert.equal(first.status, 201);
    assert.equal(first.body.kind, 'user');
    assert.equal(first.body.author.id, member.id);
    assert.match(first.body.id, /^rpl_/);
    await call(t.app, 'POST', `/api/comments/${comment.id}/replies`, { token: client.token, body: { body: 'Thanks' } });
    const shown = await call(t.app, 'GET', `/api/comments/${comment.id}`, { token: client.token });
    assert.equal(shown.body.replyCount, 2);
    assert.deepEqual(
      shown.body.replies.map((r: { body: string }) => r.body),
      ['On it', 'Thanks'],
    );
    const blank = await call(t.app, 'POST', `/api/comments/${comment.id}/replies`, {
      token: member.token,
      body: { body: ' ' },
    });
    assert.equal(blank.status, 400);
    assert.equal(blank.body.errors[0].path, '/body');
    assert.equal((await call(t.app, 'GET', `/api/comments/${comment.id}`, { token: client.token })).body.replyCount, 2);
  });

  test('apply stores the normalised SHA, derives the GitHub commit link, and records who applied', async () => {
    const comment = await createComment(t.app, client, project.key);
    const answer = await call(t.app, 'POST', `/api/comments/${comment.id}/apply`, {
      token: member.token,
      body: { commitSha: '  ABCDEF1234567  ' },
    });
    assert.equal(answer.status, 200);
    assert.equal(answer.body.status, 'applied');
    assert.equal(answer.body.commitSha, 'abcdef1234567');
    assert.equal(answer.body.commitUrl, 'https://github.com/acme/site/commit/abcdef1234567');
    assert.deepEqual(answer.body.appliedBy, { id: member.id, name: 'Mo Member' });
    assert.ok(answer.body.appliedAt);
  });

  test('apply keeps an explicit commit link, and works with an API key', async () => {
    const comment = await createComment(t.app, client, project.key);
    const key = await call(t.app, 'POST', '/api/me/api-keys', { token: member.token, body: { name: 'agent' } });
    const answer = await call(t.app, 'POST', `/api/comments/${comment.id}/apply`, {
      token: key.body.key,
      body: { commitSha: 'a'.repeat(40), commitUrl: 'https://git.example.test/c/aaaa' },
    });
    assert.equal(answer.status, 200);
    assert.equal(answer.body.commitUrl, 'https://git.example.test/c/aaaa');
  });

  test('apply refuses a malformed SHA or link with its path and changes nothing', async () => {
    const comment = await createComment(t.app, client, project.key);
    for (const [body, path] of [
      [{ commitSha: 'xyz1234' }, '/commitSha'],
      [{ commitSha: 'abc12' }, '/commitSha'],
      [{ commitSha: 'a'.repeat(41) }, '/commitSha'],
      [{ commitSha: 1234567 }, '/commitSha'],
      [{ commitSha: 'abcdef1', commitUrl: 'not a url' }, '/commitUrl'],
    ] as const) {
      const answer = await call(t.app, 'POST', `/api/comments/${comment.id}/apply`, { token: member.token, body });
      assert.equal(answer.status, 400, JSON.stringify(body));
      assert.equal(answer.body.errors[0].path, path);
    }
    const after = await call(t.app, 'GET', `/api/comments/${comment.id}`, { token: member.token });
    assert.equal(after.body.status, 'open');
  });

  test('clients may not apply, reopen or archive (403), and nothing changes', async () => {
    const comment = await createComment(t.app, client, project.key);
    for (const action of ['apply', 'reopen', 'archive']) {
      const answer = await call(t.app, 'POST', `/api/comments/${comment.id}/${action}`, {
        token: client.token,
        body: {},
      });
      assert.equal(answer.status, 403, action);
    }
    assert.equal(
      (await call(t.app, 'GET', `/api/comments/${comment.id}`, { token: client.token })).body.status,
      'open',
    );
  });

  test('a new apply starts a new cycle: verifiedAt, deployedAt and the deployed build are cleared', async () => {
    const comment = await createComment(t.app, client, project.key);
    await call(t.app, 'POST', `/api/comments/${comment.id}/apply`, {
      token: member.token,
      body: { commitSha: 'abcdef1' },
    });
    const stamped = new Date().toISOString();
    await t.app.database.db
      .updateTable('comments')
      .set({ verified_at: stamped, deployed_at: stamped, deployed_build_sha: 'abcdef1' })
      .where('id', '=', comment.id)
      .execute();
    const again = await call(t.app, 'POST', `/api/comments/${comment.id}/apply`, {
      token: admin.token,
      body: { commitSha: '1234567' },
    });
    assert.equal(again.body.commitSha, '1234567');
    assert.equal(again.body.verifiedAt, null);
    assert.equal(again.body.deployedAt, null);
    assert.equal(again.body.deployedBuildSha, null);
    assert.equal(again.body.appliedBy.id, admin.id);
  });

  test('re-applying the same commit is not a new fix: no second "Fix applied", verified and Live stay; a new link replaces the old', async () => {
    const comment = await createComment(t.app, client, project.key);
    const apply = (body: Record<string, string>) =>
      call(t.app, 'POST', `/api/comments/${comment.id}/apply`, { token: member.token, body });
    const applied = async () =>
      Number(
        (
          await t.app.database.db
            .selectFrom('notifications')
            .select((eb) => eb.fn.countAll<number>().as('n'))
            .where('comment_id', '=', comment.id)
            .where('type', '=', 'CommentApplied')
            .executeTakeFirstOrThrow()
        ).n,
      );
    await apply({ commitSha: 'abcdef1234' });
    assert.equal(await applied(), 1);
    const stamped = new Date().toISOString();
    await t.app.database.db
      .updateTable('comments')
      .set({ verified_at: stamped, deployed_at: stamped, deployed_build_sha: 'abcdef1234' })
      .where('id', '=', comment.id)
      .execute();
    // The same commit, in full or abbreviated: nothing changes, nobody hears of it again.
    for (const sha of ['abcdef1234', 'ABCDEF1', 'abcdef1234567890']) {
      const again = await apply({ commitSha: sha });
      assert.equal(again.status, 200);
      assert.equal(again.body.commitSha, 'abcdef1234');
      assert.equal(again.body.verifiedAt, stamped);
      assert.equal(again.body.deployedAt, stamped);
    }
    assert.equal(await applied(), 1);
    const relinked = await apply({ commitSha: 'abcdef1234', commitUrl: 'https://git.example.test/c/abcdef1234' });
    assert.equal(relinked.body.commitUrl, 'https://git.example.test/c/abcdef1234');
    assert.equal(relinked.body.deployedAt, stamped);
    assert.equal(await applied(), 1);
    // Another commit is a new fix: a new cycle, and the author is told.
    const other = await apply({ commitSha: '1234567' });
    assert.equal(other.body.deployedAt, null);
    assert.equal(await applied(), 2);
  });

  test('reopen turns an applied comment back to open; anything else is 409 invalid_state', async () => {
    const comment = await createComment(t.app, client, project.key);
    const open = await call(t.app, 'POST', `/api/comments/${comment.id}/reopen`, { token: member.token });
    assert.equal(open.status, 409);
    assert.equal(open.body.code, 'invalid_state');
    await call(t.app, 'POST', `/api/comments/${comment.id}/apply`, {
      token: member.token,
      body: { commitSha: 'abcdef1' },
    });
    const reopened = await call(t.app, 'POST', `/api/comments/${comment.id}/reopen`, { token: member.token });
    assert.equal(reopened.status, 200);
    assert.equal(reopened.body.status, 'open');
  });

  test('archive works from any state and is idempotent; an archived comment cannot be applied', async () => {
    const comment = await createComment(t.app, client, project.key);
    for (let i = 0; i < 2; i++) {
      const answer = await call(t.app, 'POST', `/api/comments/${comment.id}/archive`, { token: member.token });
      assert.equal(answer.status, 200);
      assert.equal(answer.body.status, 'archived');
    }
    const apply = await call(t.app, 'POST', `/api/comments/${comment.id}/apply`, { token: member.token, body: {} });
    assert.equal(apply.status, 409);
  });

  test('delete: the author or an admin; another member 403; replies go with the comment', async () => {
    const byClient = await createComment(t.app, client, project.key);
    await call(t.app, 'POST', `/api/comments/${byClient.id}/replies`, { token: member.token, body: { body: 'reply' } });
    const refused = await call(t.app, 'DELETE', `/api/comments/${byClient.id}`, { token: member.token });
    assert.equal(refused.status, 403);
    const replies = await countRows(t.app, 'replies');
    assert.equal((await call(t.app, 'DELETE', `/api/comments/${byClient.id}`, { token: client.token })).status, 204);
    assert.equal((await call(t.app, 'GET', `/api/comments/${byClient.id}`, { token: client.token })).status, 404);
    assert.equal(await countRows(t.app, 'replies'), replies - 1);

    const byMember = await createComment(t.app, member, project.key);
    assert.equal((await call(t.app, 'DELETE', `/api/comments/${byMember.id}`, { token: admin.token })).status, 204);
    assert.equal((await call(t.app, 'DELETE', `/api/comments/${byMember.id}`, { token: admin.token })).status, 404);
  });
});

describe('comment lists', () => {
  let t: TestApp;
  let admin: Member;
  let project: { id: string; key: string };
  before(async () => {
    t = await createTestApp();
    admin = await signUp(t.app);
    project = await createProject(t.app, admin);
  });
  after(() => t.close());

  const page = (query: string) =>
    call(t.app, 'GET', `/api/projects/${project.key}/comments?${query}`, { token: admin.token });

  test('pagination visits every comment exactly once, newest first, even while comments are added', async () => {
    const created: string[] = [];
    for (let i = 0; i < 25; i++) created.push((await createComment(t.app, admin, project.key, `comment ${i}`)).id);
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const answer: { body: { items: { id: string }[]; nextCursor: string | null } } = await page(
        `limit=7${cursor ? `&cursor=${cursor}` : ''}`,
      );
      seen.push(...answer.body.items.map((c) => c.id));
      cursor = answer.body.nextCursor;
      pages++;
      // New comments land at the head of the list and must not disturb the walk.
      if (pages === 2) await createComment(t.app, admin, project.key, 'added while paging');
    } while (cursor);
    assert.equal(pages, 4);
    assert.deepEqual(seen, [...created].reverse());
    assert.equal(new Set(seen).size, seen.length);
  });

  test('the default page size is 20 and nextCursor is null on the last page', async () => {
    const first = await page('');
    assert.equal(first.body.items.length, 20);
    assert.ok(first.body.nextCursor);
    const exact = await page('limit=100');
    assert.equal(exact.body.nextCursor, null);
  });

  test('filters by status and by page URL', async () => {
    const other = await call(t.app, 'POST', `/api/projects/${project.key}/comments`, {
      token: admin.token,
      body: { body: 'on another page', pageUrl: 'https://app.example.test/other' },
    });
    await call(t.app, 'POST', `/api/comments/${other.body.id}/apply`, { token: admin.token, body: {} });
    const applied = await page('status=applied');
    assert.deepEqual(
      applied.body.items.map((c: { id: string }) => c.id),
      [other.body.id],
    );
    const onPage = await page(`pageUrl=${encodeURIComponent('https://app.example.test/other')}`);
    assert.deepEqual(
      onPage.body.items.map((c: { id: string }) => c.id),
      [other.body.id],
    );
    const open = await page('status=open&limit=100');
    assert.equal(
      open.body.items.some((c: { id: string }) => c.id === other.body.id),
      false,
    );
  });

  test('bad list parameters are 400 naming them', async () => {
    for (const [query, path] of [
      ['limit=0', '/limit'],
      ['limit=101', '/limit'],
      ['limit=ten', '/limit'],
      ['status=live', '/status'],
      ['cursor=bm90LWEtY3Vyc29y', '/cursor'],
    ]) {
      const answer = await page(query as string);
      assert.equal(answer.status, 400, query);
      assert.equal(answer.body.errors[0].path, path, query);
    }
  });
});

describe('commit links and excerpts', () => {
  test('commit links are derived for known forges only', () => {
    const sha = 'abcdef1';
    assert.equal(deriveCommitUrl('https://github.com/a/b', sha), 'https://github.com/a/b/commit/abcdef1');
    assert.equal(deriveCommitUrl('https://github.com/a/b.git', sha), 'https://github.com/a/b/commit/abcdef1');
    assert.equal(deriveCommitUrl('https://gitlab.com/g/sub/p', sha), 'https://gitlab.com/g/sub/p/-/commit/abcdef1');
    assert.equal(deriveCommitUrl('https://bitbucket.org/a/b', sha), 'https://bitbucket.org/a/b/commits/abcdef1');
    assert.equal(deriveCommitUrl('https://codeberg.org/a/b', sha), 'https://codeberg.org/a/b/commit/abcdef1');
    assert.equal(
      deriveCommitUrl('https://gitea.example.test/a/b', sha),
      'https://gitea.example.test/a/b/commit/abcdef1',
    );
    assert.equal(deriveCommitUrl('https://svn.example.test/a/b', sha), null);
    assert.equal(deriveCommitUrl(null, sha), null);
  });

  test('excerpts are one line of at most 140 characters', () => {
    assert.equal(excerpt('a\n  b'), 'a b');
    const long = excerpt('x'.repeat(500));
    assert.equal(long.length, 140);
    assert.ok(long.endsWith('…'));
  });
});

describe('writing where something is being deleted, on either database', () => {
  let t: TestApp;
  let admin: Member;
  before(async () => {
    t = await createTestApp({ limits: { commentsPerMinute: 100_000, repliesPerMinute: 100_000 } });
    admin = await signUp(t.app);
  });
  after(() => t.close());

  test('fifty replies while the comment is deleted: each is written before (and goes with it) or told the comment is gone, none fails', async () => {
    const project = await createProject(t.app, admin);
    const other = await t.twin();
    for (const [round, answered] of RACE_POINTS.entries()) {
      const { id } = await createComment(t.app, admin, project.key, `Doomed ${round}`);
      const { answers, meanwhile: deleted } = await amid(
        Array.from(
          { length: 50 },
          (_, i) => () =>
            call(t.app, 'POST', `/api/comments/${id}/replies`, { token: admin.token, body: { body: `Reply ${i}` } }),
        ),
        answered,
        () => call(other, 'DELETE', `/api/comments/${id}`, { token: admin.token }),
      );
      assert.equal(deleted.status, 204);
      for (const answer of answers) assert.ok([201, 404].includes(answer.status), JSON.stringify(answer.body));
      const left = await t.app.database.db.selectFrom('replies').select('id').where('comment_id', '=', id).execute();
      assert.deepEqual(left, [], `round ${round}`);
    }
  });

  test('fifty comments and limited accounts while their project is deleted: each made before (and gone with it) or told the project is gone', async () => {
    const other = await t.twin();
    for (const [round, answered] of RACE_POINTS.entries()) {
      const project = await createProject(t.app, admin);
      const { answers, meanwhile: deleted } = await amid(
        Array.from({ length: 50 }, (_, i) => async () => {
          // Spread over the deletion: the later ones find the project as it goes.
          for (let turn = 0; turn < i * 20; turn++) await new Promise((resolve) => setImmediate(resolve));
          return i % 2
            ? call(t.app, 'POST', `/api/projects/${project.key}/comments`, {
                token: admin.token,
                body: { body: `Comment ${i}`, pageUrl: 'https://app.example.test/' },
              })
            : call(t.app, 'POST', '/api/workspace/quick-access', {
                token: admin.token,
                body: { name: `Guest ${i}`, projectKey: project.key },
              });
        }),
        answered,
        () => call(other, 'DELETE', `/api/projects/${project.key}`, { token: admin.token }),
      );
      assert.equal(deleted.status, 204);
      for (const answer of answers) assert.ok([201, 400, 404].includes(answer.status), JSON.stringify(answer.body));
      const left = await t.app.database.db
        .selectFrom('users')
        .select('id')
        .where('project_id', '=', project.id)
        .execute();
      assert.deepEqual(left, [], `round ${round}`);
    }
  });
});
