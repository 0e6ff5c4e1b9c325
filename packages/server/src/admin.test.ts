import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import SQLite from 'better-sqlite3';
import {
  call,
  createComment,
  createProject,
  createTestDatabase,
  dialect,
  signUp,
  TEST_SECRET_KEY,
  testConfig,
} from '../test/helpers.js';
import { cleanPng, noisePng } from '../test/images.js';
import { zipOf } from '../test/zip.js';
import { buildApp } from './app.js';
import type { DatabaseConfig } from './config.js';
import { keepDomains, listDomains } from './modules/sso/domains.js';
import { codeAt } from './modules/two-factor/totp.js';

const adminEntry = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../dist/admin.js');

type Run = { code: number | null; stdout: string; stderr: string };
const USAGE_TEXT = /Usage: npm run admin/;

/** The exit-code rule: an operation refused or failed exits 1 with its message, without the usage text. */
function refusedWith(run: Run, message: RegExp): void {
  assert.equal(run.code, 1, run.stderr);
  assert.match(run.stderr, message);
  assert.doesNotMatch(run.stderr, USAGE_TEXT);
}

/** The exit-code rule: a mistake in how the command was called exits 2 with its message and the usage text. */
function misusedWith(run: Run, message: RegExp): void {
  assert.equal(run.code, 2, run.stderr);
  assert.match(run.stderr, message);
  assert.match(run.stderr, USAGE_TEXT);
}

