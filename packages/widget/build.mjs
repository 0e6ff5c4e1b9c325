// Bundles the widget into dist/widget.js, and the chunks it loads only when needed: the panel,
// the anchoring, the screenshot and each language but English. The build fails, printing the size,
// when the widget's first load (widget.js, gzipped) is over its budget.
import fs from 'node:fs';
import { gzipSync } from 'node:zlib';
import { LOCALES, PSEUDO_LOCALE } from '@svc/contract/i18n';
import { build } from 'esbuild';
import { BROWSER_BUNDLE } from '../../scripts/browser-bundle.mjs';
import { publish, stagingFor } from '../../scripts/build-output.mjs';
import { appendBundleNotices } from '../../scripts/licences.mjs';

const BUDGET_BYTES = 15 * 1024;
const output = new URL('./dist/', import.meta.url).pathname;
const staging = stagingFor(output);
const file = (name) => `${staging}/${name}`;

const widgetBuild = await build({
  ...BROWSER_BUNDLE,
  entryPoints: [new URL('./src/index.ts', import.meta.url).pathname],
  outfile: file('widget.js'),
});
appendBundleNotices(widgetBuild.metafile);
// Loaded on demand: the panel once someone is signed in, the screenshot when one is attached,
// the markup when a reviewer marks one up, the anchoring when a page has pins or an element is
// picked, the steps recorder once a reviewer is signed in, the replay's recorder once a reviewer
// is signed in where the project keeps replays.
for (const [entry, name] of [
  ['panel.ts', 'widget-panel.js'],
  ['screenshot.ts', 'widget-screenshot.js'],
  ['markup.ts', 'widget-markup.js'],
  ['anchoring/index.ts', 'widget-anchoring.js'],
  ['steps.ts', 'widget-steps.js'],
  ['replay.ts', 'widget-replay.js'],
]) {
  const chunk = await build({
    ...BROWSER_BUNDLE,
    entryPoints: [new URL(`./src/${entry}`, import.meta.url).pathname],
    outfile: file(name),
  });
  appendBundleNotices(chunk.metafile);
}

// A chunk per language but English (in widget.js and the panel's chunk): the widget's catalogue
// and the shared words (states, timeline, refusals, elements), loaded when someone reads it.
// The pseudo-language of the tests is English, accented, longer and bracketed.
const TRANSLATED = LOCALES.slice(1);
for (const locale of [...TRANSLATED, PSEUDO_LOCALE]) {
  const source =
    locale === PSEUDO_LOCALE
      ? `import { pseudoMessages } from '@svc/contract/i18n';
import { en } from '@svc/contract/locales/en';
import { enFirstLoad, enPanel } from './src/locales/en.ts';
const messages = pseudoMessages({ ...en, ...enFirstLoad, ...enPanel });`
      : `import { messages as widget } from './src/locales/${locale}.ts';
import { messages as shared } from '@svc/contract/locales/${locale}';
const messages = { ...shared, ...widget };`;
  await build({
    ...BROWSER_BUNDLE,
    metafile: false,
    stdin: {
      contents: `${source}
(window.__svcLocales ??= {})[${JSON.stringify(locale)}] = messages;`,
      resolveDir: new URL('.', import.meta.url).pathname,
      loader: 'ts',
    },
    outfile: file(`widget-locale-${locale}.js`),
  });
}

const kb = (bytes) => `${(bytes / 1024).toFixed(1)} KB`;
const sizes = (name) => {
  const raw = fs.readFileSync(file(name));
  return { raw: raw.length, gzipped: gzipSync(raw, { level: 9 }).length };
};
const widget = sizes('widget.js');
const chunks = [
  'widget-panel.js',
  'widget-anchoring.js',
  'widget-screenshot.js',
  'widget-markup.js',
  'widget-steps.js',
  'widget-replay.js',
].map((name) => `${name} ${kb(sizes(name).gzipped)}`);
const languages = TRANSLATED.map((locale) => `${locale} ${kb(sizes(`widget-locale-${locale}.js`).gzipped)}`);
const line = `widget.js: ${kb(widget.raw)} minified, ${kb(widget.gzipped)} gzipped (budget ${kb(BUDGET_BYTES)} gzipped); loaded on demand, gzipped: ${chunks.join(', ')}; languages, gzipped: ${languages.join(', ')}`;
if (widget.gzipped > BUDGET_BYTES) {
  console.error(`${line}: OVER BUDGET (${widget.gzipped} bytes)`);
  fs.rmSync(staging, { recursive: true, force: true });
  process.exit(1);
}
console.log(line);
publish(staging, output);
