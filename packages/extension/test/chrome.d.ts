// What the tests evaluate in the extension's service worker (and, in Firefox, its settings page).
declare const chrome: import('../src/browser.js').Browser & { alarms: { clearAll(): Promise<boolean> } };
