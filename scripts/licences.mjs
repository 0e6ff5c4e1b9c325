// The product is MIT-licensed, and so may only depend on code under licences that allow it to
// be run, embedded and changed freely. Two checks: every package the server installs for
// production, and every package bundled into what we ship (the widget and its chunks, the
// console, the CLI), whose notices are appended to the bundle that holds its code.
//
// As a script: checks the installed production dependencies, prints them by licence, exits 1
// when one is under a licence not in ALLOWED.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** Permissive licences (SPDX identifiers) compatible with shipping under MIT. */
export const ALLOWED = new Set([
  'MIT',
  'ISC',
  'BSD-2-Clause',
  'BSD-3-Clause',
  'Apache-2.0',
  'BlueOak-1.0.0',
  '0BSD',
  'CC0-1.0',
]);

/** Whether an SPDX expression is satisfied by allowed licences: one side of OR, both of AND. */
export function licenceAllowed(expression) {
  if (typeof expression !== 'string' || expression.trim() === '') return false;
  const bare = expression.trim().replace(/^\((.*)\)$/, '$1');
  if (/ OR /.test(bare)) return bare.split(/ OR /).some(licenceAllowed);
  if (/ AND /.test(bare)) return bare.split(/ AND /).every(licenceAllowed);
  return ALLOWED.has(bare);
}

/** Production packages of the lockfile (not dev-only, not our workspaces) whose licence is not allowed. */
export function disallowedProductionLicences() {
  const lock = JSON.parse(fs.readFileSync(path.join(root, 'package-lock.json'), 'utf8'));
  const offenders = [];
  const byLicence = new Map();
  for (const [where, entry] of Object.entries(lock.packages)) {
    if (!where.includes('node_modules/') || entry.dev || entry.link) continue;
    const name = where.slice(where.lastIndexOf('node_modules/') + 'node_modules/'.length);
    const licence = entry.license ?? 'none declared';
    byLicence.set(licence, (byLicence.get(licence) ?? 0) + 1);
    if (!licenceAllowed(entry.license)) offenders.push(`${name}@${entry.version}: ${licence}`);
  }
  return { offenders, byLicence };
}

/** The package directory an esbuild input path lies in, or null for our own code. */
function packageDirOf(input) {
  const at = input.lastIndexOf('node_modules/');
  if (at < 0) return null;
  const rest = input.slice(at + 'node_modules/'.length).split('/');
  const name = rest[0]?.startsWith('@') ? `${rest[0]}/${rest[1]}` : rest[0];
  return path.resolve(input.slice(0, at), 'node_modules', name);
}

const LICENCE_FILE = /^(licen[cs]e|copying)(\.(md|txt))?$/i;

/** One bundled package's notice: name, version, licence, and its licence file's text. */
function noticeOf(dir) {
  const manifest = JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8'));
  const licence = typeof manifest.license === 'string' ? manifest.license : manifest.license?.type;
  if (!licenceAllowed(licence)) {
    throw new Error(`${manifest.name}@${manifest.version} is under "${licence}", which may not be bundled`);
  }
  const file = fs.readdirSync(dir).find((name) => LICENCE_FILE.test(name));
  const text = file ? fs.readFileSync(path.join(dir, file), 'utf8').trim() : `Licensed ${licence}.`;
  return `${manifest.name}@${manifest.version} (${licence})\n\n${text}`;
}

/**
 * Appends to each JavaScript output of an esbuild build (run with `metafile: true`) the notices
 * of the packages whose code it holds; an output with none gets nothing. Fails the build when a
 * bundled package's licence is not allowed.
 */
export function appendBundleNotices(metafile, cwd = process.cwd()) {
  for (const [output, { inputs }] of Object.entries(metafile.outputs)) {
    if (!/\.m?js$/.test(output)) continue;
    const dirs = [...new Set(Object.keys(inputs).map(packageDirOf).filter(Boolean))].sort();
    if (dirs.length === 0) continue;
    // A licence text may not close the comment it is in.
    const notices = dirs.map((dir) => noticeOf(path.resolve(cwd, dir)).replaceAll('*/', '* /'));
    const comment = `\n/*! This file bundles the following code, under these licences:\n\n${notices.join('\n\n---\n\n')}\n*/\n`;
    fs.appendFileSync(path.resolve(cwd, output), comment);
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const { offenders, byLicence } = disallowedProductionLicences();
  const counts = [...byLicence].map(([licence, count]) => `${licence} ${count}`).join(', ');
  if (offenders.length > 0) {
    console.error(`Production dependencies under licences not allowed:\n  ${offenders.join('\n  ')}`);
    process.exit(1);
  }
  console.log(`Production dependencies by licence: ${counts}`);
}
