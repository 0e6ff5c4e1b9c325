import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, describe, test } from 'node:test';
import { gzipSync } from 'node:zlib';
import { type Kysely, Migrator, sql } from 'kysely';
import { createTestDatabase, dialect, testConfig } from '../../../test/helpers.js';
import { cleanJpeg, jpegWithMetadata } from '../../../test/images.js';
import type { Actor } from '../../actor.js';
import { buildApp } from '../../app.js';
import type { DatabaseConfig } from '../../config.js';
import { hashPassword } from '../../modules/auth/passwords.js';
import { withoutMetadata } from '../../modules/comments/image-metadata.js';
import { measureTimeline } from '../../modules/comments/measures.js';
import { presentComment } from '../../modules/comments/presenter.js';
import { findComment } from '../../modules/comments/repo.js';
import { listTimeline, presentTimelineEvent } from '../../modules/comments/timeline.js';
import { readInsights } from '../../modules/insights/insights.js';
import { presentProject } from '../../modules/projects/presenter.js';
import { openDatabase } from '../dialect/index.js';
import { migrationProvider } from './index.js';

/** A database of its own that outlives one connection (SQLite in a file, not in memory). */
async function persistentDatabase(): Promise<{ database: DatabaseConfig; drop: () => Promise<void> }> {
  if (dialect === 'postgres') return createTestDatabase();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-migrate-'));
  return {
    database: { dialect: 'sqlite', file: path.join(dir, 'svc.db') },
    drop: async () => fs.rmSync(dir, { recursive: true, force: true }),
  };
}

/** The project "site" of workspace ws_1, as a release before wrote it: `columns` adds what that release had. */
const insertSite = (db: Kysely<any>, at: string, columns: Record<string, unknown>) =>
  db
    .insertInto('projects')
    .values({
      id: 'prj_1',
      workspace_id: 'ws_1',
      key: 'site',
      name: 'Site',
      repo_url: null,
      app_url: null,
      created_at: at,
      ...columns,
    })
    .execute();

/** Workspace ws_1 and its admin Ada (ada@a.test, `password`), as a release before wrote them. */
async function insertAda(db: Kysely<any>, password: string) {
  await db
    .insertInto('workspaces')
    .values({ id: 'ws_1', name: 'Acme', created_at: '2026-01-01T00:00:00.000Z' })
    .execute();
  await db
    .insertInto('users')
    .values({
      id: 'usr_1',
      workspace_id: 'ws_1',
      email: 'ada@a.test',
      name: 'Ada',
      role: 'admin',
      password_hash: await hashPassword(password),
      created_at: '2026-01-01T00:00:00.000Z',
    })
    .execute();
}

/** Comment cmt_1 of Ada on the site, as a release before wrote it: `columns` adds what that release had, and its state. */
const insertComment = (db: Kysely<any>, at: string, columns: Record<string, unknown>) =>
  db
    .insertInto('comments')
    .values({
      id: 'cmt_1',
      workspace_id: 'ws_1',
      project_id: 'prj_1',
      author_id: 'usr_1',
      page_url: 'https://a.test/',
      status: 'open',
      reply_count: 0,
      created_at: at,
      updated_at: at,
      ...columns,
    })
    .execute();

/** Ada's reply `rpl_1` to `cmt_1`, as an earlier release wrote it. */
const insertReply = (db: Kysely<any>, at: string, body: string) =>
  db
    .insertInto('replies')
    .values({
      id: 'rpl_1',
      workspace_id: 'ws_1',
      comment_id: 'cmt_1',
      author_id: 'usr_1',
      kind: 'user',
      body,
      created_at: at,
    })
    .execute();

/** A JPEG Ada attached to `cmt_1`, as a release since 0021 wrote it: `columns` adds or changes what that release had. */
const insertImage = (db: Kysely<any>, at: string, columns: Record<string, unknown> = {}) =>
  db
    .insertInto('images')
    .values({
      id: 'img_00000000000000000000000001',
      workspace_id: 'ws_1',
      comment_id: 'cmt_1',
      reply_id: null,
      event_id: null,
      kind: 'attachment',
      author_id: 'usr_1',
      content_type: 'image/jpeg',
      bytes: cleanJpeg,
      size: cleanJpeg.length,
      created_at: at,
      ...columns,
    })
    .execute();

/** Ada signed in to the upgraded app: the headers of her requests. */
async function adaHeaders(app: Awaited<ReturnType<typeof buildApp>>, password: string) {
  const login = await app.inject({
    method: 'POST',
    url: '/api/auth/login',
    payload: { email: 'ada@a.test', password },
  });
  return { authorization: `Bearer ${login.json().token}` };
}

/** The database as the release before left it: migrated up to `last`, and filled through plain SQL of that schema. */
async function databaseAt(config: DatabaseConfig, last: string, fill: (db: Kysely<any>) => Promise<void>) {
  const database = openDatabase(config);
  try {
    const migrator = new Migrator({
      db: database.db,
      provider: migrationProvider,
      ...(dialect === 'postgres' ? { migrationTableSchema: await database.currentSchema() } : {}),
    });
    // Under the start-up lock, as the app migrates: another test file dropping its schema meanwhile
    // would vanish from under the migrator's listing of every schema.
    const { error } = await database.withStartupLock(() => migrator.migrateTo(last));
    if (error) throw error;
    await fill(database.db as Kysely<any>);
  } finally {
    await database.close();
  }
}

