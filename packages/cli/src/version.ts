// The package's version, written in by the build (build.mjs), so that the single-file bundle
// the server hands out knows it without a package.json beside it.
declare const SVC_CLI_VERSION: string;

export const CLI_VERSION = SVC_CLI_VERSION;
