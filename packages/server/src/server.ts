import { buildApp } from './app.js';
import { loadConfig } from './config.js';
import { stdoutLogDestination } from './logging.js';
import { type DemoCredentials, seedDemoIfEmpty } from './modules/demo/seed.js';
import { exitGracefully } from './shutdown.js';

/**
 * What a person starting the server needs, printed after the start-up logs so that it is the
 * last thing on the screen: the addresses, and on a demo's first start its secrets (shown
 * once, never through the logger). Bold on a terminal.
 */
function banner(baseUrl: string, demo: boolean, created: DemoCredentials | null, tty: boolean): string {
  const strong = (text: string) => (tty ? `\x1b[1m${text}\x1b[22m` : text);
  const lines = [
    strong(`Feedback comments is running at ${baseUrl}`),
    `  Console:    ${baseUrl}/`,
    ...(demo ? [`  Demo page:  ${baseUrl}/demo`] : []),
    `  API docs:   ${baseUrl}/docs`,
  ];
  if (created) {
    lines.push(
      '',
      strong('Demo workspace created. These secrets are shown only this once:'),
      `  Admin:      ${created.email}`,
      `  Password:   ${created.password}`,
      `  API key:    ${created.apiKey}`,
      `  Project:    ${created.projectKey}`,
    );
  }
  lines.push('', 'Stop it with Ctrl+C (or SIGTERM): in-flight requests finish first.');
  return `\n${lines.join('\n')}\n\n`;
}

async function main(): Promise<void> {
  const loaded = loadConfig(process.env);
  if (!loaded.ok) {
    process.stderr.write(`Configuration is not valid:\n${loaded.problems.map((p) => `  - ${p}`).join('\n')}\n`);
    process.exit(1);
  }
  const { config } = loaded;
  // A reader of standard output that went away must not take the server down with it.
  process.stdout.on('error', () => {});
  const tty = process.stdout.isTTY === true;
  const logs = stdoutLogDestination(config.logFormat === 'pretty' || (config.logFormat === 'auto' && tty));
  // Listening first, so that /readyz can say the database is being migrated (by this process
  // or by another that holds the start-up lock) rather than the port refusing connections.
  const app = await buildApp(config, { logStream: logs.stream, deferMigrations: true });
  exitGracefully(app, logs, config.shutdownTimeoutMs);

  await app.listen({ port: config.port, host: config.host });
  await app.migrate();
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  const shownHost = config.host === '0.0.0.0' || config.host === '::' ? '127.0.0.1' : config.host;
  const baseUrl = `http://${shownHost.includes(':') ? `[${shownHost}]` : shownHost}:${port}`;

  let created: DemoCredentials | null = null;
  if (config.demo) {
    const origins = [...new Set([baseUrl, `http://localhost:${port}`])];
    created = await app.database.withStartupLock(() => seedDemoIfEmpty(app.ctx, origins, `${baseUrl}/demo`));
  }
  app.log.info(`Feedback comments server ready at ${baseUrl}`);
  await logs.flush(1_000);
  process.stdout.write(banner(baseUrl, config.demo, created, tty));
}

main().catch((error: unknown) => {
  process.stderr.write(`Could not start: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
