import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
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
import { lifecycleTable } from './lifecycle.js';

const COMMIT = 'a1b2c3d4e5f6a7b8c9d0a1b2c3d4e5f6a7b8c9d0';
const OTHER = 'ffffeeee00001111222233334444555566667777';

type State = 'open' | 'applied' | 'verified' | 'live' | 'archived';
type Trigger =
  | 'apply (new commit)'
  | 'apply (without a commit)'
  | 'apply (same commit)'
  | 'verify ok'
  | 'verify not ok'
  | 'reopen'
  | 'archive'
  | 'delete';
type Role = 'admin' | 'member' | 'author' | 'other client';

/**
 * SPEC §4 as expectations, written here by hand rather than read from the code's table: for
 * each trigger, who may (else 403), from which states (else 409), and what follows.
 */
const RULES: Record<
  Trigger,
  {
    who: Role[];
    from: State[];
    to: State | 'gone' | 'same';
    notifies: 'author' | 'applier' | null;
  }
> = {
  'apply (new commit)': {
    who: ['admin', 'member'],
    from: ['open', 'applied', 'verified', 'live'],
    to: 'applied',
    notifies: 'author',
  },
  // Nothing to deploy (a change made in a content system): Live at once.
  'apply (without a commit)': {
    who: ['admin', 'member'],
    from: ['open', 'applied', 'verified', 'live'],
    to: 'live',
    notifies: 'author',
  },
  'apply (same commit)': {
    who: ['admin', 'member'],
    from: ['applied', 'verified', 'live'],
    to: 'same',
    notifies: null,
  },
  'verify ok': { who: ['admin', 'author'], from: ['applied', 'verified', 'live'], to: 'verified', notifies: null },
  'verify not ok': {
    who: ['admin', 'author'],
    from: ['applied', 'verified', 'live'],
    to: 'open',
    notifies: 'applier',
  },
  reopen: { who: ['admin', 'member'], from: ['applied', 'verified', 'live'], to: 'open', notifies: 'applier' },
  archive: {
    who: ['admin', 'member'],
    from: ['open', 'applied', 'verified', 'live', 'archived'],
    to: 'archived',
    notifies: null,
  },
  delete: {
    who: ['admin', 'author'],
    from: ['open', 'applied', 'verified', 'live', 'archived'],
    to: 'gone',
    notifies: null,
  },
};

