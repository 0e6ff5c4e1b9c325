// The extension's settings page: the server's address (pre-filled in a build downloaded from
// that server), the sign-in (the widget's own session: password and second factor, the
// workspace's single sign-on, a client's access link), and the sites of the person's projects,
// where the launcher may appear by itself once allowed.
//
// How a session reaches the extension: every way ends here, in this page of the extension's
// own origin, which no web page can script. Single sign-on runs in a popup this page opens;
// the server's last page of it posts a one-time code (two minutes, once) to this page's origin
// only, worth nothing without the binding this page got when it started; this page trades the
// two for a session. An access link is pasted here: its token is sent in a request's body,
// never in an address that a server logs.

import { type Messages, pickLocale, translator } from '@svc/contract/i18n';
import { enVocabulary } from '@svc/contract/locales/en';
import { keepTokensIn } from '../../widget/src/api.js';
import { addEnglish, wordsOf } from '../../widget/src/i18n.js';
import { enFirstLoad, enPanel } from '../../widget/src/locales/en.js';
import { Session } from '../../widget/src/session.js';
import { signInWithSso } from '../../widget/src/sso-popup.js';
import { browser } from './browser.js';
import { carriedLocales } from './carried-locales.js';
import { en, translations } from './locales.js';
import { originPattern, serverBase } from './messages.js';
import { projectOrigins, readSettings } from './settings.js';

const locale = pickLocale(navigator.languages ?? []) ?? 'en';
const english: Messages = { ...enFirstLoad, ...enPanel, ...enVocabulary, ...en };
const messages: Messages = { ...carriedLocales[locale], ...(locale === 'en' ? {} : translations[locale]) };
const { t, dir } = translator(locale, english, messages);
addEnglish({ ...enPanel, ...enVocabulary });
document.documentElement.lang = locale;
document.documentElement.dir = dir;
document.title = t('extension.title');

/** An element with its attributes and children. */
function element(tag: string, attributes: Record<string, string> = {}, ...children: (Node | string)[]): HTMLElement {
  const made = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) made.setAttribute(name, value);
  made.append(...children);
  return made;
}
/** A labelled field. */
const field = (name: string, label: string, attributes: Record<string, string>) =>
  element('label', {}, element('span', {}, label), element('input', { name, ...attributes }));
const status = () => element('p', { class: 'notice', role: 'status' });

const serverForm = element(
  'form',
  { id: 'server' },
  field('server', t('extension.server'), { type: 'url', required: '', autocomplete: 'url' }),
  element('p', { class: 'hint' }, t('extension.serverHint')),
  element('button', {}, t('extension.save')),
  status(),
) as HTMLFormElement;
const codeField = field('code', t('signIn.code'), { autocomplete: 'one-time-code' });
const signInForm = element(
  'form',
  { id: 'sign-in', hidden: '' },
  element('h2', {}, t('signIn.title')),
  field('email', t('signIn.email'), { type: 'email', autocomplete: 'username' }),
  field('password', t('signIn.password'), { type: 'password', autocomplete: 'current-password' }),
  codeField,
  element('button', {}, t('signIn.submit')),
  element('button', { type: 'button', class: 'secondary', 'data-sso': '' }, t('extension.sso')),
  status(),
) as HTMLFormElement;
const accessLinkForm = element(
  'form',
  { id: 'access-link', hidden: '' },
  field('link', t('extension.accessLink'), { type: 'text', autocomplete: 'off', spellcheck: 'false' }),
  element('p', { class: 'hint' }, t('extension.accessLinkHint')),
  element('button', {}, t('extension.accessLinkSubmit')),
  status(),
) as HTMLFormElement;
const signedIn = element(
  'section',
  { id: 'signed-in', hidden: '' },
  element('p', { class: 'who' }),
  element('button', { type: 'button', 'data-sign-out': '' }, t('panel.signOut')),
  element('h2', {}, t('extension.sites')),
  element('ul', { class: 'sites' }),
  element('button', { type: 'button', 'data-show-on-sites': '', hidden: '' }, t('extension.showOnSites')),
  status(),
);
document
  .querySelector('main')
  ?.append(element('h1', {}, t('extension.title')), serverForm, signInForm, accessLinkForm, signedIn);
const notice = (within: HTMLElement, text: string) => {
  (within.querySelector('.notice') as HTMLElement).textContent = text;
};
const input = (form: HTMLFormElement, name: string) => form.elements.namedItem(name) as HTMLInputElement;

/** The address a build downloaded from a server carries (`server.json`); null in the generic build. */
async function prefilledServer(): Promise<string | null> {
  const response = await fetch(browser.runtime.getURL('server.json')).catch(() => null);
  if (!response?.ok) return null;
  const { server } = (await response.json()) as { server?: string };
  return server ? serverBase(server) : null;
}

let session: Session | null = null;
/** The server `session` signs in to. */
let signInServer = '';

/** The sign-in against `server`, the token kept in the extension's storage. */
async function showSession(server: string): Promise<void> {
  signInServer = server;
  const { token } = await readSettings();
  let kept = token;
  keepTokensIn({
    getItem: () => kept,
    setItem: (_key, value) => {
      kept = value;
      void browser.storage.local.set({ token: value }).then(() => projectOrigins().then(showSites));
    },
    removeItem: () => {
      kept = null;
      void browser.storage.local.remove(['token']);
    },
  });
  session = new Session({ apiBase: server, projectKey: '', workspace: null }, () => drawSession());
  session.speak(wordsOf(locale, carriedLocales[locale]));
  await session.resume();
  drawSession();
  if (session.user) await showSites(await projectOrigins());
}

