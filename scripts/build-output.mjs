// Where a build writes: a directory of its own beside its output, whose files then replace the
// output's one by one, each by a rename (a file is never missing nor half written), before what
// the new build no longer has is removed. A server or a test that reads the output meanwhile
// (`npm start` builds while the rest of the suite runs) never finds it gone.
import fs from 'node:fs';
import path from 'node:path';

/** An empty directory beside `output` for a build to write into. */
export function stagingFor(output) {
  const staging = `${output.replace(/[\\/]+$/, '')}.next-${process.pid}`;
  fs.rmSync(staging, { recursive: true, force: true });
  fs.mkdirSync(staging, { recursive: true });
  return staging;
}

/** Every file below `dir`, as paths relative to it. */
const filesBelow = (dir) =>
  fs.existsSync(dir)
    ? fs
        .readdirSync(dir, { recursive: true, withFileTypes: true })
        .filter((entry) => entry.isFile())
        .map((entry) => path.relative(dir, path.join(entry.parentPath ?? entry.path, entry.name)))
    : [];

/** Moves the staged build into `output`, then removes from it what the build did not make. */
export function publish(staging, output) {
  const made = new Set(filesBelow(staging));
  for (const file of made) {
    fs.mkdirSync(path.dirname(path.join(output, file)), { recursive: true });
    fs.renameSync(path.join(staging, file), path.join(output, file));
  }
  for (const file of filesBelow(output)) if (!made.has(file)) fs.rmSync(path.join(output, file));
  fs.rmSync(staging, { recursive: true, force: true });
}
