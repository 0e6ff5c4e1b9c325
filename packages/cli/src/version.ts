// The package's version, written in by the build (build.mjs), so that the single-file bundle
// the server hands out knows it without a package.json beside it. Run from source (tests),
// there is none.
declare const SVC_CLI_VERSION: string;

export const CLI_VERSION = typeof SVC_CLI_VERSION === 'string' ? SVC_CLI_VERSION : '0.0.0-source';
