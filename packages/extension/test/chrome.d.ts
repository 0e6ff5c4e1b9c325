// What the tests evaluate in the extension's service worker.
declare const chrome: import('../src/browser.js').Browser;
