import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { after, describe, test } from 'node:test';
import { COMMENT_BODY_MAX } from '@svc/contract';
import type { FastifyInstance } from 'fastify';
import {
  addClient,
  addMember,
  call,
  countRows,
  createComment,
  createProject,
  createTestDatabase,
  dialect,
  signUp,
  testConfig,
  withNewIds,
} from '../../../test/helpers.js';
import type { Actor } from '../../actor.js';
import { buildApp } from '../../app.js';
import type { DatabaseConfig } from '../../config.js';
import { jsonLines } from './export.js';
import { importExport } from './import.js';
import { ImportError } from './import-error.js';

const COMMIT = 'a1b2c3d4e5f6a7b8c9d0a1b2c3d4e5f6a7b8c9d0';

/** An export file held in memory: read from its start each time the import opens it. */
const fileOf = (text: string) => () => Readable.from([text]);
const lines = (records: unknown[]) => records.map((record) => JSON.stringify(record)).join('\n');

/** A SQLite database in a file of its own. */
function sqliteDatabase(): { database: DatabaseConfig; drop: () => Promise<void> } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-import-'));
  return {
    database: { dialect: 'sqlite', file: path.join(dir, 'svc.db') },
    drop: async () => fs.rmSync(dir, { recursive: true, force: true }),
  };
}

/** The workspace's export, read whole, its header's moment left out. */
async function exported(
  app: FastifyInstance,
  workspaceId: string,
  adminId: string,
  projectId: string | null = null,
): Promise<unknown[]> {
  const actor: Actor = {
    id: adminId,
    workspaceId,
    name: 'Ada Admin',
    role: 'admin',
    projectId: null,
    credential: { kind: 'session', id: 'ses_x', hash: '', lastUsedAt: 0, expiresAt: Infinity, idleMs: Infinity },
  };
  let text = '';
  for await (const line of jsonLines({ db: app.database.db, serverVersion: 'x', actor, projectId })) text += line;
  return text
    .trimEnd()
    .split('\n')
    .map((line) => JSON.parse(line))
    .map(({ exportedAt: _at, ...record }) => record);
}

