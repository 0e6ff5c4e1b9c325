import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import {
  call,
  createComment,
  createProject,
  createTestApp,
  createTestDatabase,
  dialect,
  signUp,
  type TestApp,
} from '../test/helpers.js';
import { callServer, killRemainingServers, startServer } from '../test/server-process.js';
import { createCaches } from './caches.js';
import { inTransaction } from './db/transaction.js';
import { newId, nowIso } from './ids.js';
import { countUnread, insertNotification } from './modules/notifications/repo.js';

/**
 * Only PostgreSQL can read between a write and its commit (another connection of the pool);
 * SQLite's one connection waits for the transaction, so there is no such moment to test.
 */
describe('caches are dropped only once the write has committed', { skip: dialect !== 'postgres' }, () => {
  /** A notification for `recipientId`, written in `trx` and announced as the code paths do. */
  const notify = async (t: TestApp, trx: Parameters<Parameters<typeof inTransaction>[1]>[0], ids: Ids) => {
    await insertNotification(trx, {
      id: newId('ntf'),
      workspace_id: ids.workspaceId,
      recipient_id: ids.recipientId,
      type: 'ReplyAdded',
      comment_id: ids.commentId,
      actor_id: null,
      excerpt: 'between write and commit',
      commit_sha: null,
      commit_url: null,
      read_at: null,
      created_at: nowIso(t.app.ctx.clock),
    });
    await t.app.database.changes.publish(trx, { kind: 'unread', key: ids.recipientId });
  };
  interface Ids {
    workspaceId: string;
    recipientId: string;
    commentId: string;
  }
  const setUp = async (t: TestApp): Promise<Ids> => {
    const user = await signUp(t.app);
    const project = await createProject(t.app, user);
    const comment = await createComment(t.app, user, project.key);
    return { workspaceId: user.workspaceId, recipientId: user.id, commentId: comment.id };
  };

  test('a reader that reloads between the write and its commit does not leave the old count cached', async () => {
    const t = await createTestApp();
    try {
      const ids = await setUp(t);
      const caches = createCaches(t.app.database);
      const read = () => countUnread(t.app.database.db, ids.recipientId);
      assert.equal(await caches.unreadCounts.load(ids.recipientId, read), 0);
      await inTransaction(t.app.database.db, async (trx) => {
        await notify(t, trx, ids);
        // Another connection still sees the committed past, and the cache may take it.
        assert.equal(await caches.unreadCounts.load(ids.recipientId, read), 0);
      });
      // At once after the commit, before any notice from the database arrives.
      assert.notEqual(caches.unreadCounts.get(ids.recipientId), 0, 'the old count is not kept past the commit');
      assert.equal(await caches.unreadCounts.load(ids.recipientId, read), 1);
    } finally {
      await t.close();
    }
  });

  test('across two processes: one that caches between the write and its commit hears the change once committed', async () => {
    const { database, drop } = await createTestDatabase();
    if (database.dialect !== 'postgres') return;
    const reader = await startServer({ DATABASE_URL: database.url, SVC_DEMO: 'false' });
    const { buildApp } = await import('./app.js');
    const { testConfig } = await import('../test/helpers.js');
    const writer = await buildApp(testConfig(database));
    const t = { app: writer, close: async () => {} } as TestApp;
    try {
      const signup = await callServer(reader.baseUrl, 'POST', '/api/signup', {
        body: { workspaceName: 'W', name: 'R', email: 'reader@example.test', password: 'long enough pass' },
      });
      const token = signup.body.token as string;
      await callServer(reader.baseUrl, 'POST', '/api/projects', { token, body: { key: 'site', name: 'Site' } });
      const comment = await callServer(reader.baseUrl, 'POST', '/api/projects/site/comments', {
        token,
        body: { body: 'x', pageUrl: 'https://a.test/' },
      });
      const ids = {
        workspaceId: signup.body.workspace.id,
        recipientId: signup.body.user.id,
        commentId: comment.body.id,
      };
      const count = async () =>
        (await callServer(reader.baseUrl, 'GET', '/api/me/notifications/unread-count', { token })).body.count;
      assert.equal(await count(), 0);
      await inTransaction(writer.database.db, async (trx) => {
        await notify(t, trx, ids);
        // The other process polls meanwhile: it sees, and caches, the committed past.
        assert.equal(await count(), 0);
        assert.equal(await count(), 0);
      });
      const deadline = Date.now() + 2_000;
      let seen = await count();
      while (seen !== 1 && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 10));
        seen = await count();
      }
      assert.equal(seen, 1, 'the reader dropped its cached count when the write committed');
      assert.equal((await call(writer, 'GET', '/healthz')).status, 200);
    } finally {
      await writer.close();
      await reader.stop();
      await drop();
    }
  });
});

after(killRemainingServers);
