// Type-checks every package and its tests: the contract and the server first (the others read
// their declarations), then the rest two at a time, one per core.
import { spawn } from 'node:child_process';
import os from 'node:os';

const tsc = (args) =>
  new Promise((resolve) => {
    const child = spawn(process.execPath, ['node_modules/typescript/bin/tsc', ...args], { stdio: 'inherit' });
    child.on('exit', (code) => resolve(code === 0));
  });

const projects = [
  'packages/server/tsconfig.test.json',
  'packages/cli',
  'packages/widget',
  'packages/widget/tsconfig.test.json',
  'packages/contract/tsconfig.test.json',
  'packages/console',
  'packages/console/tsconfig.test.json',
  'packages/extension',
  'packages/extension/tsconfig.test.json',
];

let ok = await tsc(['-b', 'packages/contract', 'packages/server']);
if (ok) {
  const queue = [...projects];
  const worker = async () => {
    for (let project = queue.shift(); project; project = queue.shift()) {
      if (!(await tsc(['-p', project]))) ok = false;
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(2, os.availableParallelism())) }, worker));
}
process.exit(ok ? 0 : 1);