describe(`moving a workspace: export, then import with the same ids (SQLite → ${dialect === 'postgres' ? 'PostgreSQL' : 'SQLite'} → SQLite)`, () => {
  const cleanups: (() => Promise<void>)[] = [];
  after(async () => {
    for (const cleanup of cleanups.reverse()) await cleanup();
  });
  const open = async (made: { database: DatabaseConfig; drop: () => Promise<void> }) => {
    const app = await buildApp(
      testConfig(made.database, { limits: { commentsPerMinute: 100_000, repliesPerMinute: 100_000 } }),
    );
    cleanups.push(made.drop, () => app.close());
    return app;
  };

  test('every kind of data arrives field by field; running it twice adds nothing', async () => {
    const source = await open(sqliteDatabase());
    const admin = await signUp(source);
    const dana = await addMember(source, admin, 'member', 'Dana Dev');
    const cleo = await addClient(source, admin, undefined, 'Cleo Client');
    const site = await createProject(source, admin, {
      repoUrl: 'https://github.com/acme/site',
      allowedOrigins: ['https://site.test'],
      pageParams: ['tab'],
    });
    const shop = await createProject(source, admin);
    const limited = await addClient(source, admin, site.key, 'Lim Limited');
    const pinned = await call(source, 'POST', `/api/projects/${site.key}/comments`, {
      token: cleo.token,
      body: {
        body: 'The price wraps',
        pageUrl: 'https://site.test/pricing?tab=year',
        anchor: { selector: 'main > h1', x: 3.5, y: 4, tag: 'h1', text: { exact: 'Pricing' }, role: 'heading' },
        context: {
          viewport: { width: 390, height: 844 },
          screen: { width: 390, height: 844 },
          devicePixelRatio: 3,
          language: 'fr-FR',
          timeZone: 'Europe/Paris',
          colorScheme: 'dark',
          title: 'Prix',
          url: 'https://site.test/pricing?tab=year',
          buildSha: null,
          errors: [{ kind: 'console', message: 'TypeError: x is undefined', at: new Date().toISOString() }],
        },
      },
    });
    assert.equal(pinned.status, 201, JSON.stringify(pinned.body));
    const id = pinned.body.id as string;
    // A reply that mentions the comment's author: the mention travels by person.
    const asked = await call(source, 'POST', `/api/comments/${id}/replies`, {
      token: dana.token,
      body: { body: `Which phone, <@${cleo.id}>?` },
    });
    assert.equal(asked.status, 201, JSON.stringify(asked.body));
    await call(source, 'POST', `/api/comments/${id}/apply`, { token: dana.token, body: { commitSha: COMMIT } });
    await call(source, 'POST', `/api/projects/${site.key}/builds`, {
      token: admin.token,
      body: { sha: 'ffffeeee00001111222233334444555566667777', containsCommitShas: [COMMIT] },
    });
    await call(source, 'POST', `/api/comments/${id}/verify`, { token: cleo.token, body: { ok: false, note: 'Still' } });
    await call(source, 'POST', `/api/comments/${id}/apply`, { token: dana.token, body: { commitSha: 'abcdef1' } });
    await call(source, 'POST', `/api/comments/${id}/verify`, { token: cleo.token, body: { ok: true } });
    await call(source, 'PUT', `/api/comments/${id}/anchor`, {
      token: cleo.token,
      body: { anchor: { selector: 'main > h2', x: 0, y: 0 } },
    });
    // Who is on it: an agent put there by the admin, and a member who took one before it was archived.
    const agent = await call(source, 'POST', '/api/workspace/agents', { token: admin.token, body: { name: 'Bot' } });
    await call(source, 'PUT', `/api/comments/${id}/assignee`, {
      token: admin.token,
      body: { assigneeId: agent.body.agent.id },
    });
    // Its triage: a priority and two of the workspace's labels.
    await call(source, 'PUT', `/api/comments/${id}/priority`, { token: dana.token, body: { priority: 'high' } });
    await call(source, 'PATCH', `/api/comments/${id}`, { token: dana.token, body: { dueOn: '2026-12-03' } });
    const labels = [];
    for (const [name, color] of [
      ['Bug', 'red'],
      ['Mobile', 'teal'],
    ]) {
      labels.push(
        (await call(source, 'POST', '/api/workspace/labels', { token: admin.token, body: { name, color } })).body,
      );
    }
    await call(source, 'PUT', `/api/comments/${id}/labels`, {
      token: dana.token,
      body: { labelIds: labels.map((label) => label.id) },
    });
    const archived = await createComment(source, admin, shop.key, 'Out of scope');
    await call(source, 'POST', `/api/comments/${archived.id}/claim`, { token: dana.token });
    await call(source, 'POST', `/api/comments/${archived.id}/archive`, { token: dana.token });
    for (let i = 0; i < 450; i++) await createComment(source, dana, shop.key, `Bulk ${i}`);
    const original = await exported(source, admin.workspaceId, admin.id);
    const file = lines(original);
    const header = JSON.stringify({
      type: 'export',
      format: 1,
      serverVersion: 'x',
      workspace: { id: 'ws_x', name: 'X' },
    });
    assert.ok(original.length > 455);

    const target = await open(await createTestDatabase());
    const first = await importExport(target.database.db, fileOf(file));
    assert.deepEqual(first.added, { projects: 2, labels: 2, users: 5, comments: 452, replies: 3, events: 465 });
    const assigned = await target.database.db
      .selectFrom('comments')
      .innerJoin('users', 'users.id', 'comments.assignee_id')
      .select(['comments.id', 'users.name', 'users.kind'])
      .orderBy('comments.id')
      .execute();
    assert.deepEqual(
      assigned.map((row) => [row.id, row.name, row.kind]).sort(),
      [
        [archived.id, 'Dana Dev', 'person'],
        [id, 'Bot', 'agent'],
      ].sort(),
    );
    const mentioned = await target.database.db
      .selectFrom('comment_mentions')
      .select(['comment_id', 'user_id'])
      .execute();
    assert.deepEqual(mentioned, [{ comment_id: id, user_id: cleo.id }], 'the mention, by person');
    const limitedThere = await target.database.db
      .selectFrom('users')
      .select(['project_id', 'removed_at'])
      .where('id', '=', limited.id)
      .executeTakeFirstOrThrow();
    assert.deepEqual(limitedThere, { project_id: site.id, removed_at: null }, 'a limited client stays limited');
    assert.deepEqual(
      await exported(target, admin.workspaceId, admin.id),
      original,
      'field by field, on the other database',
    );
    // What insights read off each event is measured again on arrival, as the source measured it.
    const measures = (app: FastifyInstance) =>
      app.database.db
        .selectFrom('comment_events')
        .select(['id', 'span_ms', 'fix_via', 'sent_back', 'first_time_right', 'was_open'])
        .orderBy('id')
        .execute()
        .then((rows) => rows.map((row) => ({ ...row, span_ms: row.span_ms === null ? null : Number(row.span_ms) })));
    const measuredThere = await measures(target);
    assert.deepEqual(measuredThere, await measures(source));
    assert.ok(
      measuredThere.some((row) => row.sent_back === 1 && row.fix_via === 'person'),
      'the rejected fix',
    );
    const again = await importExport(target.database.db, fileOf(file));
    assert.deepEqual(again.added, { projects: 0, labels: 0, users: 0, comments: 0, replies: 0, events: 0 });
    assert.deepEqual(again.present, { projects: 2, labels: 2, users: 5, comments: 452 });
    const moved = await exported(target, admin.workspaceId, admin.id);
    assert.deepEqual(moved, original, 'nothing doubled');

    const back = await open(sqliteDatabase());
    await importExport(back.database.db, fileOf(lines(moved)));
    assert.deepEqual(await exported(back, admin.workspaceId, admin.id), original, 'and back again');

    // One project's export: a client limited to another project comes revoked, not let into every project.
    const oneProject = await exported(source, admin.workspaceId, admin.id, shop.id);
    const elsewhere = await open(sqliteDatabase());
    await importExport(elsewhere.database.db, fileOf(lines(oneProject)));
    const revoked = await elsewhere.database.db
      .selectFrom('users')
      .select(['project_id', 'removed_at'])
      .where('id', '=', limited.id)
      .executeTakeFirstOrThrow();
    assert.equal(revoked.project_id, null);
    assert.ok(revoked.removed_at, 'revoked');

    // The moved comment works as any other: the lifecycle goes on from where it was.
    const comments = await back.database.db.selectFrom('comments').select('id').execute();
    assert.equal(comments.length, 452);
    await assert.rejects(importExport(back.database.db, fileOf('{"type":"comment"}')), ImportError);
    await assert.rejects(importExport(back.database.db, fileOf('not json')), ImportError);
    await assert.rejects(importExport(back.database.db, fileOf(`${header}\n{"type":"bogus"}`)), ImportError);
    await assert.rejects(
      importExport(back.database.db, fileOf('{"type":"export","format":1,"workspace":{}}')),
      /names no workspace/,
    );
  });
});

