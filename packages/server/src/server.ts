import { buildApp } from './app.js';
import { loadConfig } from './config.js';
import { stdoutLogDestination } from './logging.js';
import { type DemoCredentials, seedDemoIfEmpty } from './modules/demo/seed.js';
import { exitGracefully } from './shutdown.js';

function printDemo(baseUrl: string, demo: DemoCredentials): void {
  // Shown once, on the terminal, never through the logger.
  process.stdout.write(
    [
      '',
      'Demo workspace created. These secrets are shown only this once:',
      `  Console:    ${baseUrl}/`,
      `  Demo page:  ${baseUrl}/demo`,
      `  API docs:   ${baseUrl}/docs`,
      `  Admin:      ${demo.email}`,
      `  Password:   ${demo.password}`,
      `  API key:    ${demo.apiKey}`,
      `  Project:    ${demo.projectKey}`,
      '',
      '',
    ].join('\n'),
  );
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
  const logs = stdoutLogDestination();
  const app = await buildApp(config, { logStream: logs.stream });
  exitGracefully(app, logs, config.shutdownTimeoutMs);

  await app.listen({ port: config.port, host: config.host });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  const shownHost = config.host === '0.0.0.0' || config.host === '::' ? '127.0.0.1' : config.host;
  const baseUrl = `http://${shownHost.includes(':') ? `[${shownHost}]` : shownHost}:${port}`;

  if (config.demo) {
    const origins = [...new Set([baseUrl, `http://localhost:${port}`])];
    const demo = await app.database.withStartupLock(() => seedDemoIfEmpty(app.database.db, origins, `${baseUrl}/demo`));
    if (demo) printDemo(baseUrl, demo);
  }
  app.log.info(`Feedback comments server ready at ${baseUrl} (console: ${baseUrl}/, demo page: ${baseUrl}/demo)`);
}

main().catch((error: unknown) => {
  process.stderr.write(`Could not start: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
