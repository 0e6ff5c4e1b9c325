// The README says what the code does: its marked figures (sizes, limits, rates, the poll pace)
// are the ones computed from their source, and its configuration table gives every variable the
// server reads with the default it has.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { describe, test } from 'node:test';
import { figures, README, withFigures } from '../../../scripts/readme-figures.js';
import { loadConfig } from '../src/config.js';

const readme = fs.readFileSync(README, 'utf8');

describe("the README's figures", () => {
  test('every marked figure is the one its source gives, and every figure is in the README (npm run readme rewrites them)', () => {
    const { drifted, unused } = withFigures(readme, figures());
    assert.deepEqual(drifted, [], 'figures written in the README differ from their source: run npm run readme');
    assert.deepEqual(unused, [], 'figures the README no longer shows');
  });

  test('a figure that drifted is found and rewritten', () => {
    const { text, drifted } = withFigures('<!-- figure:limits.body -->1 KiB<!-- /figure -->', figures());
    assert.deepEqual(drifted, [{ name: 'limits.body', written: '1 KiB', actual: '64 KiB' }]);
    assert.equal(text, '<!-- figure:limits.body -->64 KiB<!-- /figure -->');
  });

  test('the configuration table: each default stated is the default, and each variable the server reads is in it', () => {
    const rows = [...readme.matchAll(/^\| `([A-Z][A-Z_]+)` \| (.+?) \|/gm)].map(([, name, cell]) => ({ name, cell }));
    const defaults = loadConfig({});
    assert.ok(defaults.ok);
    let checked = 0;
    for (const { name, cell } of rows) {
      // A literal default (`8080`, `true`, `./data`): setting it changes nothing.
      const literal = /^`([^`]+)`/.exec(cell ?? '')?.[1];
      if (!name || literal === undefined) continue;
      const set = loadConfig({ [name]: literal });
      assert.ok(set.ok, `${name}=${literal} is refused`);
      assert.deepEqual(set.config, defaults.config, `${name}: the README says ${literal} by default`);
      checked += 1;
    }
    assert.ok(checked >= 20, `${checked} defaults checked`);
    const source = fs.readFileSync(new URL('../src/config.ts', import.meta.url), 'utf8');
    const read = new Set([...source.matchAll(/'((?:SVC_|DATABASE_|PORT|HOST)[A-Z_]*)'/g)].map((m) => m[1]));
    const documented = new Set(rows.map((row) => row.name));
    assert.deepEqual(
      [...read].filter((name) => !documented.has(name)),
      [],
      'variables the server reads that the table does not give',
    );
  });
});
