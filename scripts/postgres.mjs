// A throwaway PostgreSQL cluster in a temporary directory, for tests and benchmarks.
// Uses the server binaries of Debian's `postgresql` package; initdb refuses to run as
// root, so as root the cluster runs as the `postgres` user the package creates.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

/** The directory holding initdb and pg_ctl, or null when PostgreSQL is not installed. */
export function findPostgresBin() {
  const candidates = [];
  const debianRoot = '/usr/lib/postgresql';
  if (fs.existsSync(debianRoot)) {
    const versions = fs.readdirSync(debianRoot).sort((a, b) => Number(b) - Number(a));
    for (const version of versions) candidates.push(path.join(debianRoot, version, 'bin'));
  }
  for (const dir of (process.env.PATH ?? '').split(path.delimiter)) candidates.push(dir);
  return (
    candidates.find((dir) => fs.existsSync(path.join(dir, 'initdb')) && fs.existsSync(path.join(dir, 'pg_ctl'))) ?? null
  );
}

function freePort() {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/**
 * Starts a cluster; resolves with its URL and a stop() that removes every trace.
 * `settings` are extra `-c name=value` server settings.
 */
export async function startThrowawayPostgres({ settings = {} } = {}) {
  const bin = findPostgresBin();
  if (!bin) throw new Error('PostgreSQL server binaries not found (apt-get install -y postgresql)');
  const asRoot = process.getuid?.() === 0;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-pg-'));
  const data = path.join(dir, 'data');
  const runAs = (file, args) => {
    const command = path.join(bin, file);
    return asRoot
      ? execFileSync('runuser', ['-u', 'postgres', '--', command, ...args], { stdio: 'pipe' })
      : execFileSync(command, args, { stdio: 'pipe' });
  };
  if (asRoot) execFileSync('chown', ['postgres:postgres', dir]);
  const port = await freePort();
  runAs('initdb', ['-D', data, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--no-locale']);
  const options = {
    port,
    listen_addresses: '127.0.0.1',
    unix_socket_directories: dir,
    max_connections: 300,
    fsync: 'off',
    synchronous_commit: 'off',
    full_page_writes: 'off',
    ...settings,
  };
  const flags = Object.entries(options)
    .map(([name, value]) => `-c ${name}=${value}`)
    .join(' ');
  runAs('pg_ctl', ['-D', data, '-o', flags, '-l', path.join(dir, 'server.log'), '-w', '-t', '60', 'start']);
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    stop() {
      try {
        runAs('pg_ctl', ['-D', data, '-m', 'fast', '-w', 'stop']);
      } finally {
        fs.rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}
