import assert from 'node:assert/strict';
import fs from 'node:fs';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
// @ts-expect-error: a build script, plain JavaScript without declarations.
import { disallowedProductionLicences, licenceAllowed } from '../../../scripts/licences.mjs';

const built = (relative: string) =>
  fs.readFileSync(fileURLToPath(new URL(`../../${relative}`, import.meta.url)), 'utf8');

test('what we ship keeps the notices of the code bundled into it', () => {
  const screenshot = built('widget/dist/widget-screenshot.js');
  assert.match(
    screenshot,
    /This file bundles the following code[\s\S]*modern-screenshot@[\d.]+ \(MIT\)[\s\S]*Permission is hereby granted/,
  );
  assert.doesNotMatch(built('widget/dist/widget.js'), /This file bundles/, 'the first load holds only our own code');
  const cli = built('cli/dist/svc-cli.mjs');
  for (const name of ['@modelcontextprotocol/sdk', 'zod', 'ajv'])
    assert.match(cli, new RegExp(`${name}@[\\d.]+ \\(`), name);
  // The console's scripts (its entry and the chunks shared or loaded later) name what each bundles.
  const consoleDir = fileURLToPath(new URL('../../console/dist/assets/', import.meta.url));
  const scripts = fs.readdirSync(consoleDir).filter((name) => name.endsWith('.js'));
  const consoleNotices = scripts.map((name) => fs.readFileSync(consoleDir + name, 'utf8')).join('\n');
  for (const name of ['preact', 'uplot']) assert.match(consoleNotices, new RegExp(`${name}@[\\d.]+ \\(MIT\\)`), name);
});

test('only permissive licences: an OR needs one allowed side, an AND both', () => {
  assert.equal(licenceAllowed('MIT'), true);
  assert.equal(licenceAllowed('(MIT OR WTFPL)'), true);
  assert.equal(licenceAllowed('GPL-3.0-only'), false);
  assert.equal(licenceAllowed('(MIT AND GPL-2.0-only)'), false);
  assert.equal(licenceAllowed(undefined), false);
  assert.deepEqual(disallowedProductionLicences().offenders, []);
});