describe('the comment lifecycle', () => {
  let t: TestApp;
  let admin: Member;
  let applier: Member;
  let member: Member;
  let author: Member;
  let otherClient: Member;
  let project: { key: string };
  const as: () => Record<Role, Member> = () => ({ admin, member, author, 'other client': otherClient });

  before(async () => {
    t = await createTestApp({ limits: { commentsPerMinute: 100_000, repliesPerMinute: 100_000 } });
    admin = await signUp(t.app);
    applier = await addMember(t.app, admin, 'member', 'Dee Applier');
    member = await addMember(t.app, admin, 'member', 'Mo Member');
    author = await addClient(t.app, admin, undefined, 'Cleo Author');
    otherClient = await addClient(t.app, admin, undefined, 'Olga Other');
    project = await createProject(t.app, admin);
  });
  after(() => t.close());

  /** A comment by the author, brought to `state` by the applier, the author and the admin. */
  async function commentIn(state: State): Promise<string> {
    const { id } = await createComment(t.app, author, project.key);
    if (state === 'archived') {
      await call(t.app, 'POST', `/api/comments/${id}/archive`, { token: admin.token });
      return id;
    }
    if (state === 'open') return id;
    await call(t.app, 'POST', `/api/comments/${id}/apply`, { token: applier.token, body: { commitSha: COMMIT } });
    if (state === 'verified') {
      await call(t.app, 'POST', `/api/comments/${id}/verify`, { token: author.token, body: { ok: true } });
    }
    if (state === 'live') {
      // A build of its own each time: a build already reported changes nothing.
      await call(t.app, 'POST', `/api/projects/${project.key}/builds`, {
        token: admin.token,
        body: { sha: randomBytes(20).toString('hex'), containsCommitShas: [COMMIT] },
      });
    }
    return id;
  }

  const stateOf = async (id: string): Promise<State | 'gone'> => {
    const answer = await call(t.app, 'GET', `/api/comments/${id}`, { token: admin.token });
    if (answer.status === 404) return 'gone';
    const c = answer.body;
    if (c.status !== 'applied') return c.status;
    return c.verifiedAt ? 'verified' : c.deployedAt ? 'live' : 'applied';
  };

  const timeline = async (id: string) =>
    ((await call(t.app, 'GET', `/api/comments/${id}`, { token: admin.token })).body.timeline as { kind: string }[]).map(
      (event) => event.kind,
    );

  /** The events a transition that changed something writes; none when it changed nothing. */
  const eventsOf = (trigger: Trigger, state: State): string[] => {
    switch (trigger) {
      case 'apply (new commit)':
        return [state === 'open' ? 'applied' : 'reapplied'];
      case 'apply (without a commit)':
        return [state === 'open' ? 'applied' : 'reapplied', 'live'];
      case 'apply (same commit)':
        return []; // the same commit and the same (no) link: nothing changes
      case 'verify ok':
        return state === 'verified' ? [] : ['verified'];
      case 'verify not ok':
        return ['not_fixed'];
      case 'reopen':
        return ['reopened'];
      case 'archive':
        return state === 'archived' ? [] : ['archived'];
      case 'delete':
        return [];
    }
  };

  const unread = async (member: Member) =>
    (await call(t.app, 'GET', '/api/me/notifications/unread-count', { token: member.token })).body.count as number;

  const fire = (trigger: Trigger, id: string, who: Member) => {
    const post = (path: string, body?: unknown) =>
      call(t.app, 'POST', `/api/comments/${id}/${path}`, { token: who.token, body });
    switch (trigger) {
      case 'apply (new commit)':
        return post('apply', { commitSha: OTHER });
      case 'apply (without a commit)':
        return post('apply', {});
      case 'apply (same commit)':
        return post('apply', { commitSha: COMMIT.slice(0, 9) });
      case 'verify ok':
        return post('verify', { ok: true });
      case 'verify not ok':
        return post('verify', { ok: false, note: 'Still broken' });
      case 'reopen':
        return post('reopen');
      case 'archive':
        return post('archive');
      case 'delete':
        return call(t.app, 'DELETE', `/api/comments/${id}`, { token: who.token });
    }
  };

  test('every state, trigger and role: the status code, the next state, and who is notified', async () => {
    const states: State[] = ['open', 'applied', 'verified', 'live', 'archived'];
    let cases = 0;
    for (const [trigger, rule] of Object.entries(RULES) as [Trigger, (typeof RULES)[Trigger]][]) {
      for (const state of states) {
        // "Same commit" only makes sense where a commit is stored.
        if (trigger === 'apply (same commit)' && (state === 'open' || state === 'archived')) continue;
        for (const [role, who] of Object.entries(as()) as [Role, Member][]) {
          cases += 1;
          const id = await commentIn(state);
          const before = { author: await unread(author), applier: await unread(applier) };
          const eventsBefore = await timeline(id);
          const answer = await fire(trigger, id, who);
          const label = `${trigger} on ${state} as ${role}`;
          const allowed = rule.who.includes(role);
          const expected = !allowed ? 403 : !rule.from.includes(state) ? 409 : trigger === 'delete' ? 204 : 200;
          assert.equal(answer.status, expected, `${label}: ${JSON.stringify(answer.body)}`);
          const now = await stateOf(id);
          if (expected !== 200 && expected !== 204) {
            assert.equal(now, state, `${label}: a refusal changes nothing`);
          } else {
            const next = rule.to === 'same' ? state : rule.to;
            assert.equal(now, next, `${label}: next state`);
          }
          if (expected !== 204) {
            const added = (await timeline(id)).slice(eventsBefore.length);
            assert.deepEqual(added, expected === 200 ? eventsOf(trigger, state) : [], `${label}: its timeline events`);
          }
          const notified = expected === 200 || expected === 204 ? rule.notifies : null;
          const self = (notified === 'author' && who === author) || (notified === 'applier' && who === applier);
          // A deleted comment takes its notifications with it: the author's "applied" one, unread.
          const deleted = expected === 204 && ['applied', 'verified', 'live'].includes(state) ? -1 : 0;
          assert.equal(
            await unread(author),
            before.author + (notified === 'author' && !self ? 1 : 0) + deleted,
            `${label}: author told`,
          );
          assert.equal(
            await unread(applier),
            before.applier + (notified === 'applier' && !self ? 1 : 0),
            `${label}: applier told`,
          );
        }
      }
    }
    assert.ok(cases >= 140, `${cases} cases`);
  });

  test('each comment says what the caller may do with it now, as the rules say', async () => {
    const applied = await commentIn('applied');
    const can = async (who: Member) =>
      (await call(t.app, 'GET', `/api/comments/${applied}`, { token: who.token })).body.can;
    assert.deepEqual(await can(admin), {
      apply: true,
      verify: true,
      reopen: true,
      archive: true,
      delete: true,
      reply: true,
      repin: true,
      attachScreenshot: false,
      assign: true,
      claim: false,
      triage: true,
      attachImage: true,
      sendNow: true,
      moves: [
        { to: 'open', by: 'reopen' },
        { to: 'verified', by: 'verify' },
        { to: 'archived', by: 'archive' },
      ],
    });
    const forMember = await can(member);
    assert.equal(forMember.verify, false, 'a member who is not the author may not verify');
    assert.equal(forMember.delete, false);
    assert.equal(forMember.reopen, true);
    const forAuthor = await can(author);
    assert.deepEqual(
      [
        forAuthor.verify,
        forAuthor.apply,
        forAuthor.reopen,
        forAuthor.archive,
        forAuthor.repin,
        forAuthor.attachScreenshot,
        forAuthor.assign,
      ],
      [true, false, false, false, true, true, false],
    );
    const forOther = await can(otherClient);
    assert.deepEqual([forOther.verify, forOther.repin, forOther.reply], [false, false, true]);
    const archived = await commentIn('archived');
    const onArchived = (await call(t.app, 'GET', `/api/comments/${archived}`, { token: admin.token })).body.can;
    assert.deepEqual(
      [onArchived.archive, onArchived.apply, onArchived.reopen, onArchived.delete, onArchived.assign, onArchived.claim],
      [false, false, false, true, false, false],
    );
    const open = (await call(t.app, 'GET', `/api/comments/${await commentIn('open')}`, { token: member.token })).body
      .can;
    assert.deepEqual([open.assign, open.claim], [true, true], 'open, nobody on it: the team may take it');
  });

  test('a verdict about a commit the comment no longer records is refused (409), nothing written', async () => {
    const id = await commentIn('applied');
    await call(t.app, 'POST', `/api/comments/${id}/apply`, { token: applier.token, body: { commitSha: OTHER } });
    const stale = await call(t.app, 'POST', `/api/comments/${id}/verify`, {
      token: author.token,
      body: { ok: true, commitSha: COMMIT },
    });
    assert.equal(stale.status, 409);
    assert.match(stale.body.detail, /applied again/);
    assert.equal(await stateOf(id), 'applied');
    const current = await call(t.app, 'POST', `/api/comments/${id}/verify`, {
      token: author.token,
      body: { ok: true, commitSha: OTHER.slice(0, 7) },
    });
    assert.equal(current.status, 200);
  });

  test('a fix without a commit is Live at once, with no build; the same again changes nothing; its commit added later is a new fix that waits for its build', async () => {
    const { id } = await createComment(t.app, author, project.key);
    const read = async () => (await call(t.app, 'GET', `/api/comments/${id}`, { token: admin.token })).body;
    const apply = (body: Record<string, string>) =>
      call(t.app, 'POST', `/api/comments/${id}/apply`, { token: applier.token, body });

    assert.equal((await apply({})).status, 200);
    let c = await read();
    assert.equal(c.status, 'applied');
    assert.equal(c.commitSha, null);
    assert.equal(c.deployedAt, c.appliedAt, 'Live as it was applied');
    assert.equal(c.deployedBuildSha, null, 'no build took it Live');
    const live = c.timeline.at(-1);
    assert.deepEqual(
      c.timeline.slice(-2).map((e: { kind: string }) => e.kind),
      ['applied', 'live'],
    );
    assert.deepEqual([live.buildSha, live.by?.id], [null, applier.id], 'Live by whoever applied it, in no build');

    // The same again (no commit either) is no new fix; a link to the change replaces the old one.
    assert.equal((await apply({})).status, 200);
    assert.equal((await read()).timeline.length, c.timeline.length, 'nothing written');
    assert.equal((await apply({ commitUrl: 'https://cms.example.test/revisions/42' })).status, 200);
    c = await read();
    assert.deepEqual(
      [c.commitUrl, c.deployedAt, c.timeline.at(-1).kind],
      ['https://cms.example.test/revisions/42', c.appliedAt, 'reapplied'],
    );

    // A build report leaves it as it is: it holds no commit a build could contain.
    await call(t.app, 'POST', `/api/projects/${project.key}/builds`, {
      token: admin.token,
      body: { sha: randomBytes(20).toString('hex'), containsCommitShas: [COMMIT] },
    });
    assert.equal((await read()).deployedBuildSha, null);

    // Its commit given later: a new fix, which waits for the build that holds it.
    assert.equal((await apply({ commitSha: COMMIT })).status, 200);
    c = await read();
    assert.deepEqual([c.commitSha, c.deployedAt, c.timeline.at(-1).kind], [COMMIT, null, 'reapplied']);
    // And back to a change without a commit: Live at once again, verified by its author from there.
    assert.equal((await apply({})).status, 200);
    c = await read();
    assert.deepEqual([c.commitSha, c.deployedAt], [null, c.appliedAt]);
    assert.equal(c.can.verify, true);
    const verdict = await call(t.app, 'POST', `/api/comments/${id}/verify`, {
      token: author.token,
      body: { ok: true },
    });
    assert.equal(verdict.status, 200);
    assert.ok((await read()).verifiedAt);
  });

  test("the README's lifecycle table is the code's", () => {
    const readme = fs.readFileSync(new URL('../../../../../README.md', import.meta.url), 'utf8');
    const section = readme.slice(readme.indexOf('### The comment lifecycle'));
    const rows = section
      .split('\n')
      .filter((line) => line.startsWith('| ') && !line.startsWith('| From'))
      .slice(0, lifecycleTable().length);
    const tidy = (line: string) => line.replace(/\s+/g, ' ').replace(/\| \|/g, '||');
    assert.deepEqual(rows.map(tidy), lifecycleTable().map(tidy));
  });

  describe(`concurrent transitions of one comment (${dialect})`, () => {
    test('50 concurrent "verify ok": all answer 200, one reply "Verified ✓"', async () => {
      const id = await commentIn('applied');
      const answers = await Promise.all(
        Array.from({ length: 50 }, () =>
          call(t.app, 'POST', `/api/comments/${id}/verify`, { token: author.token, body: { ok: true } }),
        ),
      );
      assert.deepEqual(new Set(answers.map((a) => a.status)), new Set([200]));
      const replies = (await call(t.app, 'GET', `/api/comments/${id}`, { token: admin.token })).body.replies;
      assert.equal(replies.filter((r: { body: string }) => r.body === 'Verified ✓').length, 1);
    });

    test('a verdict racing a new apply never verifies the new commit', async () => {
      for (let round = 0; round < 10; round += 1) {
        const id = await commentIn('applied');
        const [verdict, applied] = await Promise.all([
          call(t.app, 'POST', `/api/comments/${id}/verify`, {
            token: author.token,
            body: { ok: true, commitSha: COMMIT },
          }),
          call(t.app, 'POST', `/api/comments/${id}/apply`, { token: applier.token, body: { commitSha: OTHER } }),
        ]);
        assert.equal(applied.status, 200);
        assert.ok([200, 409].includes(verdict.status), `verdict ${verdict.status}`);
        const c = (await call(t.app, 'GET', `/api/comments/${id}`, { token: admin.token })).body;
        assert.equal(c.commitSha, OTHER);
        assert.equal(c.verifiedAt, null, `round ${round}: the new commit is not verified`);
      }
    });

    test('an apply racing a build report leaves a consistent comment: Live only with a build that holds its commit', async () => {
      for (let round = 0; round < 10; round += 1) {
        const id = await commentIn('applied');
        const build = `${round.toString(16).padStart(2, '0')}${COMMIT.slice(2)}`.slice(0, 40);
        await Promise.all([
          call(t.app, 'POST', `/api/projects/${project.key}/builds`, {
            token: admin.token,
            body: { sha: build, containsCommitShas: [COMMIT] },
          }),
          call(t.app, 'POST', `/api/comments/${id}/apply`, { token: applier.token, body: { commitSha: OTHER } }),
        ]);
        const c = (await call(t.app, 'GET', `/api/comments/${id}`, { token: admin.token })).body;
        assert.equal(c.commitSha, OTHER);
        assert.equal(c.deployedAt, null, `round ${round}: the build holds the old commit only`);
        assert.equal(c.deployedBuildSha, null);
      }
    });
  });
});