describe('an import never reaches into another workspace', () => {
  const cleanups: (() => Promise<void>)[] = [];
  after(async () => {
    for (const cleanup of cleanups.reverse()) await cleanup();
  });

  /** A server with a victim's workspace (admin, member, project, comment with a reply), and its export. */
  async function victimServer() {
    const made = await createTestDatabase();
    const app = await buildApp(testConfig(made.database));
    cleanups.push(made.drop, () => app.close());
    const admin = await signUp(app);
    const dana = await addMember(app, admin, 'member', 'Dana Dev');
    const project = await createProject(app, admin);
    const comment = await createComment(app, admin, project.key, 'The price wraps');
    await call(app, 'POST', `/api/comments/${comment.id}/replies`, { token: dana.token, body: { body: 'On it' } });
    const records = await exported(app, admin.workspaceId, admin.id);
    return { app, admin, project, comment, records };
  }

  const tables = ['workspaces', 'projects', 'users', 'comments', 'replies'] as const;
  const counts = async (app: FastifyInstance) => Promise.all(tables.map((table) => countRows(app, table)));

  /** The import is refused with `message`, and not one row was written. */
  async function refused(app: FastifyInstance, records: unknown[], message: RegExp) {
    const before = await counts(app);
    await assert.rejects(importExport(app.database.db, fileOf(lines(records))), (error: Error) => {
      assert.ok(error instanceof ImportError, String(error));
      assert.match(error.message, message);
      return true;
    });
    assert.deepEqual(await counts(app), before, 'nothing written');
  }

  test("a file naming an existing workspace's id is refused, and writes nothing into it", async () => {
    const { app, admin, records } = await victimServer();
    const hijack = records.map((record: any) =>
      record.type === 'user'
        ? { ...record, id: `${record.id.slice(0, 20)}HIJACKED`, email: 'attacker@evil.test' }
        : record,
    );
    await refused(app, hijack, new RegExp(`line 1: workspace ${admin.workspaceId} is already on this server`));
    const attacker = await app.database.db
      .selectFrom('users')
      .select('id')
      .where('email', '=', 'attacker@evil.test')
      .execute();
    assert.deepEqual(attacker, []);
  });

  test("a new workspace holding another workspace's project, person or comment id is refused, naming the line", async () => {
    const { app, project, admin, comment, records } = await victimServer();
    const copy = withNewIds(records);
    const lineOf = (type: string) => copy.findIndex((record) => record.type === type) + 1;
    const withProject = copy.map((record) => (record.type === 'project' ? { ...record, id: project.id } : record));
    await refused(
      app,
      withProject,
      new RegExp(`line ${lineOf('project')}: project ${project.id} belongs to another workspace`),
    );
    const withPerson = copy.map((record, i) => (i === lineOf('user') - 1 ? { ...record, id: admin.id } : record));
    await refused(
      app,
      withPerson,
      new RegExp(`line ${lineOf('user')}: person ${admin.id} belongs to another workspace`),
    );
    const withComment = copy.map((record) =>
      record.type === 'comment' ? { ...record, id: comment.id, replies: [] } : record,
    );
    await refused(
      app,
      withComment,
      new RegExp(`line ${lineOf('comment')}: ${comment.id} belongs to another workspace`),
    );
  });

  test('every author, applier, assignee, mention, reply author, timeline actor and project a comment names must be in the file', async () => {
    const { app, admin, records } = await victimServer();
    const copy = withNewIds(records);
    const commentLine = copy.findIndex((record) => record.type === 'comment') + 1;
    const edit = (change: (comment: Record<string, any>) => Record<string, any>) =>
      copy.map((record) => (record.type === 'comment' ? change(record) : record));
    // The victim's admin, named as author: a reply would have notified them with the file's text.
    const stranger = { id: admin.id, name: 'Ada Admin', role: 'admin' };
    await refused(
      app,
      edit((c) => ({ ...c, author: stranger })),
      new RegExp(`line ${commentLine} .*names ${admin.id} as its author`),
    );
    await refused(
      app,
      edit((c) => ({ ...c, status: 'applied', appliedBy: { id: admin.id, name: 'Ada' }, commitSha: COMMIT })),
      /as its applier, which the file does not list/,
    );
    await refused(
      app,
      edit((c) => ({ ...c, replies: c.replies.map((r: any) => ({ ...r, author: stranger })) })),
      /reply rpl_\w+'s author/,
    );
    await refused(
      app,
      edit((c) => ({ ...c, timeline: c.timeline.map((e: any) => ({ ...e, by: { id: admin.id, name: 'Ada' } })) })),
      /timeline event evt_\w+'s actor/,
    );
    // A stranger as the one on it would be told of every fix sent back.
    await refused(
      app,
      edit((c) => ({ ...c, assignee: { id: admin.id, name: 'Ada' }, assignedAt: c.createdAt })),
      /names usr_\w+ as its assignee, which the file does not list/,
    );
    // A stranger mentioned would be told of the file's text.
    await refused(
      app,
      edit((c) => ({ ...c, body: `<@${admin.id}> look` })),
      /names usr_\w+ as its mention, which the file does not list/,
    );
    await refused(
      app,
      edit((c) => ({ ...c, projectKey: 'elsewhere' })),
      /names project "elsewhere"/,
    );
  });

  test('e-mails are compared and stored in one case: a case variant of an account here comes without it', async () => {
    const { app, admin, records } = await victimServer();
    const copy = withNewIds(records).map((record) =>
      record.type === 'user' && record.name === 'Ada Admin' ? { ...record, email: admin.email.toUpperCase() } : record,
    );
    const dana = copy.find((record) => record.name === 'Dana Dev') as Record<string, any>;
    dana.email = 'Dana.Dev@Elsewhere.TEST';
    const report = await importExport(app.database.db, fileOf(lines(copy)));
    assert.deepEqual(report.withoutEmail, [admin.email.toUpperCase()]);
    const stored = await app.database.db
      .selectFrom('users')
      .select('email')
      .where('workspace_id', '=', report.workspace.id)
      .execute();
    assert.deepEqual(stored.map((row) => row.email).sort(), ['dana.dev@elsewhere.test', null]);
  });

  test('a file with a bad line in its middle is refused before anything is written', async () => {
    const { app, records } = await victimServer();
    const copy = withNewIds(records);
    const comment = copy.find((record) => record.type === 'comment') as Record<string, any>;
    const second = { ...comment, id: 'cmt_SECOND', replies: [], timeline: [], body: 'x'.repeat(10_001) };
    const third = { ...comment, id: 'cmt_THIRD', replies: [], timeline: [] };
    const file = [...copy, second, third];
    await refused(
      app,
      file,
      new RegExp(`line ${copy.length + 1} \\(comment cmt_SECOND\\): /body must NOT have more than 10000 characters`),
    );
    await refused(app, [...copy, { ...third, replyCount: 'many' }], /\/replyCount must be integer/);
    await refused(app, [...copy, { ...third, id: comment.id }], /comment cmt_\w+ appears twice in the file/);
  });

  test('a name holding a direction override or a C1 control is refused as the API refuses it, naming the line', async () => {
    const { app, records } = await victimServer();
    const copy = withNewIds(records);
    const at = (type: string) => copy.findIndex((record) => record.type === type);
    for (const [type, character] of [
      ['export', '\u202e'],
      ['project', '\u009b'],
      ['user', '\u2066'],
    ] as const) {
      const index = at(type);
      const named = copy.map((record, i) =>
        i !== index
          ? record
          : type === 'export'
            ? { ...record, workspace: { ...record.workspace, name: `Acme${character}` } }
            : { ...record, name: `Named${character}` },
      );
      await refused(
        app,
        named,
        new RegExp(
          `line ${index + 1}.*/name must not contain control characters or bidirectional formatting characters`,
        ),
      );
    }
    const label = { type: 'label', id: 'lbl_BACKWARDS', name: 'gub\u202e', color: 'red' };
    await refused(app, [...copy.slice(0, 2), label, ...copy.slice(2)], /line 3.*\/name must not contain control/);
  });

  test('the file that made a workspace may run again (adding nothing); another file naming it is refused', async () => {
    const { app, records } = await victimServer();
    const copy = withNewIds(records);
    const first = await importExport(app.database.db, fileOf(lines(copy)));
    assert.equal(first.added.comments, 1);
    const again = await importExport(app.database.db, fileOf(lines(copy)));
    assert.deepEqual(again.added, { projects: 0, labels: 0, users: 0, comments: 0, replies: 0, events: 0 });
    const later = copy.map((record) =>
      record.type === 'export' ? { ...record, exportedAt: new Date().toISOString() } : record,
    );
    await refused(app, later, /is already on this server/);
  });
});

