// How the code that runs in browsers is bundled (the widget's scripts, the browser extension's):
// one esbuild configuration, so that both builds read the same code the same way.
export const BROWSER_BUNDLE = {
  bundle: true,
  minify: true,
  format: 'iife',
  // ES2022 keeps class fields as written (browsers since 2020), with no helper per field.
  target: ['es2022'],
  // Third-party notices are appended in full instead (appendBundleNotices).
  legalComments: 'none',
  metafile: true,
  // Quiet on customers' pages: no console output survives the production build.
  drop: ['console', 'debugger'],
  logLevel: 'warning',
};
