import { execFileSync } from 'node:child_process';
import { stampHtml } from './stamp-html.js';

export interface BuildShaOptions {
  /** The commit to stamp; default `git rev-parse HEAD` in the project's folder. */
  sha?: string;
  /** Where to run git; default the working directory of the build. */
  cwd?: string;
}

/**
 * A Vite plugin that writes `data-build-sha="<HEAD>"` on the `<html>` element of every HTML
 * entry at build time, like `svc-cli stamp` does after a build. Typed structurally, so the CLI
 * does not depend on Vite.
 */
export function svcBuildSha(options: BuildShaOptions = {}) {
  let sha: string | undefined = options.sha;
  return {
    name: 'svc-build-sha',
    apply: 'build' as const,
    buildStart() {
      sha ??= execFileSync('git', ['rev-parse', 'HEAD'], {
        cwd: options.cwd ?? process.cwd(),
        encoding: 'utf8',
      }).trim();
    },
    transformIndexHtml(html: string): string {
      if (!sha) throw new Error('svc-build-sha: no commit to stamp (is this a git checkout with a commit?)');
      return stampHtml(html, sha) ?? html;
    },
  };
}

export default svcBuildSha;
