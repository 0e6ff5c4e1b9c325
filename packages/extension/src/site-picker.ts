// On a site no project lists, the toolbar button offers the projects the person may comment
// under ("Comment here for …", remembered for this site), and to an admin "Add this site to …"
// (the project's allowed origins). Its own shadow root, styled by a constructed sheet (which no
// page's policy governs). Only the person's own clicks count: a page can dispatch a click on
// these buttons, never a trusted one, so it cannot make the extension act.
import { pickLocale, translator } from '@svc/contract/i18n';
import { adoptStyles, h } from '../../widget/src/dom.js';
import { browser } from './browser.js';
import { en, translations } from './locales.js';
import type { UnlistedSite } from './messages.js';

const CSS = `:host{all:initial!important;position:fixed!important;z-index:2147483000!important;inset:auto 16px 16px auto!important}
.picker{box-sizing:border-box;width:min(360px,calc(100vw - 32px));max-height:calc(100vh - 32px);overflow:auto;padding:16px;background:#fff;color:#111827;border:1px solid #e5e7eb;border-radius:12px;box-shadow:0 10px 30px rgba(0,0,0,.18);font:400 14px/1.45 system-ui,-apple-system,"Segoe UI",sans-serif}
p{margin:0 0 12px}
ul{list-style:none;margin:0;padding:0}
li{display:flex;flex-wrap:wrap;gap:6px;align-items:center;padding:8px 0;border-top:1px solid #e5e7eb}
strong{flex:1 1 100%}
button{font:inherit;padding:6px 10px;border-radius:6px;border:1px solid #4f46e5;background:#4f46e5;color:#fff;cursor:pointer}
button.secondary{background:#fff;color:#4f46e5}
.close{position:absolute;inset:8px 8px auto auto;border:0;background:none;color:#4b5563;font-size:18px;padding:2px 8px}
.notice{color:#9a3412}
.notice:empty{display:none}`;

/**
 * Shows the picker for `site`; resolves with the project chosen once the person picked one (the
 * site filed under it, or added to it), null when they closed it.
 */
export function pickProject(site: UnlistedSite): Promise<string | null> {
  const locale = pickLocale(navigator.languages ?? []) ?? 'en';
  const { t, dir } = translator(locale, en, locale === 'en' ? {} : translations[locale]);
  const host = h('div', { 'data-svc-extension-picker': '', dir });
  const root = host.attachShadow({ mode: 'open' });
  adoptStyles(root, CSS, '');
  document.documentElement.append(host);
  return new Promise((resolve) => {
    const done = (project: string | null) => {
      host.remove();
      resolve(project);
    };
    /** A handler for the person's own clicks only. */
    const onTrusted = (act: () => void) => (event: Event) => {
      if (event.isTrusted) act();
    };
    const notice = h('p', { class: 'notice', role: 'status' });
    const row = ({ key, name }: { key: string; name: string }) =>
      h(
        'li',
        { 'data-project': key },
        h('strong', null, name),
        h(
          'button',
          {
            type: 'button',
            'data-file-under': '',
            onclick: onTrusted(
              () => void browser.runtime.sendMessage({ kind: 'file-under', project: key }).then(() => done(key)),
            ),
          },
          t('extension.fileUnder', { project: name }),
        ),
        site.canAddOrigin
          ? h(
              'button',
              {
                type: 'button',
                class: 'secondary',
                'data-add-origin': '',
                onclick: onTrusted(
                  () =>
                    void browser.runtime.sendMessage<boolean>({ kind: 'add-origin', project: key }).then((added) => {
                      if (added) done(key);
                      else notice.textContent = t('extension.addFailed');
                    }),
                ),
              },
              t('extension.addOrigin', { project: name }),
            )
          : null,
      );
    root.append(
      h(
        'div',
        { class: 'picker', role: 'dialog', 'aria-label': t('extension.title') },
        h(
          'button',
          { type: 'button', class: 'close', 'aria-label': t('extension.close'), onclick: onTrusted(() => done(null)) },
          '×',
        ),
        h('p', null, t('extension.unlisted', { origin: site.origin })),
        site.projects.length > 0 ? h('ul', null, site.projects.map(row)) : h('p', null, t('extension.noProjects')),
        notice,
      ),
    );
  });
}
