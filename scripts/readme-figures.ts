// The README's figures that the code or the build decides (sizes, limits, rates, the poll
// pace) are written between markers, `<!-- figure:name -->13.5 KB<!-- /figure -->`, and
// computed here from their source. `npm run readme` rewrites them after a build; the test
// suite fails when one has drifted (packages/server/test/readme.test.ts).
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { LOCALES } from '../packages/contract/src/i18n.js';
import {
  CHANGES_WAIT_MAX_S,
  IMAGE_MAX_BYTES,
  IMAGES_PER_PERSON_MAX,
  SCREENSHOT_MAX_BYTES,
} from '../packages/contract/src/rules.js';
import { loadConfig } from '../packages/server/src/config.js';
import { BUSY_DELAY_MS, CALM_DELAY_MS, PACE_SAMPLE_MS, PACE_STEPS_S } from '../packages/server/src/http/poll-pace.js';
import { BODY_LIMIT } from '../packages/server/src/http/server.js';
import { MINUTE_MS, type RateRule } from '../packages/server/src/limits/rate-limit.js';
import { rateRules } from '../packages/server/src/limits/rules.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const README = path.join(root, 'README.md');

const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
const gzipped = (file: string) => {
  if (!fs.existsSync(file)) throw new Error(`${path.relative(root, file)} is missing: run npm run build first`);
  return gzipSync(fs.readFileSync(file), { level: 9 }).length;
};
/** A build script's size budget, as it states it (`const BUDGET_BYTES = 15 * 1024;`). */
const budget = (buildScript: string) => {
  const match = /const BUDGET_BYTES = (\d+) \* 1024;/.exec(fs.readFileSync(path.join(root, buildScript), 'utf8'));
  if (!match) throw new Error(`${buildScript} states no BUDGET_BYTES`);
  return `${match[1]} KB`;
};
/** The console's initial JavaScript: the script its shell names and the chunks it imports at once (not those it loads later). */
const consoleInitialScripts = () => {
  const shell = fs.readFileSync(path.join(root, 'packages/console/dist/index.html'), 'utf8');
  const script = /<script type="module" src="\/([^"]+)"/.exec(shell)?.[1];
  if (!script) throw new Error('the console shell names no script');
  const files = new Set([path.join(root, 'packages/console/dist', script)]);
  for (const file of files) {
    for (const [, imported] of fs
      .readFileSync(file, 'utf8')
      .matchAll(/(?:^|[;}])import[^"(]*?from"\.\/([^"]+\.js)"/g)) {
      files.add(path.join(path.dirname(file), imported as string));
    }
  }
  return [...files];
};
const widgetFile = (name: string) => path.join(root, 'packages/widget/dist', name);

const per = (rule: RateRule) => {
  const window =
    rule.windowMs === MINUTE_MS
      ? 'minute'
      : rule.windowMs === 60 * MINUTE_MS
        ? 'hour'
        : `${rule.windowMs / MINUTE_MS} min`;
  return `${rule.limit} per ${window}`;
};

/** Every figure by name, computed now. */
export function figures(): Record<string, string> {
  const loaded = loadConfig({});
  if (!loaded.ok) throw new Error(loaded.problems.join('\n'));
  const { config } = loaded;
  const rules = rateRules(config);
  const { comments, replies } = rules;
  return {
    'widget.firstLoad': kb(gzipped(widgetFile('widget.js'))),
    'widget.budget': budget('packages/widget/build.mjs'),
    'widget.panel': kb(gzipped(widgetFile('widget-panel.js'))),
    'widget.anchoring': kb(gzipped(widgetFile('widget-anchoring.js'))),
    'widget.screenshot': kb(gzipped(widgetFile('widget-screenshot.js'))),
    'widget.markup': kb(gzipped(widgetFile('widget-markup.js'))),
    'widget.steps': kb(gzipped(widgetFile('widget-steps.js'))),
    'widget.replay': kb(gzipped(widgetFile('widget-replay.js'))),
    // The language chunks: the smallest and the largest.
    'widget.languages': (() => {
      const sizes = LOCALES.slice(1).map((locale) => gzipped(widgetFile(`widget-locale-${locale}.js`)));
      return `${kb(Math.min(...sizes))} to ${kb(Math.max(...sizes))}`;
    })(),
    'console.initial': kb(consoleInitialScripts().reduce((sum, file) => sum + gzipped(file), 0)),
    'console.budget': budget('packages/console/build.mjs'),
    'limits.body': `${BODY_LIMIT / 1024} KiB`,
    'limits.screenshot': `${SCREENSHOT_MAX_BYTES / 1024} KB`,
    'limits.image': `${IMAGE_MAX_BYTES / 1024 / 1024} MB`,
    'limits.changesWait': `${CHANGES_WAIT_MAX_S} s`,
    'limits.imagesPerPerson': `${IMAGES_PER_PERSON_MAX}`,
    'limits.storageQuota':
      config.limits.storageQuotaMegabytes % 1024 === 0
        ? `${config.limits.storageQuotaMegabytes / 1024} GB`
        : `${config.limits.storageQuotaMegabytes} MB`,
    'rate.signInAddress': per(rules.signInFailuresPerAddress),
    'rate.signInAccount': per(rules.signInFailuresPerAccount),
    'rate.signInsAccount': per(rules.signInsPerAccount),
    'rate.signInsAddress': per(rules.signInsPerAddress),
    'rate.accessLinkAddress': per(rules.accessLinkFailuresPerAddress),
    'rate.signUpAddress': per(rules.signUpsPerAddress),
    'rate.commentsAndReplies':
      comments.limit === replies.limit && comments.windowMs === replies.windowMs
        ? `${per(comments)} each`
        : `${per(comments)} and ${per(replies)}`,
    'rate.apiKeys': `${per(rules.apiKeys)}; at most ${rules.apiKeysPerUser} live`,
    'rate.buildReports': `${config.buildRateLimit} per minute`,
    'rate.originChecks': per(rules.originChecksPerAddress),
    'rate.insights': per(rules.insights),
    'rate.searches': per(rules.searches),
    'rate.exports': per(rules.exports),
    'rate.uploads': `${per(rules.uploads)} and ${config.limits.uploadMegabytesPerHour} MB per hour`,
    'pace.floor': `${config.pollFloorSeconds}`,
    'pace.sample': `${PACE_SAMPLE_MS / 1000} seconds`,
    'pace.busy': `${BUSY_DELAY_MS} ms`,
    'pace.calm': `${CALM_DELAY_MS} ms`,
    'pace.steps': `${PACE_STEPS_S.slice(1, -1).join(', ')}, then ${PACE_STEPS_S.at(-1)} s`,
  };
}

const MARKED = /<!-- figure:([\w.]+) -->(.*?)<!-- \/figure -->/g;

/** The README with every marked figure set to its value, and what differed (or is unknown). */
export function withFigures(text: string, values: Record<string, string>) {
  const drifted: { name: string; written: string; actual: string | undefined }[] = [];
  const written = text.replace(MARKED, (marked, name: string, value: string) => {
    const actual = values[name];
    if (actual !== value) drifted.push({ name, written: value, actual });
    return actual === undefined ? marked : `<!-- figure:${name} -->${actual}<!-- /figure -->`;
  });
  const used = new Set([...text.matchAll(MARKED)].map((match) => match[1]));
  return { text: written, drifted, unused: Object.keys(values).filter((name) => !used.has(name)) };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const result = withFigures(fs.readFileSync(README, 'utf8'), figures());
  fs.writeFileSync(README, result.text);
  for (const { name, written, actual } of result.drifted) {
    console.log(`${name}: ${written} → ${actual ?? '(no such figure)'}`);
  }
  if (!result.drifted.length) console.log('README figures: all current');
  if (result.unused.length) console.log(`figures no longer in the README: ${result.unused.join(', ')}`);
}
