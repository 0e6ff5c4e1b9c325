// The extension's manifest for each browser: the same Manifest V3 extension, the background a
// service worker in Chromium and an event page in Firefox (which has no service workers for
// extensions), and Firefox's id and minimum version.

/** Each permission, and why (the README lists the same). */
export const PERMISSIONS = {
  // The server's address and the person's session, in the extension's own storage.
  storage: true,
  // The launcher: registered on the origins the person allowed, injected into the tab of the toolbar button;
  // the widget's chunks (the extension's own files) injected beside it when the widget needs them.
  scripting: true,
  // The toolbar button (and its shortcut) opens the widget on this tab only, until it is left.
  activeTab: true,
  // The toolbar badge's unread count, read at the server's pace while no tab is open on a site.
  alarms: true,
};

/**
 * `server` (an origin) is the one host permission asked at install, in a build downloaded from
 * that server; the generic build asks for it when the person sets the address. Every other
 * origin is asked at run time, when the person allows the sites of their projects.
 */
export function manifestFor(browser, { version, server = null }) {
  const firefox = browser === 'firefox';
  return {
    manifest_version: 3,
    name: 'Feedback for any site',
    short_name: 'Feedback',
    version,
    description:
      'Comment on any page with the same pins, panel and verify loop as the feedback widget, on your own server.',
    permissions: Object.keys(PERMISSIONS),
    host_permissions: server ? [`${server}/*`] : [],
    optional_host_permissions: ['https://*/*', 'http://*/*'],
    background: firefox ? { scripts: ['background.js'] } : { service_worker: 'background.js' },
    action: { default_title: 'Feedback', default_icon: { 16: 'icon-16.png', 32: 'icon-32.png' } },
    icons: { 48: 'icon-48.png', 128: 'icon-128.png' },
    commands: {
      _execute_action: {
        suggested_key: { default: 'Alt+Shift+K' },
        description: 'Open the feedback panel on this tab',
      },
    },
    options_ui: { page: 'options.html', open_in_tab: true },
    // The default of Manifest V3, written out: the extension's pages run its own scripts only.
    content_security_policy: { extension_pages: "script-src 'self'; object-src 'self'" },
    ...(firefox
      ? { browser_specific_settings: { gecko: { id: 'feedback-extension@svc.invalid', strict_min_version: '128.0' } } }
      : { minimum_chrome_version: '121' }),
  };
}