describe('the admin command on a closed server', () => {
  let database: DatabaseConfig;
  let env: Record<string, string>;
  let cleanup: () => Promise<void>;
  before(async () => {
    const created = await createTestDatabase();
    if (created.database.dialect === 'postgres') {
      database = created.database;
      env = { DATABASE_URL: created.database.url };
      cleanup = created.drop;
    } else {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-admin-'));
      database = { dialect: 'sqlite', file: path.join(dir, 'svc.db') };
      env = { SVC_DATA_DIR: dir };
      cleanup = async () => fs.rmSync(dir, { recursive: true, force: true });
    }
  });
  after(() => cleanup());

  const runAdmin =
    (extra: Record<string, string>) =>
    (...args: string[]) => {
      const run = spawnSync(process.execPath, [adminEntry, ...args], {
        env: { PATH: process.env.PATH ?? '', ...env, ...extra },
        encoding: 'utf8',
      });
      return { code: run.status, stdout: run.stdout, stderr: run.stderr };
    };
  /** The admin command, with the test servers' secret key (as an operator's environment has the server's). */
  const admin = Object.assign(runAdmin({ SVC_SECRET_KEY: TEST_SECRET_KEY.toString('base64') }), {
    withEnv: runAdmin,
  });
  const withApp = async (fn: (app: Awaited<ReturnType<typeof buildApp>>) => Promise<void>) => {
    const app = await buildApp(testConfig(database, { signup: 'closed' }));
    try {
      await fn(app);
    } finally {
      await app.close();
    }
  };

  test('create-admin, reset-password and create-api-key let an operator in; mistakes exit 1 or 2 with a message', async () => {
    const created = admin(
      'create-admin',
      '--email',
      'Owner@Example.com',
      '--name',
      'Olga Owner',
      '--workspace',
      'Acme',
    );
    assert.equal(created.code, 0, created.stderr);
    const password = /Password \(shown once\): (\S+)/.exec(created.stdout)?.[1];
    assert.ok(password);
    let session = '';
    await withApp(async (app) => {
      const login = await call(app, 'POST', '/api/auth/login', { body: { email: 'owner@example.com', password } });
      assert.equal(login.status, 200);
      assert.equal(login.body.user.role, 'admin');
      session = login.body.token;
    });

    const reset = admin('reset-password', 'owner@example.com');
    assert.equal(reset.code, 0, reset.stderr);
    const newPassword = /\(shown once\): (\S+)/.exec(reset.stdout)?.[1];
    assert.match(reset.stdout, /1 session\(s\) ended/);
    const key = admin('create-api-key', 'owner@example.com', '--name', 'ci');
    assert.equal(key.code, 0, key.stderr);
    const apiKey = /(svc_key_\S+)/.exec(key.stdout)?.[1];
    await withApp(async (app) => {
      assert.equal((await call(app, 'GET', '/api/me', { token: session })).status, 401, 'the reset ended the session');
      const login = (p: string | undefined) =>
        call(app, 'POST', '/api/auth/login', { body: { email: 'owner@example.com', password: p } });
      assert.equal((await login(password)).status, 401);
      assert.equal((await login(newPassword)).status, 200);
      assert.equal((await call(app, 'GET', '/api/me', { token: apiKey })).body.user.email, 'owner@example.com');
    });

    const unknown = admin('reset-password', 'nobody@example.com');
    refusedWith(unknown, /No user has the e-mail nobody@example\.com/);
    refusedWith(admin('create-admin', '--email', 'owner@example.com', '--name', 'X'), /already in use/);
    // A name follows the API's rule for names: no controls, no direction overrides.
    refusedWith(
      admin('create-admin', '--email', 'bidi@example.com', '--name', 'Olga\u202eOwner', '--workspace', 'Acme'),
      /\/name must not contain control characters or bidirectional formatting characters/,
    );
    refusedWith(
      admin('create-admin', '--email', 'bidi@example.com', '--name', 'Olga', '--workspace', 'Acme\u009b'),
      /\/workspaceName must not contain control characters/,
    );
    refusedWith(admin('create-api-key', 'owner@example.com', '--name', 'key\u2066'), /\/name must not contain/);
    misusedWith(admin('frobnicate'), /Unknown command "frobnicate"/);
    misusedWith(admin('create-admin', '--email', 'x@example.com'), /create-admin needs --email and --name/);
    misusedWith(admin('reset-password', 'x@example.com', '--frob'), /Unknown option '--frob'/);
    misusedWith(admin('reset-password'), /reset-password needs the user's e-mail/);
    refusedWith(
      admin.withEnv({ SVC_SECRET_KEY: 'too short' })('reset-password', 'owner@example.com'),
      /SVC_SECRET_KEY/,
    );
    assert.match(admin('help').stdout, /create-admin --email/);
  });

  test('reseal-secrets re-encrypts seeds under a new key; reset-two-factor lets a locked-out admin in with the password', async () => {
    const created = admin('create-admin', '--email', 'locked@example.com', '--name', 'Lou Locked');
    assert.equal(created.code, 0, created.stderr);
    const password = /Password \(shown once\): (\S+)/.exec(created.stdout)?.[1] ?? '';
    const login = (app: Awaited<ReturnType<typeof buildApp>>) =>
      call(app, 'POST', '/api/auth/login', { body: { email: 'locked@example.com', password } });
    let seed = '';
    let recoveryCodes: string[] = [];
    await withApp(async (app) => {
      const token = (await login(app)).body.token;
      seed = (await call(app, 'POST', '/api/me/two-factor/enrolment', { token, body: { password } })).body.secret;
      const on = await call(app, 'POST', '/api/me/two-factor/confirm', {
        token,
        body: { code: codeAt(seed, Date.now() - 30_000) },
      });
      assert.equal(on.status, 200);
      recoveryCodes = on.body.recoveryCodes;
    });

    // The key rotates: the new one current, the old one (the test servers') still read.
    const newKey = randomBytes(32);
    const keys = {
      SVC_SECRET_KEY: newKey.toString('base64'),
      SVC_SECRET_KEY_PREVIOUS: TEST_SECRET_KEY.toString('base64'),
    };
    const resealed = admin.withEnv(keys)('reseal-secrets');
    assert.equal(resealed.code, 0, resealed.stderr);
    assert.match(
      resealed.stdout,
      /^2 secret holder\(s\) \(accounts and the server's own keys\) were sealed with an older key/,
    );
    assert.match(admin.withEnv(keys)('reseal-secrets').stdout, /^0 secret holder/, 'nothing left to do');
    const app = await buildApp(testConfig(database, { signup: 'closed', secretKeys: [newKey] }));
    try {
      const asked = await login(app);
      assert.equal(asked.body.secondFactor, 'code');
      const answered = await call(app, 'POST', '/api/auth/two-factor', {
        body: { challenge: asked.body.challenge, code: codeAt(seed, Date.now()) },
      });
      assert.equal(answered.status, 200, 'the seed opens with the new key alone');
      const again = await login(app);
      const byRecovery = await call(app, 'POST', '/api/auth/two-factor', {
        body: { challenge: again.body.challenge, code: recoveryCodes[0] },
      });
      assert.equal(byRecovery.status, 200, 'a recovery code made before the rotation still works');
    } finally {
      await app.close();
    }

    const reset = admin('reset-two-factor', 'locked@example.com');
    assert.equal(reset.code, 0, reset.stderr);
    await withApp(async (app) => {
      assert.equal(typeof (await login(app)).body.token, 'string', 'the password alone signs in');
    });
  });

  test('prove-domain: the operator proves a domain a workspace lists (closed networks); public and unlisted ones are refused', async () => {
    const workspaceId = 'ws_PROVEDOMAINCORP';
    const otherId = 'ws_PROVEDOMAINOTHER';
    await withApp(async (app) => {
      const created_at = new Date().toISOString();
      await app.database.db
        .insertInto('workspaces')
        .values([
          { id: workspaceId, name: 'Corp', created_at },
          { id: otherId, name: 'Other', created_at },
        ])
        .execute();
      // As an upgrade keeps what a release before let a workspace list: a public mail domain among them.
      await keepDomains(app.database.db, workspaceId, ['corp.test', 'gmail.com'], new Date().toISOString());
      await keepDomains(app.database.db, otherId, ['corp.test'], new Date().toISOString());
    });
    assert.equal(admin('prove-domain', 'corp.test').code, 2, 'no workspace named');
    const unlisted = admin('prove-domain', 'other.test', '--workspace', workspaceId);
    assert.equal(unlisted.code, 1);
    assert.match(unlisted.stderr, /does not list other\.test/);
    const gmail = admin('prove-domain', 'gmail.com', '--workspace', workspaceId);
    assert.equal(gmail.code, 1);
    assert.match(gmail.stderr, /gmail\.com is a public mail domain/);
    const proven = admin('prove-domain', 'Corp.test', '--workspace', workspaceId);
    assert.equal(proven.code, 0, proven.stderr);
    assert.match(proven.stdout, /corp\.test is proven for workspace/);
    assert.match(admin('prove-domain', 'corp.test', '--workspace', workspaceId).stdout, /already/);
    const second = admin('prove-domain', 'corp.test', '--workspace', otherId);
    assert.equal(second.code, 1);
    assert.match(second.stderr, /Another workspace on this server has proven corp\.test/);
    await withApp(async (app) => {
      const rows = await listDomains(app.database.db, workspaceId);
      assert.deepEqual(
        rows.map((row) => [row.domain, row.proven_by]),
        [
          ['corp.test', 'operator'],
          ['gmail.com', null],
        ],
      );
      assert.equal((await listDomains(app.database.db, otherId))[0]?.proven_at, null);
    });
  });

  test('storage and set-storage-quota: the operator reads each workspace’s use and gives one a quota of its own, which uploads are then held to', async () => {
    /** A workspace the command makes, and its admin signed in. */
    const workspaceOf = async (app: Awaited<ReturnType<typeof buildApp>>, name: string) => {
      const email = `${name.toLowerCase()}@storage.test`;
      const created = admin('create-admin', '--email', email, '--name', name, '--workspace', `${name}’s`);
      const password = /Password \(shown once\): (\S+)/.exec(created.stdout)?.[1];
      const { token, user } = (await call(app, 'POST', '/api/auth/login', { body: { email, password } })).body;
      const workspaceId = (await call(app, 'GET', '/api/me', { token })).body.workspace.id as string;
      return { token: token as string, id: user.id as string, email, role: 'admin', workspaceId };
    };
    let full = { id: '', token: '', comment: '' };
    let empty = '';
    await withApp(async (app) => {
      const owner = await workspaceOf(app, 'Stella');
      const project = await createProject(app, owner);
      const { id } = await createComment(app, owner, project.key, 'With a picture');
      const sent = await app.inject({
        method: 'POST',
        url: `/api/comments/${id}/images`,
        headers: { authorization: `Bearer ${owner.token}`, 'content-type': 'image/png' },
        payload: noisePng(100, 100),
      });
      assert.equal(sent.statusCode, 201, sent.body);
      full = { id: owner.workspaceId, token: owner.token, comment: id };
      empty = (await workspaceOf(app, 'Eddie')).workspaceId;
    });
    const listed = admin('storage');
    assert.equal(listed.code, 0, listed.stderr);
    const lines = listed.stdout.trim().split('\n');
    assert.match(
      lines[0] ?? '',
      new RegExp(`^${full.id} "Stella’s": 29\\.[0-9] KB of 5 GB \\(0%\\), the server's quota$`),
    );
    assert.ok(lines.some((line) => line.startsWith(`${empty} `) && line.includes(': 0 bytes of 5 GB')));
    const set = admin('set-storage-quota', '20KB', '--workspace', full.id);
    assert.equal(set.code, 0, set.stderr);
    assert.match(set.stdout, /Storage quota set\. .*: 29\.\d KB of 20 KB \(147%\), its own quota/);
    assert.match(admin('storage', '--workspace', full.id).stdout, /of 20 KB/);
    await withApp(async (app) => {
      const storage = await call(app, 'GET', '/api/workspace/storage', { token: full.token });
      assert.equal(storage.body.quotaBytes, 20 * 1024);
      const refused = await app.inject({
        method: 'POST',
        url: `/api/comments/${full.comment}/images`,
        headers: { authorization: `Bearer ${full.token}`, 'content-type': 'image/png' },
        payload: noisePng(10, 10),
      });
      assert.equal(refused.statusCode, 413, refused.body);
    });
    assert.equal(admin('set-storage-quota', 'default', '--workspace', full.id).code, 0);
    assert.match(admin('storage', '--workspace', full.id).stdout, /of 5 GB .*the server's quota/);
    misusedWith(admin('set-storage-quota', '20', '--workspace', full.id), /needs a size \(such as 500MB/);
    misusedWith(admin('set-storage-quota', '20GB'), /--workspace <workspace id>/);
    refusedWith(admin('set-storage-quota', '1GB', '--workspace', 'ws_NOWHERE'), /No workspace has the id ws_NOWHERE/);
    refusedWith(admin('storage', '--workspace', 'ws_NOWHERE'), /No workspace has the id ws_NOWHERE/);
  });

  test('import: an export from another server, with its ids; twice adds nothing; its admin gets in by a reset', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-export-'));
    try {
      const source = await buildApp(testConfig({ dialect: 'sqlite', file: path.join(dir, 'source.db') }));
      const owner = await signUp(source, 'Ines Imported');
      const project = await createProject(source, owner);
      const { id } = await createComment(source, owner, project.key, 'Moved with its id');
      const shot = await source.inject({
        method: 'PUT',
        url: `/api/comments/${id}/screenshot`,
        headers: { authorization: `Bearer ${owner.token}`, 'content-type': 'image/png' },
        payload: cleanPng,
      });
      assert.equal(shot.statusCode, 200, shot.body);
      const file = path.join(dir, 'export.jsonl');
      const zip = path.join(dir, 'export.zip');
      const download = (url: string) =>
        source.inject({ method: 'GET', url, headers: { authorization: `Bearer ${owner.token}` } });
      fs.writeFileSync(file, (await download('/api/workspace/export')).body);
      fs.writeFileSync(zip, (await download('/api/workspace/export/screenshots')).rawPayload);
      await source.close();

      refusedWith(
        admin('import', file, '--screenshots', path.join(dir, 'missing.zip')),
        /There is no file .*missing\.zip/,
      );
      const wrong = path.join(dir, 'wrong.zip');
      fs.writeFileSync(wrong, await zipOf(new Map([[`${project.key}/cmt_ELSEWHERE.png`, cleanPng]])));
      refusedWith(
        admin('import', file, '--screenshots', wrong),
        /wrong\.zip: .*cmt_ELSEWHERE\.png: the file holds no comment cmt_ELSEWHERE.*nothing was imported/,
      );
      const first = admin('import', file, '--screenshots', zip);
      assert.equal(first.code, 0, first.stderr);
      assert.match(first.stdout, /added 1 projects, 0 labels, 1 people, 1 comments, 0 replies, 2 timeline events/);
      assert.match(first.stdout, /From the zip: added 1 screenshots, 0 images, 0 replays; already here: 0/);
      assert.match(
        first.stderr,
        /Checking: 1 comments read\n[\s\S]*Checking: 1 files of the zip read\n[\s\S]*Importing: 1 comments written/,
      );
      const second = admin('import', file, '--screenshots', zip);
      assert.match(
        second.stdout,
        /added 0 projects, 0 labels, 0 people, 0 comments.*already here: 1 projects, 0 labels, 1 people, 1 comments/,
      );
      assert.match(second.stdout, /From the zip: added 0 screenshots, 0 images, 0 replays; already here: 1/);

      const reset = admin('reset-password', owner.email);
      assert.equal(reset.code, 0, reset.stderr);
      const password = /\(shown once\): (\S+)/.exec(reset.stdout)?.[1];
      await withApp(async (app) => {
        const login = await call(app, 'POST', '/api/auth/login', { body: { email: owner.email, password } });
        assert.equal(login.status, 200);
        const comment = await call(app, 'GET', `/api/comments/${id}`, { token: login.body.token });
        assert.equal(comment.body.body, 'Moved with its id');
        const screenshot = await app.inject({
          method: 'GET',
          url: `/api/comments/${id}/screenshot`,
          headers: { authorization: `Bearer ${login.body.token}` },
        });
        assert.deepEqual(screenshot.rawPayload, cleanPng);
      });

      misusedWith(admin('import'), /import needs the export file/);
      refusedWith(admin('import', path.join(dir, 'missing.jsonl')), /There is no file .*missing\.jsonl/);
      fs.writeFileSync(path.join(dir, 'notes.txt'), 'hello\n');
      refusedWith(admin('import', path.join(dir, 'notes.txt')), /is not JSON.*nothing was imported/);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('admin backup', () => {
  test('while writes go on, the copy opens, passes its integrity check and holds every acknowledged row', {
    skip: dialect !== 'sqlite',
    timeout: 120_000,
  }, async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-backup-'));
    const database: DatabaseConfig = { dialect: 'sqlite', file: path.join(dir, 'svc.db') };
    const app = await buildApp(
      testConfig(database, { limits: { commentsPerMinute: 1_000_000, repliesPerMinute: 1_000_000 } }),
    );
    try {
      const owner = await signUp(app);
      const project = await createProject(app, owner);
      const acknowledged: string[] = [];
      for (let i = 0; i < 200; i++) acknowledged.push((await createComment(app, owner, project.key, `before ${i}`)).id);

      // Writes keep coming while the backup runs in its own process (asynchronously spawned,
      // so this process, the writer, keeps going).
      let writing = true;
      const writer = (async () => {
        let i = 0;
        while (writing) await createComment(app, owner, project.key, `during ${i++}`);
        return i;
      })();
      const target = path.join(dir, 'copy.db');
      const run = spawn(process.execPath, [adminEntry, 'backup', target], {
        env: { PATH: process.env.PATH ?? '', SVC_DATA_DIR: dir },
      });
      let stdout = '';
      let stderr = '';
      run.stdout.on('data', (chunk) => {
        stdout += chunk;
      });
      run.stderr.on('data', (chunk) => {
        stderr += chunk;
      });
      const code = await new Promise<number | null>((resolve) => run.once('close', resolve));
      writing = false;
      const during = await writer;
      assert.equal(code, 0, stderr);
      assert.match(stdout, /Backed up .* integrity ok/);
      assert.match(stderr, /Backing up .*svc\.db to /);
      assert.ok(during > 0, 'writes ran meanwhile');

      const copy = new SQLite(target, { readonly: true, fileMustExist: true });
      try {
        assert.equal(copy.pragma('integrity_check', { simple: true }), 'ok');
        const ids = new Set(copy.prepare('select id from comments').pluck().all() as string[]);
        for (const id of acknowledged) assert.ok(ids.has(id), `${id} is in the copy`);
      } finally {
        copy.close();
      }

      const again = spawnSync(process.execPath, [adminEntry, 'backup', target], {
        env: { PATH: process.env.PATH ?? '', SVC_DATA_DIR: dir },
        encoding: 'utf8',
      });
      // An existing file is never overwritten: refused, not a mistake of usage.
      refusedWith({ code: again.status, stdout: again.stdout, stderr: again.stderr }, /exists already/);
    } finally {
      await app.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  test('on PostgreSQL it points to pg_dump', { skip: dialect !== 'postgres' }, async () => {
    const run = spawnSync(process.execPath, [adminEntry, 'backup', '/tmp/never-written.db'], {
      env: { PATH: process.env.PATH ?? '', DATABASE_URL: 'postgres://nobody@127.0.0.1:1/none' },
      encoding: 'utf8',
    });
    refusedWith({ code: run.status, stdout: run.stdout, stderr: run.stderr }, /pg_dump/);
    assert.equal(fs.existsSync('/tmp/never-written.db'), false);
  });
});
