import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { after, before, describe, test } from 'node:test';
import {
  createComment,
  createProject,
  createTestApp,
  dialect,
  type Member,
  signUp,
  type TestApp,
} from '../../../test/helpers.js';
import type { Actor } from '../../actor.js';
import { type ExportJob, exportLines } from './export.js';
import { EXPORT_THREADS, ExportThreads } from './export-thread.js';

async function text(lines: AsyncIterable<string | Buffer> | Readable): Promise<string> {
  let all = '';
  for await (const line of lines) all += line;
  return all;
}

/** The export without its header's moment, which differs between two runs. */
const withoutMoment = (exported: string) => exported.replace(/"exportedAt":"[^"]+"/, '"exportedAt":"…"');

describe(`exports on threads of their own (${dialect})`, () => {
  let t: TestApp;
  let dir: string | null = null;
  let admin: Member;
  let actor: Actor;
  let job: (format: ExportJob['format']) => ExportJob;
  let threads: ExportThreads;

  before(async () => {
    // In memory, no other thread can read SQLite: a file, as the server has.
    if (dialect === 'sqlite') dir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-export-threads-'));
    t = await createTestApp({
      limits: { commentsPerMinute: 1000 },
      ...(dir ? { database: { dialect: 'sqlite', file: path.join(dir, 'svc.db') } } : {}),
    });
    admin = await signUp(t.app);
    const project = await createProject(t.app, admin);
    // Long enough bodies that an export is several chunks of text.
    for (let i = 0; i < 300; i++) {
      await createComment(t.app, admin, project.key, `Comment ${i}: ${'the “price” is wrong, “quoted”; '.repeat(12)}`);
    }
    actor = {
      id: admin.id,
      workspaceId: admin.workspaceId,
      name: 'Ada Admin',
      role: 'admin',
      projectId: null,
      credential: { kind: 'session', id: 'ses_x', hash: 'x', lastUsedAt: 0, expiresAt: Infinity, idleMs: Infinity },
    };
    job = (format) => ({ format, serverVersion: t.app.ctx.version, actor, projectId: null });
    threads = new ExportThreads(t.app.ctx.config.database, t.app.ctx.db);
  });
  after(async () => {
    await threads.close();
    await t.close();
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  test('what a thread writes is what the server would, line for line, JSON Lines and CSV', async () => {
    for (const format of ['jsonl', 'csv'] as const) {
      const threaded = await text(threads.lines(job(format)));
      const here = await text(exportLines(t.app.ctx.db, job(format)));
      assert.ok(threaded.length > 300 * 400, `${format}: ${threaded.length} characters`);
      assert.equal(withoutMoment(threaded), withoutMoment(here), format);
    }
  });

  test('more exports than threads: the others wait for one, and every one is whole', async () => {
    const expected = withoutMoment(await text(exportLines(t.app.ctx.db, job('jsonl'))));
    const exports = await Promise.all(
      Array.from({ length: EXPORT_THREADS * 2 + 1 }, () => text(threads.lines(job('jsonl')))),
    );
    for (const exported of exports) assert.equal(withoutMoment(exported), expected);
  });

  test('an export left half read (its client gone) frees its thread for the next', async () => {
    for (let i = 0; i < EXPORT_THREADS + 1; i++) {
      const stream = threads.lines(job('jsonl'));
      for await (const chunk of stream) {
        assert.ok(String(chunk).startsWith('{"type":"export"'));
        break; // Leaving the loop destroys the stream, as a closed connection does.
      }
    }
    const whole = await text(threads.lines(job('csv')));
    assert.equal(whole.trimEnd().split('\r\n').length, 301);
  });

  test('through the API: the same file, streamed', async () => {
    const answer = await t.app.inject({
      method: 'GET',
      url: '/api/workspace/export',
      headers: { authorization: `Bearer ${admin.token}` },
    });
    assert.equal(answer.statusCode, 200);
    assert.equal(answer.body.trimEnd().split('\n').length, 1 + 1 + 1 + 300);
  });
});
