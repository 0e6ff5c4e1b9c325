// The extension's page: what it is for, each browser's download and the steps to install an
// unsigned build (what works, and what does not, without a store), the address it will use.
// Plain HTML and a stylesheet of its own, no script: the pages' policy runs none inline. In the
// language the person asks for (see http/page-language.ts), its words in page-words.ts.
import type { Translator } from '@svc/contract/i18n';
import { htmlText as html } from '../../http/page-language.js';
import { BROWSERS, type Browser, zipName } from './builds.js';
import type { english } from './page-words.js';

type WordId = keyof typeof english;
export type ExtensionPageWords = Translator<typeof english>;

/** Each browser's section: its title, its download's words and its steps (message ids of page-words.ts). */
const SECTIONS: Record<Browser, { title: WordId; download: WordId; steps: WordId[] }> = {
  chromium: { title: 'chromiumTitle', download: 'chromiumDownload', steps: ['chromium1', 'chromium2', 'chromium3'] },
  firefox: { title: 'firefoxTitle', download: 'firefoxDownload', steps: ['firefox1', 'firefox2', 'firefox3'] },
};

const STYLE = `body { font: 16px/1.55 system-ui, sans-serif; margin: 0; color: #1f2937; background: #f9fafb; }
main { max-width: 46rem; margin: 0 auto; padding: 2rem 1.25rem 4rem; }
h1 { font-size: 1.8rem; margin: 0 0 .5rem; }
section { background: #fff; border: 1px solid #e5e7eb; border-radius: 12px; padding: 1rem 1.5rem; margin: 1.25rem 0; }
h2 { font-size: 1.2rem; margin: .25rem 0 .5rem; }
a.download { display: inline-block; padding: .5rem 1rem; border-radius: 8px; background: #4f46e5; color: #fff; font-weight: 600; text-decoration: none; }
code { background: #f3f4f6; padding: .1rem .3rem; border-radius: 4px; overflow-wrap: anywhere; }
.muted { color: #6b7280; }
li { margin: .35rem 0; }`;

const shell = (words: ExtensionPageWords, body: string) => `<!doctype html>
<html lang="${words.locale}" dir="${words.dir}">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${words.t('title')}</title><style>${STYLE}</style></head>
<body><main>
<h1>${words.t('heading')}</h1>
${body}
</main></body>
</html>
`;

/**
 * The page for `server` (this server's address as the extension will use it) in `words`' language;
 * the build's `version`, null when not built.
 */
export function extensionPage({
  server,
  version,
  words,
}: {
  server: string;
  version: string | null;
  words: ExtensionPageWords;
}): string {
  const { t } = words;
  if (!version) {
    return shell(
      words,
      `<section id="not-built"><h2>${t('notBuiltTitle')}</h2>
<p>${t('notBuilt')}</p></section>`,
    );
  }
  const browsers = BROWSERS.map((browser) => {
    const section = SECTIONS[browser];
    const zip = `/extension/${zipName(browser)}`;
    const file = `<a href="${zip}" download>${zipName(browser)}</a>`;
    return `<section id="${browser}"><h2>${t(section.title)}</h2>
<p><a class="download" href="${zip}" download>${t(section.download)}</a></p>
<ol>${section.steps.map((step) => `<li>${t(step, { file })}</li>`).join('\n')}</ol></section>`;
  }).join('\n');
  return shell(
    words,
    `<p>${t('intro')}</p>
<p class="muted">${t('version', { version: html(version), server: `<code id="server">${html(server)}</code>` })}</p>
${browsers}
<section id="sign-in"><h2>${t('signInTitle')}</h2>
<p>${t('signIn', { keys: '<kbd>Alt</kbd>+<kbd>Shift</kbd>+<kbd>K</kbd>' })}</p></section>`,
  );
}
