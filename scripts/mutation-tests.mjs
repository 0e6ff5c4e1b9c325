// The tests a mutant of the rule modules (stryker.config.json) must fail: the features' own
// suites on SQLite, without the browser and server-process ones, which add time, not rules.
import { spawnSync } from 'node:child_process';

const files = [
  'packages/server/src/modules/auth/auth.test.ts',
  'packages/server/src/modules/auth/sessions.test.ts',
  'packages/server/src/modules/comments/comments.test.ts',
  'packages/server/src/modules/verification/verification.test.ts',
  'packages/server/src/modules/notifications/notifications.test.ts',
  'packages/server/src/modules/builds/builds.test.ts',
  'packages/server/src/modules/projects/projects.test.ts',
  'packages/server/test/pagination.test.ts',
  'packages/server/test/tenancy.test.ts',
  'packages/cli/test/ancestry.test.ts',
];
const run = spawnSync(
  process.execPath,
  ['--import', 'tsx', '--test', '--test-concurrency=2', '--test-reporter=dot', ...files],
  {
    stdio: 'inherit',
    env: { ...process.env, DIALECT: 'sqlite' },
  },
);
process.exit(run.status ?? 1);
