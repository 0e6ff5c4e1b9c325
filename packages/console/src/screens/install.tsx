// Ready snippets to install the widget on a project's app and report its deploys, with this
// server's address and the project's key filled in.
import { api } from '../api.js';
import { Link } from '../router.js';
import { installSnippets } from '../snippets.js';
import { CopyBox, Loading, PageTitle, useLoad } from '../ui.js';

export function Install({ projectKey }: { projectKey: string }) {
  const project = useLoad(() => api.call('GET /api/projects/{key}', { params: { key: projectKey } }), [projectKey]);
  const server = useLoad(() => api.call('GET /api/server', {}), []);
  const snippets = installSnippets(window.location.origin, projectKey);
  const cli = server.data?.cli;
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
      <p>
        If your app sends a Content-Security-Policy, add these sources to its directives (the widget needs nothing in{' '}
        <code>style-src</code>, and works with a nonce-based <code>script-src</code>: give its tag your nonce). With
        Trusted Types, add <code>svc-widget</code> to your <code>trusted-types</code> directive.
      </p>
      <CopyBox label="Content-Security-Policy sources" text={snippets.csp} />
      <p>With Vite, this plugin stamps each build's commit on the page, so the widget reports which build is live:</p>
      <CopyBox label="Vite plugin" text={snippets.vite} multiline />
      <h2>2. The repository</h2>
      <p>
        <code>svc-cli</code> is one file this server hands out, the same version as the server: download it, check it,
        and write the project's configuration.
      </p>
      <CopyBox label="svc-cli init" text={snippets.init} multiline />
      {cli ? (
        <p class="small muted cli-sha">
          SHA-256 of <a href={cli.url}>svc-cli.mjs</a> {server.data?.version}: <code>{cli.sha256}</code>. To pin this
          exact file, check against it instead of the server's checksum:{' '}
          <code>echo "{cli.sha256} svc-cli.mjs" | sha256sum -c -</code>
        </p>
      ) : null}
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
