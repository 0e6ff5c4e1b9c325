// The install snippets of a project, with this server's address and the project's key filled
// in: the widget's script tag, the Vite stamp, the CLI's first run, and deploy jobs. Plain
// text, no browser needed: the CLI's tests run them in a shell.

/**
 * Downloads svc-cli from this server into `dir` and checks it against the server's checksum,
 * each step joined to the next by `&&`: pasted in a shell, nothing after a failed check runs.
 */
const downloadCli = (server: string, dir: string) =>
  `curl -fsSLo ${dir}svc-cli.mjs ${server}/cli/svc-cli.mjs &&
curl -fsSL ${server}/cli/svc-cli.mjs.sha256 | ${dir ? `(cd ${dir} && sha256sum -c -)` : 'sha256sum -c -'}`;

export function installSnippets(server: string, key: string, workspaceId = '') {
  // The workspace's id lets the widget find its single sign-on by id: a key is unique within a
  // workspace only, and another workspace's project of the same key could otherwise hide it.
  const workspace = workspaceId ? ` data-workspace="${workspaceId}"` : '';
  return {
    script: `<script src="${server}/widget.js" data-project-key="${key}"${workspace} async></script>`,
    // The sources a page's Content-Security-Policy must add for the widget; it needs no style-src.
    csp: `script-src ${server}; connect-src ${server}; img-src ${server} data: blob:`,
    vite: `// vite.config.js: stamps <html data-build-sha> with the commit, so the widget reports the deployed build
import { execSync } from 'node:child_process';
const sha = process.env.GITHUB_SHA || execSync('git rev-parse HEAD').toString().trim();
export default {
  plugins: [{ name: 'build-sha', transformIndexHtml: (html) => html.replace('<html', \`<html data-build-sha="\${sha}"\`) }],
};`,
    init: `mkdir -p .svc &&
${downloadCli(server, '.svc/')} &&
node .svc/svc-cli.mjs init --server ${server} --project ${key} &&
git add .svc/config.json .gitignore && git commit -m "Feedback comments: project ${key}"
# on your machine, in .svc/credentials.env (git-ignored): SVC_API_KEY=<an API key>`,
    github: `deploy:
  runs-on: ubuntu-latest
  steps:
    - uses: actions/checkout@v4
      with:
        fetch-depth: 0            # full history: the pending commits must be in it
    - uses: actions/setup-node@v4
      with:
        node-version: 20
    - name: svc-cli from the feedback server, checked
      run: |
        ${downloadCli(server, '').replaceAll('\n', '\n        ')}
    - run: npm ci && npm run build && node svc-cli.mjs stamp dist/index.html
    - run: ./deploy.sh            # your deploy
    - run: node svc-cli.mjs status --deployed
      env:
        SVC_API_KEY: \${{ secrets.SVC_API_KEY }}`,
    gitlab: `deploy:
  image: node:20
  variables:
    GIT_DEPTH: 0                  # full history
  script:
    - ${downloadCli(server, '').replace(' &&\n', '\n    - ')}
    - npm ci && npm run build && node svc-cli.mjs stamp dist/index.html
    - ./deploy.sh                 # your deploy
    - node svc-cli.mjs status --deployed    # SVC_API_KEY from a masked CI/CD variable`,
  };
}