function drawSession(): void {
  const user = session?.user ?? null;
  signInForm.hidden = !session || !!user;
  accessLinkForm.hidden = signInForm.hidden || !!session?.challenge;
  signedIn.hidden = !user;
  codeField.hidden = !session?.challenge;
  if (session?.notice) notice(signInForm, session.notice);
  if (user)
    (signedIn.querySelector('.who') as HTMLElement).textContent = t('extension.signedInAs', { name: user.name });
}

let siteOrigins: string[] = [];
async function showSites(projects: { allowedOrigins: string[] }[]): Promise<void> {
  siteOrigins = [...new Set(projects.flatMap((project) => project.allowedOrigins))];
  const list = signedIn.querySelector('.sites') as HTMLElement;
  list.replaceChildren(
    ...siteOrigins.map((origin) => Object.assign(document.createElement('li'), { textContent: origin })),
  );
  const allowed =
    siteOrigins.length > 0 && (await browser.permissions.contains({ origins: siteOrigins.map(originPattern) }));
  (signedIn.querySelector('[data-show-on-sites]') as HTMLElement).hidden = siteOrigins.length === 0 || allowed;
  notice(signedIn, siteOrigins.length === 0 ? t('extension.noSites') : allowed ? t('extension.sitesShown') : '');
}

serverForm.addEventListener('submit', (event) => {
  event.preventDefault();
  const server = serverBase(input(serverForm, 'server').value);
  if (!server) return notice(serverForm, t('extension.notAnAddress'));
  // Asked in the click itself: a browser grants a permission only to a person's gesture.
  void browser.permissions.request({ origins: [originPattern(server)] }).then(async (granted) => {
    if (!granted) return notice(serverForm, t('extension.serverRefused'));
    notice(serverForm, '');
    const { server: before } = await readSettings();
    if (before !== server) await browser.storage.local.set({ server, token: null, projects: {}, filedUnder: {} });
    await showSession(server);
  });
});

signInForm.addEventListener('submit', (event) => {
  event.preventDefault();
  if (!session) return;
  notice(signInForm, '');
  const answer = session.challenge
    ? session.answerSecondFactor(input(signInForm, 'code').value)
    : session.signIn(input(signInForm, 'email').value, input(signInForm, 'password').value);
  void answer.then(
    (result) => {
      if (!result.ok && session) notice(signInForm, session.refusal(result));
      drawSession();
    },
    () => notice(signInForm, t('widget.panelFailed')),
  );
});

/**
 * The token of a client's access link as pasted (`…#svc_access=<token>`, the older
 * `?svc_access=`, or the token alone); null when it is none.
 */
function accessTokenOf(text: string): string | null {
  const pasted = text.trim();
  if (/^svc_acc_\S+$/.test(pasted)) return pasted;
  try {
    const url = new URL(pasted);
    return new URLSearchParams(url.hash.slice(1)).get('svc_access') ?? url.searchParams.get('svc_access');
  } catch {
    return null;
  }
}

accessLinkForm.addEventListener('submit', (event) => {
  event.preventDefault();
  const token = accessTokenOf(input(accessLinkForm, 'link').value);
  if (!session) return;
  if (!token) return notice(accessLinkForm, t('extension.notAnAccessLink'));
  notice(accessLinkForm, '');
  const signingIn = session;
  void signingIn.exchangeAccessLink(token).then(async (ok) => {
    if (ok) await signingIn.resume();
    else notice(accessLinkForm, signingIn.notice);
    input(accessLinkForm, 'link').value = '';
    drawSession();
  });
});

signInForm.querySelector('[data-sso]')?.addEventListener('click', () => {
  // Opened in the click itself, so that no blocker stops it; pointed at the provider once found.
  const popup = window.open('about:blank', 'svc-sso', 'popup,width=520,height=680');
  if (!popup) return notice(signInForm, t('signIn.popupBlocked'));
  const email = input(signInForm, 'email').value.trim();
  if (!email) {
    popup.close();
    return notice(signInForm, t('extension.ssoNeedsEmail'));
  }
  void (async () => {
    // Found by the e-mail's domain (one the workspace proved): the workspace's provider.
    const found = await session?.api.call('GET /api/auth/sso', { query: { email } }).catch(() => null);
    if (!found?.ok) {
      popup.close();
      return notice(signInForm, t('extension.noSso'));
    }
    const viaSso = new Session({ apiBase: signInServer, projectKey: '', workspace: found.data.workspaceId }, () =>
      drawSession(),
    );
    viaSso.speak(wordsOf(locale, carriedLocales[locale]));
    await viaSso.discoverSso();
    const refused = await signInWithSso(viaSso, popup);
    if (refused) return notice(signInForm, refused);
    session = viaSso;
    drawSession();
  })();
});

signedIn.querySelector('[data-sign-out]')?.addEventListener('click', () => {
  void session?.api.call('POST /api/auth/logout', {}).catch(() => null);
  session?.forget();
  drawSession();
});

signedIn.querySelector('[data-show-on-sites]')?.addEventListener('click', () => {
  void browser.permissions.request({ origins: siteOrigins.map(originPattern) }).then(async () => {
    await browser.runtime.sendMessage({ kind: 'sites-allowed' });
    await showSites(siteOrigins.map((origin) => ({ allowedOrigins: [origin] })));
  });
});

void (async () => {
  const { server } = await readSettings();
  const shown = server ?? (await prefilledServer());
  if (shown) input(serverForm, 'server').value = shown;
  if (server && (await browser.permissions.contains({ origins: [originPattern(server)] }))) await showSession(server);
})();
