// Ready snippets to install the widget on a project's app and report its deploys, with this
// server's address and the project's key filled in.
import { api } from '../api.js';
import { Link } from '../router.js';
import { CopyBox, Loading, PageTitle, useLoad } from '../ui.js';

export function installSnippets(server: string, key: string) {
  return {
    script: `<script src="${server}/widget.js" data-project-key="${key}" async></script>`,
    vite: `// vite.config.js: stamps <html data-build-sha> so the widget reports the deployed build
import svcBuildSha from 'svc-cli/vite';
export default { plugins: [svcBuildSha()] };`,
    init: `npx svc-cli init --server ${server} --project ${key}
git add .svc/config.json && git commit -m "Feedback comments: project ${key}"
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
    - run: npm ci && npm run build && npx svc-cli stamp dist/index.html
    - run: ./deploy.sh            # your deploy
    - run: npx svc-cli status --deployed
      env:
        SVC_API_KEY: \${{ secrets.SVC_API_KEY }}`,
    gitlab: `deploy:
  image: node:20
  variables:
    GIT_DEPTH: 0                  # full history
  script:
    - npm ci && npm run build && npx svc-cli stamp dist/index.html
    - ./deploy.sh                 # your deploy
    - npx svc-cli status --deployed    # SVC_API_KEY from a masked CI/CD variable`,
  };
}

export function Install({ projectKey }: { projectKey: string }) {
  const project = useLoad(() => api.call('GET /api/projects/{key}', { params: { key: projectKey } }), [projectKey]);
  const server = window.location.origin;
  const snippets = installSnippets(server, projectKey);
  if (!project.data) {
    return (
      <>
        <PageTitle>Install</PageTitle>
        <Loading error={project.error} />
      </>
    );
  }
  const origins = project.data.allowedOrigins;
  return (
    <>
      <p class="small">
        <Link href="/projects">← Projects</Link>
      </p>
      <PageTitle>{`Install ${project.data.name}`}</PageTitle>
      {origins.length === 0 ? (
        <p class="notice">
          This project allows no origin yet: the widget can only call this server from pages whose origin is listed.
          Edit the project on the <Link href="/projects">Projects</Link> page and add your app's origin.
        </p>
      ) : (
        <p class="muted">Pages on {origins.join(', ')} may use the widget.</p>
      )}
      <h2>1. The widget on your app</h2>
      <p>
        Add this tag to every page, before <code>&lt;/body&gt;</code>:
      </p>
      <CopyBox label="Script tag" text={snippets.script} />
      <p>With Vite, this plugin stamps each build's commit on the page, so the widget reports which build is live:</p>
      <CopyBox label="Vite plugin" text={snippets.vite} multiline />
      <h2>2. The repository</h2>
      <CopyBox label="svc-cli init" text={snippets.init} multiline />
      <h2>3. Deploys</h2>
      <p>
        After each deploy, <code>svc-cli status --deployed</code> marks the fixes the deployed build contains as Live.
        Store an API key (see <Link href="/api-keys">API keys</Link>) as the <code>SVC_API_KEY</code> secret.
      </p>
      <CopyBox label="GitHub Actions job" text={snippets.github} multiline />
      <CopyBox label="GitLab CI job" text={snippets.gitlab} multiline />
    </>
  );
}