describe('upgrades lose nothing', () => {
  const drops: (() => Promise<void>)[] = [];
  after(async () => {
    for (const drop of drops) await drop();
  });

  test('0009 (anchors): comments and projects of 0008 read as before, with no description, no move and no page parameters', async () => {
    const { database, drop } = await persistentDatabase();
    drops.push(drop);
    const now = new Date().toISOString();
    await databaseAt(database, '0008_comment_changes', async (db) => {
      await db.insertInto('workspaces').values({ id: 'ws_1', name: 'Acme', created_at: now }).execute();
      await db
        .insertInto('users')
        .values({ id: 'usr_1', workspace_id: 'ws_1', email: 'a@a.test', name: 'Ada', role: 'admin', created_at: now })
        .execute();
      await insertSite(db, now, { allowed_origins: '["https://a.test"]' });
      for (const [id, selector] of [
        ['cmt_1', '#plans > div:nth-of-type(2) > p'],
        ['cmt_2', null],
      ] as const) {
        await db
          .insertInto('comments')
          .values({
            id,
            workspace_id: 'ws_1',
            project_id: 'prj_1',
            author_id: 'usr_1',
            body: 'The price wraps',
            page_url: 'https://a.test/pricing/',
            anchor_selector: selector,
            anchor_x: selector ? 12.5 : null,
            anchor_y: selector ? 4 : null,
            status: 'open',
            reply_count: 0,
            created_at: now,
            updated_at: now,
          })
          .execute();
      }
    });

    const app = await buildApp(testConfig(database));
    try {
      const scope = { workspaceId: 'ws_1', projectId: null };
      const ada: Actor = {
        id: 'usr_1',
        workspaceId: 'ws_1',
        name: 'Ada',
        role: 'admin',
        projectId: null,
        credential: { kind: 'session', id: 'ses_1', hash: '', lastUsedAt: 0, expiresAt: Infinity, idleMs: Infinity },
      };
      const pinned = presentComment((await findComment(app.database.db, scope, 'cmt_1')) as never, ada);
      assert.deepEqual(pinned.anchor, { selector: '#plans > div:nth-of-type(2) > p', x: 12.5, y: 4 });
      assert.equal(pinned.repinned, null);
      assert.equal(pinned.pageUrl, 'https://a.test/pricing/', 'stored page URLs are not rewritten');
      const unpinned = presentComment((await findComment(app.database.db, scope, 'cmt_2')) as never, ada);
      assert.equal(unpinned.anchor, null);
      const project = await app.database.db
        .selectFrom('projects')
        .selectAll()
        .where('id', '=', 'prj_1')
        .executeTakeFirstOrThrow();
      assert.deepEqual(presentProject(project).pageParams, []);
      assert.deepEqual(presentProject(project).allowedOrigins, ['https://a.test']);
    } finally {
      await app.close();
    }
  });

  test('0010 (refused origins): a project of 0009 keeps its origins, notes refusals, and deletes with them', async () => {
    const { database, drop } = await persistentDatabase();
    drops.push(drop);
    const now = new Date().toISOString();
    await databaseAt(database, '0009_anchors', async (db) => {
      await db.insertInto('workspaces').values({ id: 'ws_1', name: 'Acme', created_at: now }).execute();
      await insertSite(db, now, { allowed_origins: '["https://a.test"]', page_params: '["tab"]' });
    });
    const app = await buildApp(testConfig(database));
    try {
      const check = (origin: string) =>
        app.inject({ method: 'GET', url: '/api/widget/origin-check?project=site', headers: { origin } });
      assert.equal((await check('https://a.test')).json().allowed, true);
      assert.equal((await check('https://b.test')).json().allowed, false);
      const noted = await app.database.db.selectFrom('refused_origins').selectAll().execute();
      assert.deepEqual(
        noted.map((row) => [row.project_id, row.origin, row.attempts]),
        [['prj_1', 'https://b.test', 1]],
      );
      await app.database.db.deleteFrom('projects').where('id', '=', 'prj_1').execute();
      assert.equal((await app.database.db.selectFrom('refused_origins').selectAll().execute()).length, 0);
    } finally {
      await app.close();
    }
  });
  test('0011 (timelines): comments of 0010 get the events their columns and replies tell, marked derived', async () => {
    const { database, drop } = await persistentDatabase();
    drops.push(drop);
    const at = (minute: number) => new Date(Date.UTC(2026, 10, 1, 9, minute)).toISOString();
    await databaseAt(database, '0010_refused_origins', async (db) => {
      await db
        .insertInto('workspaces')
        .values({ id: 'ws_1', name: 'Acme', created_at: at(0) })
        .execute();
      for (const [id, name, role] of [
        ['usr_1', 'Ada', 'admin'],
        ['usr_2', 'Dana', 'member'],
      ]) {
        await db
          .insertInto('users')
          .values({ id, workspace_id: 'ws_1', email: `${id}@a.test`, name, role, created_at: at(0) })
          .execute();
      }
      await insertSite(db, at(0), { allowed_origins: '[]', page_params: '[]' });
      const comment = (id: string, columns: Record<string, unknown>) =>
        db
          .insertInto('comments')
          .values({
            id,
            workspace_id: 'ws_1',
            project_id: 'prj_1',
            author_id: 'usr_1',
            body: 'The price wraps',
            page_url: 'https://a.test/',
            status: 'open',
            reply_count: 0,
            created_at: at(1),
            updated_at: at(1),
            ...columns,
          })
          .execute();
      await comment('cmt_open', {});
      await comment('cmt_done', {
        status: 'applied',
        commit_sha: 'a1b2c3d',
        applied_by_id: 'usr_2',
        applied_at: at(5),
        deployed_at: at(9),
        deployed_build_sha: '9f1c2e0',
        verified_at: at(12),
        repinned_at: at(3),
        repinned_by_id: 'usr_2',
        updated_at: at(12),
      });
      await comment('cmt_archived', { status: 'archived', updated_at: at(20) });
      const reply = (id: string, author: string | null, kind: string, body: string, minute: number) =>
        db
          .insertInto('replies')
          .values({
            id,
            workspace_id: 'ws_1',
            comment_id: 'cmt_done',
            author_id: author,
            kind,
            body,
            created_at: at(minute),
          })
          .execute();
      await reply('rpl_1', 'usr_2', 'user', 'Which browser?', 2);
      await reply('rpl_2', 'usr_1', 'user', 'Not fixed: still wraps', 6);
      await reply('rpl_3', null, 'system', 'Verified ✓', 12);
      await db
        .insertInto('attachments')
        .values({
          id: 'att_1',
          workspace_id: 'ws_1',
          comment_id: 'cmt_done',
          kind: 'screenshot',
          content_type: 'image/png',
          bytes: Buffer.from([1, 2, 3]),
          size: 3,
          created_at: new Date(Date.parse(at(1)) + 20_000).toISOString(),
        })
        .execute();
    });

    const app = await buildApp(testConfig(database));
    try {
      const events = async (commentId: string) =>
        (await listTimeline(app.database.db, 'ws_1', commentId)).map(presentTimelineEvent);
      assert.deepEqual(
        (await events('cmt_open')).map((e) => [e.kind, e.by?.name, e.derived]),
        [['created', 'Ada', true]],
      );
      assert.deepEqual(
        (await events('cmt_done')).map((e) => [e.kind, e.by?.name ?? null, e.commitSha ?? e.buildSha ?? e.note]),
        [
          ['created', 'Ada', null],
          ['screenshot_added', 'Ada', null],
          ['replied', 'Dana', 'Which browser?'],
          ['repinned', 'Dana', null],
          ['applied', 'Dana', 'a1b2c3d'],
          ['not_fixed', 'Ada', 'still wraps'],
          ['live', null, '9f1c2e0'],
          ['verified', null, null],
        ],
      );
      assert.deepEqual(
        (await events('cmt_archived')).map((e) => [e.kind, e.at]),
        [
          ['created', at(1)],
          ['archived', at(20)],
        ],
      );
    } finally {
      await app.close();
    }
  });
  test('0013 (insights): timelines of 0012 get the measures the server computes, and insights read them', async () => {
    const { database, drop } = await persistentDatabase();
    drops.push(drop);
    const at = (minute: number) => new Date(Date.UTC(2026, 10, 1, 9, minute)).toISOString();
    type Step = [minute: number, kind: string, via?: string | null, commit?: string];
    const timelines: Record<string, { status: string; deployed?: number; steps: Step[] }> = {
      cmt_a: {
        status: 'applied',
        deployed: 9,
        steps: [
          [1, 'created'],
          [5, 'applied', 'person', 'c1'],
          [9, 'live'],
          [12, 'verified'],
        ],
      },
      cmt_b: {
        status: 'applied',
        deployed: 30,
        steps: [
          [1, 'created'],
          [4, 'applied', 'api_key', 'c1'],
          [6, 'not_fixed'],
          [8, 'applied', 'api_key', 'c2'],
          [10, 'reapplied', 'mcp', 'c2'],
          [15, 'live'],
          [20, 'reapplied', 'mcp', 'c3'],
          [30, 'live'],
          [40, 'verified'],
        ],
      },
      cmt_c: {
        status: 'archived',
        steps: [
          [2, 'created'],
          [3, 'archived'],
        ],
      },
      cmt_d: {
        status: 'archived',
        steps: [
          [2, 'created'],
          [3, 'applied', null, 'c1'],
          [4, 'archived'],
        ],
      },
      cmt_e: {
        status: 'archived',
        steps: [
          [2, 'created'],
          [3, 'applied', 'person', 'c1'],
          [5, 'reopened'],
          [7, 'archived'],
        ],
      },
      cmt_f: {
        status: 'applied',
        steps: [
          [1, 'created'],
          [1, 'applied', 'mcp', 'c1'],
          [2, 'live'],
          [3, 'verified'],
          [4, 'reopened'],
          [6, 'applied', 'person', 'c2'],
          [9, 'verified'],
        ],
      },
      cmt_g: {
        status: 'applied',
        deployed: 50,
        steps: [
          [45, 'created'],
          [46, 'applied', 'person', 'c1'],
          [50, 'live'],
        ],
      },
    };
    await databaseAt(database, '0012_audit_log', async (db) => {
      await db
        .insertInto('workspaces')
        .values({ id: 'ws_1', name: 'Acme', created_at: at(0) })
        .execute();
      await db
        .insertInto('users')
        .values({ id: 'usr_1', workspace_id: 'ws_1', email: 'a@a.test', name: 'Ada', role: 'admin', created_at: at(0) })
        .execute();
      await insertSite(db, at(0), { allowed_origins: '[]', page_params: '[]' });
      let n = 0;
      for (const [id, { status, deployed, steps }] of Object.entries(timelines)) {
        await db
          .insertInto('comments')
          .values({
            id,
            workspace_id: 'ws_1',
            project_id: 'prj_1',
            author_id: 'usr_1',
            body: `Comment ${id}`,
            page_url: 'https://a.test/',
            status,
            deployed_at: deployed === undefined ? null : at(deployed),
            verified_at: steps.some((step) => step[1] === 'verified') ? at(0) : null,
            reply_count: 0,
            created_at: at(steps[0]?.[0] ?? 0),
            updated_at: at(0),
          })
          .execute();
        for (const [minute, kind, via, commit] of steps) {
          await db
            .insertInto('comment_events')
            .values({
              id: `evt_${String(n++).padStart(26, '0')}`,
              workspace_id: 'ws_1',
              project_id: 'prj_1',
              comment_id: id,
              kind,
              actor_id: null,
              via: via ?? null,
              commit_sha: commit ?? null,
              build_sha: null,
              note: null,
              derived: 0,
              created_at: at(minute),
            })
            .execute();
        }
      }
    });

    const app = await buildApp(testConfig(database));
    try {
      const events = await app.database.db
        .selectFrom('comment_events')
        .selectAll()
        .orderBy('comment_id')
        .orderBy('created_at')
        .orderBy('id')
        .execute();
      for (const id of Object.keys(timelines)) {
        const timeline = events.filter((e) => e.comment_id === id);
        const stored = timeline.map((e) => ({
          kind: e.kind,
          span_ms: e.span_ms === null ? null : Number(e.span_ms),
          fix_via: e.fix_via,
          sent_back: Number(e.sent_back),
          first_time_right: Number(e.first_time_right),
          was_open: Number(e.was_open),
        }));
        const computed = measureTimeline(timeline).map((m, i) => ({ kind: timeline[i]?.kind, ...m }));
        assert.deepEqual(stored, computed, id);
      }
      // Spot checks of what the rules say.
      const of = (id: string, kind: string, nth = 0) =>
        events.filter((e) => e.comment_id === id && e.kind === kind)[nth];
      assert.equal(Number(of('cmt_a', 'applied')?.span_ms), 4 * 60_000);
      assert.equal(of('cmt_b', 'reapplied', 0)?.fix_via, null, 'the same commit again is no new fix');
      assert.equal(of('cmt_b', 'reapplied', 1)?.fix_via, 'mcp');
      assert.equal(Number(of('cmt_b', 'live', 1)?.span_ms), 10 * 60_000);
      assert.equal(Number(of('cmt_b', 'applied', 0)?.sent_back), 1);
      assert.equal(Number(of('cmt_b', 'verified')?.first_time_right), 0);
      assert.equal(Number(of('cmt_d', 'archived')?.was_open), 0);
      assert.equal(of('cmt_d', 'applied')?.fix_via, 'unknown');
      assert.equal(Number(of('cmt_e', 'archived')?.was_open), 1);
      assert.equal(of('cmt_f', 'verified', 1)?.span_ms, null, 'verified without going Live again: no wait measured');

      const actor = { workspaceId: 'ws_1', role: 'admin' } as Actor;
      const insights = await readInsights(app.database, actor, {
        projectId: null,
        projectKey: null,
        days: 30,
        now: Date.parse(at(60)),
      });
      assert.equal(insights.liveUnverified.count, 1);
      assert.equal(insights.liveUnverified.oldest[0]?.id, 'cmt_g');
      assert.equal(insights.rows[0]?.fixes, 9);
    } finally {
      await app.close();
    }
  });

  test('0014, 0015 (two-factor, single sign-on): people of 0013 sign in with their password as before, nothing more is required of them', async (t) => {
    const { database, drop } = await persistentDatabase();
    t.after(drop);
    const password = 'a password of 0013';
    await databaseAt(database, '0013_insights', (db) => insertAda(db, password));
    const app = await buildApp(testConfig(database));
    try {
      const signedIn = await app.inject({
        method: 'POST',
        url: '/api/auth/login',
        payload: { email: 'ada@a.test', password },
      });
      assert.equal(signedIn.statusCode, 200);
      const { token } = signedIn.json();
      assert.equal(typeof token, 'string', 'a session, no second factor asked');
      const me = await app.inject({ method: 'GET', url: '/api/me', headers: { authorization: `Bearer ${token}` } });
      assert.equal(me.json().workspace.twoFactorRequired, 'none');
      const status = await app.inject({
        method: 'GET',
        url: '/api/me/two-factor',
        headers: { authorization: `Bearer ${token}` },
      });
      assert.deepEqual(status.json(), { enabled: false, enabledAt: null, recoveryCodesLeft: 0, required: false });
      const sso = await app.inject({
        method: 'GET',
        url: '/api/workspace/sso',
        headers: { authorization: `Bearer ${token}` },
      });
      assert.equal(sso.json().configured, false);
    } finally {
      await app.close();
    }
  });

  test('0016 (languages): people and workspaces of 0015 read the apps as their page or browser says until they choose', async (t) => {
    const { database, drop } = await persistentDatabase();
    t.after(drop);
    const password = 'a password of 0015';
    await databaseAt(database, '0015_single_sign_on', (db) => insertAda(db, password));
    const app = await buildApp(testConfig(database));
    try {
      const signedIn = await app.inject({
        method: 'POST',
        url: '/api/auth/login',
        payload: { email: 'ada@a.test', password },
      });
      const headers = { authorization: `Bearer ${signedIn.json().token}` };
      const me = await app.inject({ method: 'GET', url: '/api/me', headers });
      assert.equal(me.json().user.locale, null);
      assert.equal(me.json().workspace.defaultLocale, null);
      const chosen = await app.inject({ method: 'PATCH', url: '/api/me', headers, payload: { locale: 'ar' } });
      assert.equal(chosen.json().locale, 'ar');
    } finally {
      await app.close();
    }
  });

  test('0017 (tenant doors): e-mails of 0016 in another case are lowered (one whose lowered form is taken loses it); single sign-on domains kept, unproven', async (t) => {
    const { database, drop } = await persistentDatabase();
    t.after(drop);
    const password = 'a password of 0016';
    await databaseAt(database, '0016_languages', async (db) => {
      await insertAda(db, password);
      const person = (id: string, email: string) => ({
        id,
        workspace_id: 'ws_1',
        email,
        name: id,
        role: 'member',
        password_hash: null,
        created_at: '2026-01-02T00:00:00.000Z',
      });
      // As an import of 0016 wrote them: the file's case kept.
      await db
        .insertInto('users')
        .values([person('usr_2', 'ADA@a.test'), person('usr_3', 'Bo@B.Test')])
        .execute();
      // Single sign-on of 0016: its domains listed, proven by nothing.
      await db
        .insertInto('sso_providers')
        .values({
          workspace_id: 'ws_1',
          issuer: 'https://idp.a.test',
          client_id: 'client',
          client_secret: 'sealed',
          display_name: 'A Login',
          allowed_domains: JSON.stringify(['a.test', 'gmail.com']),
          new_member_role: 'member',
          require_for_members: 0,
          updated_at: '2026-01-03T00:00:00.000Z',
        })
        .execute();
    });
    const app = await buildApp(testConfig(database));
    try {
      const emails = await app.database.db.selectFrom('users').select(['id', 'email']).orderBy('id').execute();
      assert.deepEqual(emails, [
        { id: 'usr_1', email: 'ada@a.test' },
        { id: 'usr_2', email: null },
        { id: 'usr_3', email: 'bo@b.test' },
      ]);
      const workspace = await app.database.db
        .selectFrom('workspaces')
        .select('imported_from')
        .executeTakeFirstOrThrow();
      assert.equal(workspace.imported_from, null, 'made on this server');
      const signedIn = await app.inject({
        method: 'POST',
        url: '/api/auth/login',
        payload: { email: 'ADA@A.TEST', password },
      });
      assert.equal(signedIn.json().user.id, 'usr_1', 'the sign-in finds the account it found before');
      // The domains are kept, unproven: they route nobody until the workspace proves them.
      const settings = await app.inject({
        method: 'GET',
        url: '/api/workspace/sso',
        headers: { authorization: `Bearer ${signedIn.json().token}` },
      });
      assert.deepEqual(
        settings.json().domains.map((d: { domain: string; proven: boolean }) => [d.domain, d.proven]),
        [
          ['a.test', false],
          ['gmail.com', false],
        ],
      );
      const discovered = await app.inject({ method: 'GET', url: '/api/auth/sso?email=someone@a.test' });
      assert.equal(discovered.statusCode, 404);
    } finally {
      await app.close();
    }
  });
  test('0019 (team work): people of 0018 are persons, their comments have nobody on them, and the team can take them', async (t) => {
    const { database, drop } = await persistentDatabase();
    t.after(drop);
    const password = 'a password of 0018';
    const at = '2026-02-01T00:00:00.000Z';
    await databaseAt(database, '0018_insight_rollups', async (db) => {
      await insertAda(db, password);
      await insertSite(db, at, { allowed_origins: '["https://a.test"]', page_params: '[]' });
      await insertComment(db, at, { body: 'Written in 0018' });
      await db
        .insertInto('comment_events')
        .values({
          id: 'evt_1',
          workspace_id: 'ws_1',
          project_id: 'prj_1',
          comment_id: 'cmt_1',
          kind: 'created',
          actor_id: 'usr_1',
          via: 'person',
          commit_sha: null,
          build_sha: null,
          note: null,
          derived: 0,
          created_at: at,
        })
        .execute();
    });
    const app = await buildApp(testConfig(database));
    try {
      const login = await app.inject({
        method: 'POST',
        url: '/api/auth/login',
        payload: { email: 'ada@a.test', password },
      });
      const headers = { authorization: `Bearer ${login.json().token}` };
      const team = await app.inject({ method: 'GET', url: '/api/workspace/members', headers });
      assert.deepEqual(
        team.json().items.map((m: { name: string; agent: boolean }) => [m.name, m.agent]),
        [['Ada', false]],
      );
      const before = (await app.inject({ method: 'GET', url: '/api/comments/cmt_1', headers })).json();
      assert.equal(before.assignee, null);
      assert.equal(before.can.claim, true);
      assert.deepEqual(
        before.timeline.map((e: { kind: string }) => e.kind),
        ['created'],
      );
      const unassigned = await app.inject({ method: 'GET', url: '/api/comments?assignee=none', headers });
      assert.deepEqual(
        unassigned.json().items.map((c: { id: string }) => c.id),
        ['cmt_1'],
      );
      const claimed = await app.inject({ method: 'POST', url: '/api/comments/cmt_1/claim', headers });
      assert.equal(claimed.statusCode, 200);
      assert.equal(claimed.json().assignee.name, 'Ada');
    } finally {
      await app.close();
    }
  });
  test('0020 (mentions): comments of 0019 mention nobody; a reply then mentions someone, who is told and finds it', async (t) => {
    const { database, drop } = await persistentDatabase();
    t.after(drop);
    const password = 'a password of 0019';
    const at = '2026-03-01T00:00:00.000Z';
    const lena = 'usr_01JD2W6Y1KQ9V8E0P4T3M5R7XA';
    await databaseAt(database, '0019_team_work', async (db) => {
      await insertAda(db, password);
      await db
        .insertInto('users')
        .values({
          id: lena,
          workspace_id: 'ws_1',
          email: 'lena@a.test',
          name: 'Lena',
          role: 'member',
          password_hash: await hashPassword(password),
          created_at: at,
        })
        .execute();
      await insertSite(db, at, { allowed_origins: '["https://a.test"]', page_params: '[]' });
      await db
        .insertInto('comments')
        .values({
          id: 'cmt_1',
          workspace_id: 'ws_1',
          project_id: 'prj_1',
          author_id: 'usr_1',
          body: 'Written in 0019, @Lena by hand',
          page_url: 'https://a.test/',
          status: 'open',
          reply_count: 0,
          priority: 3,
          assignee_id: lena,
          assigned_at: at,
          created_at: at,
          updated_at: at,
        })
        .execute();
    });
    const app = await buildApp(testConfig(database));
    try {
      const signIn = async (email: string) => {
        const login = await app.inject({ method: 'POST', url: '/api/auth/login', payload: { email, password } });
        return { authorization: `Bearer ${login.json().token}` };
      };
      const [ada, lenaHeaders] = [await signIn('ada@a.test'), await signIn('lena@a.test')];
      const before = await app.inject({ method: 'GET', url: '/api/comments?mentions=me', headers: lenaHeaders });
      assert.deepEqual(before.json().items, []);
      const comment = (await app.inject({ method: 'GET', url: '/api/comments/cmt_1', headers: ada })).json();
      assert.equal(comment.body, 'Written in 0019, @Lena by hand');
      assert.equal(comment.assignee.name, 'Lena');
      const reply = await app.inject({
        method: 'POST',
        url: '/api/comments/cmt_1/replies',
        headers: ada,
        payload: { body: `<@${lena}> have a look` },
      });
      assert.equal(reply.statusCode, 201, reply.body);
      assert.equal(reply.json().body, '@Lena have a look');
      const after = await app.inject({ method: 'GET', url: '/api/comments?mentions=me', headers: lenaHeaders });
      assert.deepEqual(
        after.json().items.map((c: { id: string }) => c.id),
        ['cmt_1'],
      );
      const told = await app.inject({ method: 'GET', url: '/api/me/notifications', headers: lenaHeaders });
      assert.equal(told.json().items[0].type, 'CommentMentioned');
    } finally {
      await app.close();
    }
  });
  test('0021 (images): comments of 0020 have no images; one is then attached to a reply, without its metadata', async (t) => {
    const { database, drop } = await persistentDatabase();
    t.after(drop);
    const password = 'a password of 0020';
    const at = '2026-04-01T00:00:00.000Z';
    await databaseAt(database, '0020_mentions', async (db) => {
      await insertAda(db, password);
      await insertSite(db, at, { allowed_origins: '["https://a.test"]', page_params: '[]' });
      await insertComment(db, at, { body: 'Written in 0020', reply_count: 1 });
      await insertReply(db, at, 'A reply of 0020');
    });
    const app = await buildApp(testConfig(database));
    try {
      const headers = await adaHeaders(app, password);
      const before = (await app.inject({ method: 'GET', url: '/api/comments/cmt_1', headers })).json();
      assert.deepEqual(before.images, []);
      assert.equal(before.replies[0].body, 'A reply of 0020');
      const attached = await app.inject({
        method: 'POST',
        url: '/api/comments/cmt_1/images?reply=rpl_1',
        headers: { ...headers, 'content-type': 'image/jpeg' },
        payload: jpegWithMetadata(),
      });
      assert.equal(attached.statusCode, 201, attached.body);
      const stored = await app.inject({ method: 'GET', url: attached.json().url, headers });
      assert.deepEqual(stored.rawPayload, withoutMetadata(cleanJpeg, 'image/jpeg'));
    } finally {
      await app.close();
    }
  });
  test('0022 (the picture of now): images of 0021 keep their kind, of no commit; an applied comment of 0021 then takes one picture of now, replaced by the next', async (t) => {
    const { database, drop } = await persistentDatabase();
    t.after(drop);
    const password = 'a password of 0021';
    const at = '2026-05-01T00:00:00.000Z';
    await databaseAt(database, '0021_images', async (db) => {
      await insertAda(db, password);
      await insertSite(db, at, { allowed_origins: '["https://a.test"]', page_params: '[]' });
      await insertComment(db, at, {
        body: 'Applied in 0021',
        status: 'applied',
        commit_sha: 'abcdef1',
        applied_by_id: 'usr_1',
        applied_at: at,
      });
      await insertImage(db, at);
    });
    const app = await buildApp(testConfig(database));
    try {
      const headers = await adaHeaders(app, password);
      const before = (await app.inject({ method: 'GET', url: '/api/comments/cmt_1', headers })).json();
      assert.deepEqual(
        before.images.map((image: { id: string; kind: string; commitSha: string | null }) => [
          image.id,
          image.kind,
          image.commitSha,
        ]),
        [['img_00000000000000000000000001', 'attachment', null]],
      );
      const sendNow = () =>
        app.inject({
          method: 'POST',
          url: '/api/comments/cmt_1/images?now=true',
          headers: { ...headers, 'content-type': 'image/jpeg' },
          payload: cleanJpeg,
        });
      const first = await sendNow();
      assert.equal(first.statusCode, 201, first.body);
      assert.equal(first.json().commitSha, 'abcdef1');
      const second = await sendNow();
      assert.equal(second.statusCode, 201, second.body);
      const after = (await app.inject({ method: 'GET', url: '/api/comments/cmt_1', headers })).json();
      assert.deepEqual(
        after.images.map((image: { id: string; kind: string }) => [image.id, image.kind]),
        [
          ['img_00000000000000000000000001', 'attachment'],
          [second.json().id, 'now'],
        ],
      );
      // The index holds one picture of now a comment, whoever writes it.
      const { db } = app.database;
      const row = {
        ...(await db.selectFrom('images').selectAll().where('kind', '=', 'now').executeTakeFirstOrThrow()),
      };
      await assert.rejects(
        db
          .insertInto('images')
          .values({ ...row, id: 'img_twin' })
          .execute(),
      );
    } finally {
      await app.close();
    }
  });

  test('0023 (erased words): comments and replies of 0022 are found by their words as before; a text deleted in 0022 leaves the index', async (t) => {
    const { database, drop } = await persistentDatabase();
    t.after(drop);
    const password = 'a password of 0022';
    const at = '2026-06-01T00:00:00.000Z';
    await databaseAt(database, '0022_now_images', async (db) => {
      await insertAda(db, password);
      await insertSite(db, at, { allowed_origins: '["https://a.test"]', page_params: '[]' });
      await insertComment(db, at, { body: 'The footer of 0022 wraps', reply_count: 1 });
      await insertReply(db, at, 'A reply about marmalade');
      await insertComment(db, at, { id: 'cmt_2', body: 'The account of zqvanished is locked' });
      await db.deleteFrom('comments').where('id', '=', 'cmt_2').execute();
    });
    const app = await buildApp(testConfig(database));
    try {
      const headers = await adaHeaders(app, password);
      for (const word of ['footer', 'marmalade']) {
        const found = await app.inject({ method: 'GET', url: `/api/comments?project=site&q=${word}`, headers });
        assert.deepEqual(
          found.json().items.map((comment: { id: string }) => comment.id),
          ['cmt_1'],
          word,
        );
      }
      if (dialect === 'sqlite') {
        const { rows } = await sql<{ n: number }>`select count(*) as n from comments_fts_data
          where instr(block, ${Buffer.from('zqvanished')}) > 0`.execute(app.database.db);
        assert.equal(rows[0]?.n, 0, 'the deleted text’s word is not in the index');
      }
    } finally {
      await app.close();
    }
  });

  test('0025 (stored bytes): what a workspace of the release before stored is counted, and its deletions and uploads then counted too', async (t) => {
    const { database, drop } = await persistentDatabase();
    t.after(drop);
    const password = 'a password of 0024';
    const at = '2026-07-01T00:00:00.000Z';
    // The release before this one, whichever migration it ended with.
    const names = Object.keys(await migrationProvider.getMigrations()).sort();
    const before = names[names.indexOf('0025_stored_bytes') - 1] as string;
    await databaseAt(database, before, async (db) => {
      await insertAda(db, password);
      await db.insertInto('workspaces').values({ id: 'ws_2', name: 'Empty', created_at: at }).execute();
      await insertSite(db, at, { allowed_origins: '["https://a.test"]', page_params: '[]' });
      await insertComment(db, at, { body: 'With pictures' });
      await insertComment(db, at, { id: 'cmt_2', body: 'With a screenshot' });
      await insertImage(db, at, { id: 'img_1' });
      await insertImage(db, at, { id: 'img_2' });
      await db
        .insertInto('attachments')
        .values({
          id: 'att_1',
          workspace_id: 'ws_1',
          comment_id: 'cmt_2',
          kind: 'screenshot',
          content_type: 'image/jpeg',
          bytes: cleanJpeg,
          size: cleanJpeg.length,
          created_at: at,
        })
        .execute();
    });
    const app = await buildApp(testConfig(database));
    try {
      const headers = await adaHeaders(app, password);
      const storage = async () => (await app.inject({ method: 'GET', url: '/api/workspace/storage', headers })).json();
      assert.equal((await storage()).usedBytes, 3 * cleanJpeg.length, 'counted at the upgrade');
      const empty = await app.database.db
        .selectFrom('workspaces')
        .select('stored_bytes')
        .where('id', '=', 'ws_2')
        .executeTakeFirstOrThrow();
      assert.equal(Number(empty.stored_bytes), 0);
      assert.equal((await app.inject({ method: 'DELETE', url: '/api/comments/cmt_1', headers })).statusCode, 204);
      assert.equal((await storage()).usedBytes, cleanJpeg.length, 'a comment deleted: its images freed');
      const sent = await app.inject({
        method: 'POST',
        url: '/api/comments/cmt_2/images',
        headers: { ...headers, 'content-type': 'image/jpeg' },
        payload: cleanJpeg,
      });
      assert.equal(sent.statusCode, 201, sent.body);
      assert.equal((await storage()).usedBytes, cleanJpeg.length + sent.json().bytes, 'an upload counted, as stored');
    } finally {
      await app.close();
    }
  });

  test('0026 (following): notifications of 0025 stand for one comment each; its admins follow every project and a member the project of the comment they are on; a new comment then tells them, gathered', async (t) => {
    const { database, drop } = await persistentDatabase();
    t.after(drop);
    const password = 'a password of 0025';
    const at = '2026-08-01T00:00:00.000Z';
    await databaseAt(database, '0025_stored_bytes', async (db) => {
      await insertAda(db, password);
      await db
        .insertInto('users')
        .values({
          id: 'usr_2',
          workspace_id: 'ws_1',
          email: 'mo@a.test',
          name: 'Mo',
          role: 'member',
          password_hash: await hashPassword(password),
          created_at: at,
        })
        .execute();
      await insertSite(db, at, { allowed_origins: '["https://a.test"]', page_params: '[]' });
      await insertComment(db, at, { body: 'Mo is on it', author_id: 'usr_2', assignee_id: 'usr_2', assigned_at: at });
      await db
        .insertInto('notifications')
        .values({
          // Ids are time-sortable: one of before sorts before those made now.
          id: 'ntf_01J00000000000000000000000',
          workspace_id: 'ws_1',
          recipient_id: 'usr_1',
          type: 'ReplyAdded',
          comment_id: 'cmt_1',
          actor_id: 'usr_2',
          excerpt: 'A reply of 0025',
          read_at: null,
          created_at: at,
        })
        .execute();
    });
    const app = await buildApp(testConfig(database));
    try {
      const ada = await adaHeaders(app, password);
      const login = await app.inject({
        method: 'POST',
        url: '/api/auth/login',
        payload: { email: 'mo@a.test', password },
      });
      const mo = { authorization: `Bearer ${login.json().token}` };
      const get = async (url: string, headers: Record<string, string>) =>
        (await app.inject({ method: 'GET', url, headers })).json();
      const [old] = (await get('/api/me/notifications', ada)).items;
      assert.equal(old.id, 'ntf_01J00000000000000000000000');
      assert.equal(old.type, 'ReplyAdded');
      assert.equal('commentCount' in old, false);
      for (const headers of [ada, mo])
        assert.deepEqual(await get('/api/me/following', headers), { items: [{ projectKey: 'site', following: true }] });
      // Two comments of Mo: one item for Ada, gathering both, beside the one of 0025.
      for (const body of ['First of 0026', 'Second of 0026']) {
        const created = await app.inject({
          method: 'POST',
          url: '/api/projects/site/comments',
          headers: mo,
          payload: { body, pageUrl: 'https://a.test/' },
        });
        assert.equal(created.statusCode, 201, created.body);
      }
      const items = (await get('/api/me/notifications', ada)).items;
      assert.deepEqual(
        items.map((n: { type: string; commentCount?: number }) => [n.type, n.commentCount]),
        [
          ['CommentCreated', 2],
          ['ReplyAdded', undefined],
        ],
      );
      assert.equal((await get('/api/me/notifications/unread-count', ada)).count, 2);
    } finally {
      await app.close();
    }
  });

  test('0027 (checked notes): a note "Not fixed" of 0026 keeps its mention of a reader under their own name, recorded; one of anyone else is the text it showed', async (t) => {
    const { database, drop } = await persistentDatabase();
    t.after(drop);
    const password = 'a password of 0026';
    const at = '2026-06-01T00:00:00.000Z';
    const lena = 'usr_01JD2W6Y1KQ9V8E0P4T3M5R7XA';
    const otto = 'usr_01JD2W6Y1KQ9V8E0P4T3M5R7XB';
    const stranger = 'usr_01JD2W6Y1KQ9V8E0P4T3M5R7XC';
    const note = `ask <@${lena}|The CEO>, <@${otto}|Otto> and <@${stranger}|Any name>`;
    await databaseAt(database, '0026_following', async (db) => {
      await insertAda(db, password);
      await db.insertInto('workspaces').values({ id: 'ws_2', name: 'Elsewhere', created_at: at }).execute();
      await insertSite(db, at, { allowed_origins: '["https://a.test"]', page_params: '[]' });
      await db
        .insertInto('projects')
        .values({ id: 'prj_2', workspace_id: 'ws_1', key: 'shop', name: 'Shop', created_at: at })
        .execute();
      const person = (id: string, workspace: string, name: string, role: string, project: string | null) =>
        db
          .insertInto('users')
          .values({
            id,
            workspace_id: workspace,
            email: `${name}@a.test`,
            name,
            role,
            project_id: project,
            created_at: at,
          })
          .execute();
      await person(lena, 'ws_1', 'Lena', 'member', null);
      await person(otto, 'ws_1', 'Otto', 'client', 'prj_2');
      await person(stranger, 'ws_2', 'Stranger', 'admin', null);
      await insertComment(db, at, { body: 'Written in 0026', reply_count: 1 });
      await insertReply(db, at, `Not fixed: ${note}`);
      await db
        .insertInto('comment_events')
        .values({
          id: 'evt_1',
          workspace_id: 'ws_1',
          project_id: 'prj_1',
          comment_id: 'cmt_1',
          kind: 'not_fixed',
          actor_id: 'usr_1',
          via: 'person',
          note,
          derived: 0,
          created_at: at,
        })
        .execute();
    });
    const app = await buildApp(testConfig(database));
    try {
      const ada = await adaHeaders(app, password);
      const comment = (await app.inject({ method: 'GET', url: '/api/comments/cmt_1', headers: ada })).json();
      const shown = 'ask @Lena, @Otto and @Any name';
      assert.equal(comment.replies[0].body, `Not fixed: ${shown}`);
      assert.equal(comment.timeline.find((e: { kind: string }) => e.kind === 'not_fixed').note, shown);
      assert.doesNotMatch(
        JSON.stringify(comment),
        new RegExp(`${otto}|${stranger}`),
        'no mention of anyone who cannot read it',
      );
      const stored = await app.database.db
        .selectFrom('replies')
        .select('body')
        .where('id', '=', 'rpl_1')
        .executeTakeFirstOrThrow();
      assert.equal(stored.body, `Not fixed: ask <@${lena}|Lena>, @Otto and @Any name`);
      const mentioned = await app.database.db
        .selectFrom('comment_mentions')
        .select(['comment_id', 'user_id'])
        .execute();
      assert.deepEqual(mentioned, [{ comment_id: 'cmt_1', user_id: lena }]);
      // The workspace's export imports: every mention it holds is of someone it lists.
      const exported = await app.inject({ method: 'GET', url: '/api/workspace/export', headers: ada });
      assert.equal(exported.statusCode, 200);
      assert.doesNotMatch(exported.body, new RegExp(`<@(${otto}|${stranger})`));
    } finally {
      await app.close();
    }
  });
  test('0029 (replays): projects of the release before keep no replays until an admin turns them on; a replay then sent is counted in the storage and freed with its comment', async (t) => {
    const { database, drop } = await persistentDatabase();
    t.after(drop);
    const password = 'a password of 0028';
    const at = '2026-08-01T00:00:00.000Z';
    const names = Object.keys(await migrationProvider.getMigrations()).sort();
    const before = names[names.indexOf('0029_replays') - 1] as string;
    await databaseAt(database, before, async (db) => {
      await insertAda(db, password);
      await insertSite(db, at, { allowed_origins: '["https://a.test"]', page_params: '[]' });
      await insertComment(db, at, { body: 'Before replays' });
      await db
        .insertInto('attachments')
        .values({
          id: 'att_1',
          workspace_id: 'ws_1',
          comment_id: 'cmt_1',
          kind: 'screenshot',
          content_type: 'image/jpeg',
          bytes: cleanJpeg,
          size: cleanJpeg.length,
          created_at: at,
        })
        .execute();
    });
    const app = await buildApp(testConfig(database));
    try {
      const headers = await adaHeaders(app, password);
      const site = await app.inject({ method: 'GET', url: '/api/projects/site', headers });
      assert.deepEqual(site.json().replay, { on: false, seconds: 60, maskAllText: false }, 'off, as it was');
      const replay = gzipSync(JSON.stringify([{ type: 4, timestamp: 1, data: {} }]));
      const put = () =>
        app.inject({
          method: 'PUT',
          url: '/api/comments/cmt_1/replay',
          headers: { ...headers, 'content-type': 'application/gzip' },
          payload: replay,
        });
      assert.equal((await put()).statusCode, 409, 'kept only once turned on');
      const on = await app.inject({
        method: 'PATCH',
        url: '/api/projects/site',
        headers,
        payload: { replay: { on: true } },
      });
      assert.deepEqual(on.json().replay, { on: true, seconds: 60, maskAllText: false });
      const sent = await put();
      assert.equal(sent.statusCode, 200, sent.body);
      assert.equal(sent.json().screenshot.bytes, cleanJpeg.length, 'its screenshot kept beside it');
      const storage = async () => (await app.inject({ method: 'GET', url: '/api/workspace/storage', headers })).json();
      assert.equal((await storage()).usedBytes, cleanJpeg.length + replay.length, 'the replay counted');
      assert.equal((await app.inject({ method: 'DELETE', url: '/api/comments/cmt_1', headers })).statusCode, 204);
      assert.equal((await storage()).usedBytes, 0, 'freed with its comment');
    } finally {
      await app.close();
    }
  });

  test('0028 (due dates): comments of 0027 have no due date, list and sort as before, and take one', async (t) => {
    const { database, drop } = await persistentDatabase();
    t.after(drop);
    const password = 'a password of 0027';
    const at = '2026-06-01T00:00:00.000Z';
    await databaseAt(database, '0027_checked_notes', async (db) => {
      await insertAda(db, password);
      await insertSite(db, at, { allowed_origins: '["https://a.test"]', page_params: '[]' });
      await insertComment(db, at, { body: 'Written in 0027', priority: 3 });
    });
    const app = await buildApp(testConfig(database));
    try {
      const ada = await adaHeaders(app, password);
      const get = (url: string) => app.inject({ method: 'GET', url, headers: ada });
      const comment = (await get('/api/comments/cmt_1')).json();
      assert.equal(comment.dueOn, null);
      assert.equal(comment.priority, 'high');
      assert.deepEqual(
        (await get('/api/comments?sort=due')).json().items.map((c: { id: string }) => c.id),
        ['cmt_1'],
        'listed by due date, among those without one',
      );
      assert.equal((await get('/api/comments?overdue=true')).json().items.length, 0);
      const set = await app.inject({
        method: 'PATCH',
        url: '/api/comments/cmt_1',
        headers: ada,
        payload: { dueOn: '2026-06-02' },
      });
      assert.equal(set.statusCode, 200, set.body);
      assert.equal((await get('/api/projects/site/comments?dueBy=2026-06-30')).json().items[0].dueOn, '2026-06-02');
      const exported = await get('/api/workspace/export');
      assert.match(exported.body, /"dueOn":"2026-06-02"/);
    } finally {
      await app.close();
    }
  });
});
