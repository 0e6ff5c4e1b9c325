import { type ChildProcess, spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const serverEntry = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../dist/server.js');

export interface ServerProcess {
  child: ChildProcess;
  baseUrl: string;
  stdout: () => string;
  /** Resolves once standard output holds `pattern` (the banner comes a moment after "ready"); rejects after 10 s. */
  printed: (pattern: RegExp) => Promise<void>;
  /** Sends SIGTERM and resolves with the exit code. */
  stop: () => Promise<number | null>;
}

const running = new Set<ChildProcess>();

/**
 * Kills every server still running: for an `after` hook, so that a test failing half-way
 * leaves no process behind to keep its test file waiting.
 */
export function killRemainingServers(): void {
  for (const child of running) child.kill('SIGKILL');
}

/** Starts the built server (`npm run build` first) as its own process, on a free port. */
export function startServer(env: Record<string, string>): Promise<ServerProcess> {
  const child = spawn(process.execPath, [serverEntry], {
    env: { PATH: process.env.PATH ?? '', PORT: '0', HOST: '127.0.0.1', SVC_LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  running.add(child);
  child.once('exit', () => running.delete(child));
  let out = '';
  let err = '';
  child.stdout.on('data', (chunk) => {
    out += chunk;
  });
  child.stderr.on('data', (chunk) => {
    err += chunk;
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`server did not start in time:\n${out}\n${err}`));
    }, 60_000);
    const poll = setInterval(() => {
      const match = /server ready at (http:\/\/[^\s"]+)/i.exec(out);
      if (!match?.[1]) return;
      clearInterval(poll);
      clearTimeout(timer);
      resolve({
        child,
        baseUrl: match[1],
        stdout: () => out,
        printed: async (pattern) => {
          const deadline = Date.now() + 10_000;
          while (!pattern.test(out)) {
            if (Date.now() > deadline) throw new Error(`${pattern} never printed:\n${out}`);
            await new Promise((wait) => setTimeout(wait, 25));
          }
        },
        stop: () => {
          child.kill('SIGTERM');
          return exited;
        },
      });
    }, 25);
    exited.then((code) => {
      clearInterval(poll);
      clearTimeout(timer);
      reject(new Error(`server exited with ${code} before it was ready:\n${out}\n${err}`));
    });
  });
}

/** Starts several processes at the same moment; if one fails, the others are stopped too. */
export async function startServers(count: number, env: Record<string, string>): Promise<ServerProcess[]> {
  const results = await Promise.allSettled(Array.from({ length: count }, () => startServer(env)));
  const failed = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
  if (!failed) return results.map((r) => (r as PromiseFulfilledResult<ServerProcess>).value);
  for (const r of results) if (r.status === 'fulfilled') await r.value.stop();
  throw failed.reason;
}

/** One JSON call to a server process, as `token` or anonymously. */
export async function callServer(
  baseUrl: string,
  method: string,
  path: string,
  options: { token?: string; body?: unknown } = {},
): Promise<{ status: number; body: any; headers: Record<string, string> }> {
  const response = await fetch(`${baseUrl}${path}`, {
    method,
    headers: {
      ...(options.token ? { authorization: `Bearer ${options.token}` } : {}),
      ...(options.body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
  });
  const text = await response.text();
  return {
    status: response.status,
    body: text ? JSON.parse(text) : null,
    headers: Object.fromEntries(response.headers),
  };
}
