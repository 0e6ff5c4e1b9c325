import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  call,
  createComment,
  createProject,
  createTestApp,
  type Member,
  signUp,
  type TestApp,
} from '../../server/test/helpers.js';

export const cliBin = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../dist/bin.js');

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs the built `svc-cli` binary (`npm run build` first), or the given script, as its own process. */
export function runCli(
  args: string[],
  options: { cwd: string; env?: Record<string, string>; script?: string },
): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [options.script ?? cliBin, ...args], {
      cwd: options.cwd,
      // Only what a CI job would have: no SVC_* from the developer's shell.
      env: { PATH: process.env.PATH ?? '', HOME: options.cwd, ...options.env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => {
      stdout += chunk;
    });
    child.stderr.on('data', (chunk) => {
      stderr += chunk;
    });
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/** A real server (`buildApp` on the test database) on a random local port, with an API key. */
export interface LiveServer extends TestApp {
  url: string;
  admin: Member;
  apiKey: string;
  project: { id: string; key: string };
}

export async function startLiveServer(projectExtra: Record<string, unknown> = {}): Promise<LiveServer> {
  // Tests create hundreds of pending comments at once: no per-user write limits here.
  const testApp = await createTestApp({
    buildRateLimit: 10_000,
    limits: { commentsPerMinute: 100_000, repliesPerMinute: 100_000 },
  });
  const url = await testApp.app.listen({ port: 0, host: '127.0.0.1' });
  const admin = await signUp(testApp.app);
  const key = await call(testApp.app, 'POST', '/api/me/api-keys', { token: admin.token, body: { name: 'ci' } });
  const project = await createProject(testApp.app, admin, projectExtra);
  return { ...testApp, url, admin, apiKey: key.body.key, project };
}

/** The same server and key with a project of its own, so tests do not see each other's comments. */
export async function withNewProject(server: LiveServer, extra: Record<string, unknown> = {}): Promise<LiveServer> {
  return { ...server, project: await createProject(server.app, server.admin, extra) };
}

/** A comment applied with `sha`, so it is pending deploy. */
export async function pendingComment(server: LiveServer, sha: string): Promise<string> {
  const comment = await createComment(server.app, server.admin, server.project.key);
  const applied = await call(server.app, 'POST', `/api/comments/${comment.id}/apply`, {
    token: server.admin.token,
    body: { commitSha: sha },
  });
  if (applied.status !== 200) throw new Error(`apply failed: ${JSON.stringify(applied.body)}`);
  return comment.id;
}

export function tempDir(prefix = 'svc-cli-'): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), prefix));
}

/** A real git repository in a temporary folder, with commits whose dates the test picks. */
export class Repo {
  // Each repository starts at its own time, so two tests never make identical commits.
  private clock = 1_700_000_000 + Math.floor(Math.random() * 10_000_000);

  constructor(readonly dir: string = tempDir()) {}

  static init(dir?: string): Repo {
    const repo = new Repo(dir);
    repo.git(['init', '-q', '-b', 'main']);
    repo.git(['config', 'user.email', 'dev@example.test']);
    repo.git(['config', 'user.name', 'Dev']);
    repo.git(['config', 'commit.gpgsign', 'false']);
    return repo;
  }

  git(args: string[], env: Record<string, string> = {}): string {
    return execFileSync('git', args, {
      cwd: this.dir,
      encoding: 'utf8',
      env: { PATH: process.env.PATH ?? '', HOME: this.dir, ...env },
    }).trim();
  }

  /** A commit on the current branch; `backdate` days before the previous commit's date when given. */
  commit(message: string, options: { backdateDays?: number } = {}): string {
    this.clock += 60;
    const when = this.clock - (options.backdateDays ?? 0) * 86_400;
    if (options.backdateDays) this.clock = when;
    const date = `${when} +0000`;
    this.git(['commit', '-q', '--allow-empty', '-m', message], { GIT_AUTHOR_DATE: date, GIT_COMMITTER_DATE: date });
    return this.git(['rev-parse', 'HEAD']);
  }

  /**
   * Empty commits on the current branch, one per message, in one `git fast-import` (a commit at
   * a time is two git processes each); their SHAs, oldest first.
   */
  commits(messages: string[]): string[] {
    const branch = this.git(['symbolic-ref', 'HEAD']);
    const parent = this.git(['rev-parse', 'HEAD']);
    const stream = messages
      .map((message, i) => {
        this.clock += 60;
        const from = i === 0 ? `from ${parent}\n` : '';
        const data = Buffer.byteLength(message);
        return `commit ${branch}\ncommitter Dev <dev@example.test> ${this.clock} +0000\ndata ${data}\n${message}\n${from}\n`;
      })
      .join('');
    execFileSync('git', ['fast-import', '--quiet'], {
      cwd: this.dir,
      input: stream,
      env: { PATH: process.env.PATH ?? '', HOME: this.dir },
    });
    return this.git(['rev-list', '--reverse', `${parent}..HEAD`]).split('\n');
  }

  merge(branch: string): string {
    this.clock += 60;
    const date = `${this.clock} +0000`;
    this.git(['merge', '-q', '--no-ff', '-m', `Merge ${branch}`, branch], {
      GIT_AUTHOR_DATE: date,
      GIT_COMMITTER_DATE: date,
    });
    return this.git(['rev-parse', 'HEAD']);
  }

  writeConfig(server: LiveServer): void {
    fs.mkdirSync(path.join(this.dir, '.svc'), { recursive: true });
    fs.writeFileSync(
      path.join(this.dir, '.svc', 'config.json'),
      JSON.stringify({ server: server.url, project: server.project.key }),
    );
  }
}