describe('an export always imports: a workspace filled with edge cases, exported and imported whole', () => {
  const cleanups: (() => Promise<void>)[] = [];
  after(async () => {
    for (const cleanup of cleanups.reverse()) await cleanup();
  });

  test('texts full of mentions of a person renamed since, a note written before notes were checked, names from before the rule for names, a label named like a mention', async () => {
    const made = await createTestDatabase();
    const source = await buildApp(
      testConfig(made.database, { limits: { commentsPerMinute: 100_000, repliesPerMinute: 100_000 } }),
    );
    cleanups.push(made.drop, () => source.close());
    const { db } = source.database;
    const admin = await signUp(source);
    const al = await addMember(source, admin, 'member', 'Al');
    const guest = await addClient(source, admin, undefined, 'Gus Guest');
    const stranger = await signUp(source, 'Stranger');
    const project = await createProject(source, admin);

    // 293 mentions of Al in 9,961 characters: within the limit as written, past it with the names shown.
    const full = Array.from({ length: 293 }, () => `<@${al.id}>`).join(' ');
    assert.equal(full.length, 9_961);
    const created = await call(source, 'POST', `/api/projects/${project.key}/comments`, {
      token: guest.token,
      body: { body: full, pageUrl: 'https://app.example.test/' },
    });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    const id = created.body.id as string;
    const replied = await call(source, 'POST', `/api/comments/${id}/replies`, {
      token: admin.token,
      body: { body: full },
    });
    assert.equal(replied.status, 201, JSON.stringify(replied.body));
    await call(source, 'POST', `/api/comments/${id}/apply`, { token: admin.token, body: {} });
    const verdict = await call(source, 'POST', `/api/comments/${id}/verify`, {
      token: guest.token,
      body: { ok: false, note: `Not yet, <@${al.id}|Someone>` },
    });
    assert.equal(verdict.status, 200, JSON.stringify(verdict.body));
    // Al leaves: every text that mentions them grows by the name "Former member".
    assert.equal((await call(source, 'DELETE', `/api/workspace/members/${al.id}`, { token: admin.token })).status, 204);
    const stored = await db.selectFrom('comments').select('body').where('id', '=', id).executeTakeFirstOrThrow();
    assert.ok(stored.body.length > 10_000, `stored with names: ${stored.body.length} characters`);

    // What a release before left: a note "Not fixed" whose mention was never checked (another
    // workspace's person under a name of its choosing), and names from before the rule for names.
    const forged = `<@${stranger.id}|Any name>`;
    await db
      .insertInto('replies')
      .values({
        id: 'rpl_01JD2W6Y1KQ9V8E0P4T3M5R7XB',
        workspace_id: admin.workspaceId,
        comment_id: id,
        author_id: guest.id,
        kind: 'user',
        body: `Not fixed: ask ${forged}`,
        created_at: new Date().toISOString(),
      })
      .execute();
    await db
      .insertInto('comment_events')
      .values({
        id: 'evt_01JD2W6Y1KQ9V8E0P4T3M5R7XB',
        workspace_id: admin.workspaceId,
        project_id: project.id,
        comment_id: id,
        kind: 'not_fixed',
        actor_id: guest.id,
        via: 'person',
        commit_sha: null,
        build_sha: null,
        note: `ask ${forged}`,
        subject_id: null,
        derived: 0,
        created_at: new Date().toISOString(),
      })
      .execute();
    await db.updateTable('workspaces').set({ name: 'Acme\u2066' }).where('id', '=', admin.workspaceId).execute();
    await db.updateTable('projects').set({ name: '\u009b31mSite' }).where('id', '=', project.id).execute();
    await db.updateTable('users').set({ name: 'Gus\u202e Guest' }).where('id', '=', guest.id).execute();
    const label = async (name: string) =>
      (await call(source, 'POST', '/api/workspace/labels', { token: admin.token, body: { name, color: 'red' } })).body
        .id as string;
    await label('Bug');
    const twin = await label('Bugs');
    await db.updateTable('labels').set({ name: 'Bug\u202e', name_key: 'bug\u202e' }).where('id', '=', twin).execute();
    // A label's name is plain text, even one written like a mention.
    const mentionLike = `<@${admin.id}>`;
    const plain = await label(mentionLike);
    await call(source, 'PUT', `/api/comments/${id}/labels`, { token: admin.token, body: { labelIds: [plain] } });

    const records = await exported(source, admin.workspaceId, admin.id);
    const target = await createTestDatabase();
    cleanups.push(target.drop);
    const there = await buildApp(testConfig(target.database));
    cleanups.push(() => there.close());
    const report = await importExport(there.database.db, fileOf(lines(records)));
    assert.equal(report.added.comments, 1);

    const read = async (app: FastifyInstance) => {
      const comment = await app.database.db
        .selectFrom('comments')
        .select('body')
        .where('id', '=', id)
        .executeTakeFirstOrThrow();
      const replies = await app.database.db
        .selectFrom('replies')
        .select(['id', 'body'])
        .where('comment_id', '=', id)
        .orderBy('id')
        .execute();
      const notes = await app.database.db
        .selectFrom('comment_events')
        .select(['kind', 'note'])
        .where('comment_id', '=', id)
        .where('kind', 'in', ['not_fixed', 'labeled'])
        .orderBy('id')
        .execute();
      return { comment, replies, notes };
    };
    const imported = await read(there);
    assert.equal(imported.comment.body, stored.body, 'the mentions, with the names of the people the file lists');
    assert.deepEqual(
      imported.replies.find((r) => r.id === 'rpl_01JD2W6Y1KQ9V8E0P4T3M5R7XB')?.body,
      'Not fixed: ask @Any name',
      'a mention of someone the file does not list: the text it showed',
    );
    assert.deepEqual(
      imported.notes.map((n) => n.note).sort(),
      [`Not yet, <@${al.id}|Former member>`, mentionLike, 'ask @Any name'].sort(),
    );
    const names = async (table: 'workspaces' | 'projects' | 'users' | 'labels') =>
      (await there.database.db.selectFrom(table).select('name').execute()).map((row) => row.name).sort();
    assert.deepEqual(await names('workspaces'), ['Acme']);
    assert.deepEqual(await names('projects'), ['31mSite']);
    assert.ok((await names('users')).includes('Gus Guest'));
    assert.deepEqual(await names('labels'), [mentionLike, 'Bug', 'Bug (2)']);
    const mentioned = await there.database.db
      .selectFrom('comment_mentions')
      .select('user_id')
      .where('comment_id', '=', id)
      .execute();
    assert.deepEqual(mentioned, [{ user_id: al.id }]);
  });

  test('addresses are measured as stored, once normalised: one that grows past its limit is refused, naming its field; one within it travels', async () => {
    const made = await createTestDatabase();
    const source = await buildApp(testConfig(made.database));
    cleanups.push(made.drop, () => source.close());
    const admin = await signUp(source);
    // 600 "é" are 600 characters as sent, 3,600 once percent-encoded as a URL stores them.
    const long = `https://app.example.test/${'é'.repeat(600)}`;
    const refusals = [
      [
        'POST',
        '/api/projects',
        { key: 'long-repo', name: 'Long', repoUrl: `https://github.com/${'é'.repeat(90)}` },
        '/repoUrl',
      ],
      [
        'POST',
        '/api/projects',
        { key: 'long-app', name: 'Long', appUrl: `https://app.test/${'é'.repeat(90)}` },
        '/appUrl',
      ],
    ] as const;
    for (const [method, url, body, path] of refusals) {
      const answer = await call(source, method, url, { token: admin.token, body });
      assert.equal(answer.status, 400, `${path}: ${JSON.stringify(answer.body)}`);
      assert.equal(answer.body.errors[0].path, path);
      assert.match(answer.body.errors[0].message, /characters once normalised .*at most 500/);
    }
    const project = await createProject(source, admin);
    const page = await call(source, 'POST', `/api/projects/${project.key}/comments`, {
      token: admin.token,
      body: { body: 'Long page', pageUrl: long },
    });
    assert.equal(page.status, 400, JSON.stringify(page.body));
    assert.equal(page.body.errors[0].path, '/pageUrl');
    assert.match(page.body.errors[0].message, /3,625 characters once normalised .*at most 2,000/);
    const { id } = await createComment(source, admin, project.key, 'Fixed elsewhere');
    const link = await call(source, 'POST', `/api/comments/${id}/apply`, {
      token: admin.token,
      body: { commitSha: 'abcdef1', commitUrl: long },
    });
    assert.equal(link.status, 400, JSON.stringify(link.body));
    assert.equal(link.body.errors[0].path, '/commitUrl');
    // Within the limit once stored (300 "é": 1,825 characters), it is kept and travels.
    const within = `https://app.example.test/${'é'.repeat(300)}`;
    const kept = await call(source, 'POST', `/api/projects/${project.key}/comments`, {
      token: admin.token,
      body: { body: 'Long page', pageUrl: within },
    });
    assert.equal(kept.status, 201, JSON.stringify(kept.body));
    const target = await createTestDatabase();
    cleanups.push(target.drop);
    const there = await buildApp(testConfig(target.database));
    cleanups.push(() => there.close());
    const report = await importExport(
      there.database.db,
      fileOf(lines(await exported(source, admin.workspaceId, admin.id))),
    );
    assert.equal(report.added.comments, 2);
  });

  test('a thread of 1,700 replies of 10,000 characters each, its line past 16 MiB, imports whole', async () => {
    const made = await createTestDatabase();
    const source = await buildApp(testConfig(made.database));
    cleanups.push(made.drop, () => source.close());
    const admin = await signUp(source);
    const project = await createProject(source, admin);
    const { id } = await createComment(source, admin, project.key, 'A long thread');
    const records = (await exported(source, admin.workspaceId, admin.id)) as Record<string, any>[];
    const thread = records.find((record) => record.type === 'comment') as Record<string, any>;
    const author = { id: admin.id, name: 'Ada Admin', role: 'admin' };
    // As many replies as the API takes, each as long as it takes one (a thread has no bound of its own).
    thread.replies = Array.from({ length: 1_700 }, (_, n) => ({
      id: `rpl_LONG${n}`,
      commentId: id,
      author,
      kind: 'user',
      body: `${n} ${'x'.repeat(COMMENT_BODY_MAX - 1 - String(n).length)}`,
      createdAt: thread.createdAt,
    }));
    thread.replyCount = thread.replies.length;
    const file = lines(records);
    assert.ok(file.length > 16 * 1024 * 1024);
    const target = await createTestDatabase();
    cleanups.push(target.drop);
    const there = await buildApp(testConfig(target.database));
    cleanups.push(() => there.close());
    const report = await importExport(there.database.db, fileOf(file));
    assert.equal(report.added.replies, 1_700);
  });
});
