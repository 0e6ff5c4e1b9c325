// The extension's page: what it is for, each browser's download and the steps to install an
// unsigned build (what works, and what does not, without a store), the address it will use.
// Plain HTML and a stylesheet of its own, no script: the pages' policy runs none inline.
import { BROWSERS, type Browser, zipName } from './builds.js';

/** Text for an HTML element or attribute (the server's address comes from the request's Host). */
const html = (text: string) => text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);

const STEPS: Record<Browser, { title: string; steps: string[] }> = {
  chromium: {
    title: 'Chrome, Edge, Brave and other Chromium browsers',
    steps: [
      'Download <a href="{zip}" download>{name}</a> and unzip it into a folder you keep (the browser loads the extension from there, and forgets it if the folder goes).',
      'Open <code>chrome://extensions</code> (<code>edge://extensions</code>, <code>brave://extensions</code>) and turn on <em>Developer mode</em>.',
      'Press <em>Load unpacked</em> and pick the unzipped folder. The extension asks to reach this server and opens its settings page.',
    ],
  },
  firefox: {
    title: 'Firefox',
    steps: [
      'Download <a href="{zip}" download>{name}</a>.',
      'Open <code>about:debugging#/runtime/this-firefox</code>, press <em>Load Temporary Add-on…</em> and pick the zip. The settings page opens.',
      'A temporary add-on lasts until Firefox closes: this build is not signed by Mozilla, and Firefox keeps only signed add-ons. To keep it, on Firefox ESR, Developer Edition or Nightly set <code>xpinstall.signatures.required</code> to <code>false</code> in <code>about:config</code> and install the zip from <code>about:addons</code> (<em>Install Add-on From File…</em>); on Firefox itself, your administrator signs it once at addons.mozilla.org (unlisted, free) and hands out the signed file.',
    ],
  },
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

const shell = (body: string) => `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Browser extension · feedback</title><style>${STYLE}</style></head>
<body><main>
<h1>Review any site: the browser extension</h1>
${body}
</main></body>
</html>
`;

/** The page for `server` (this server's address as the extension will use it); the build's `version`, null when not built. */
export function extensionPage({ server, version }: { server: string; version: string | null }): string {
  if (!version) {
    return shell(`<section id="not-built"><h2>Not built on this server</h2>
<p>This server has no build of the extension to hand out. Whoever runs it builds it with <code>npm run build</code>
(or <code>npm run build -w @svc/extension</code> alone) in the server's checkout, then restarts the server.</p></section>`);
  }
  const browsers = BROWSERS.map((browser) => {
    const { title, steps } = STEPS[browser];
    const zip = `/extension/${zipName(browser)}`;
    const fill = (step: string) => step.replace('{zip}', zip).replace('{name}', zipName(browser));
    return `<section id="${browser}"><h2>${title}</h2>
<p><a class="download" href="${zip}" download>Download for ${browser === 'firefox' ? 'Firefox' : 'Chromium browsers'}</a></p>
<ol>${steps.map((step) => `<li>${fill(step)}</li>`).join('\n')}</ol></section>`;
  }).join('\n');
  return shell(`<p>Pin comments on any page you open, including pages that carry no script of ours (a client's staging site,
a page whose Content-Security-Policy forbids foreign scripts), with the same pins, panel and verify loop as the widget,
on this server.</p>
<p class="muted">Version ${html(version)}. The download is made for this server: it asks to reach
<code id="server">${html(server)}</code> when installed, and its settings page starts with that address.</p>
${browsers}
<section id="sign-in"><h2>Then</h2>
<p>On the settings page, sign in with your e-mail and password (and your authenticator's code), with your workspace's
single sign-on, or with a client access link. Then let it show its launcher on your projects' sites, or press its
toolbar button (<kbd>Alt</kbd>+<kbd>Shift</kbd>+<kbd>K</kbd>) on any tab.</p></section>`);
}
