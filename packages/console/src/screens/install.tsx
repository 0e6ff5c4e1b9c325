// Ready snippets to install the widget on a project's app and report its deploys, with this
// server's address and the project's key filled in.
import { api } from '../api.js';
import { intlLocale, t, tx } from '../i18n.js';
import { Loading, useLoad } from '../loading.js';
import { Link } from '../router.js';
import { me } from '../session.js';
import { installSnippets } from '../snippets.js';
import { CopyBox, PageTitle } from '../ui.js';

export function Install({ projectKey }: { projectKey: string }) {
  const project = useLoad(() => api.call('GET /api/projects/{key}', { params: { key: projectKey } }), [projectKey]);
  const server = useLoad(() => api.call('GET /api/server', {}), []);
  const snippets = installSnippets(window.location.origin, projectKey, me.value?.workspace.id);
  const cli = server.data?.cli;
  if (!project.data) {
    return (
      <>
        <PageTitle>{t('install.title')}</PageTitle>
        <Loading error={project.error} />
      </>
    );
  }
  const origins = project.data.allowedOrigins;
  return (
    <>
      <p class="small">
        <Link href="/projects">{t('projects.back')}</Link>
      </p>
      <PageTitle>{t('install.titleOf', { name: project.data.name })}</PageTitle>
      {origins.length === 0 ? (
        <p class="notice">{tx('install.noOrigin', { link: <Link href="/projects">{t('nav.projects')}</Link> })}</p>
      ) : (
        <p class="muted">{t('install.origins', { origins: origins.join(', ') })}</p>
      )}
      <h2>{t('install.widget')}</h2>
      <p>{tx('install.addTag', { body: <code>&lt;/body&gt;</code> })}</p>
      <CopyBox label={t('install.scriptTag')} text={snippets.script} />
      <p>
        {tx('install.csp', {
          styleSrc: <code>style-src</code>,
          scriptSrc: <code>script-src</code>,
          policy: <code>svc-widget</code>,
          trustedTypes: <code>trusted-types</code>,
        })}
      </p>
      <CopyBox label={t('install.cspSources')} text={snippets.csp} />
      <p>{t('install.vite')}</p>
      <CopyBox label={t('install.vitePlugin')} text={snippets.vite} multiline />
      {/* A server page, not the console's: the zips are made for this server's address (GET /extension), in the console's language. */}
      <p>
        {tx('install.extension', {
          link: <a href={`/extension?locale=${encodeURIComponent(intlLocale())}`}>{t('install.extensionLink')}</a>,
        })}
      </p>
      <h2>{t('install.repository')}</h2>
      <p>{tx('install.cli', { cli: <code>svc-cli</code> })}</p>
      <CopyBox label="svc-cli init" text={snippets.init} multiline />
      {cli ? (
        <p class="small muted cli-sha">
          {tx('install.checksum', {
            file: <a href={cli.url}>svc-cli.mjs</a>,
            version: server.data?.version ?? '',
            sha: <code>{cli.sha256}</code>,
            command: <code>echo "{cli.sha256} svc-cli.mjs" | sha256sum -c -</code>,
          })}
        </p>
      ) : null}
      <h2>{t('install.deploys')}</h2>
      <p>
        {tx('install.deploysBody', {
          command: <code>svc-cli status --deployed</code>,
          link: <Link href="/api-keys">{t('nav.apiKeys')}</Link>,
          secret: <code>SVC_API_KEY</code>,
        })}
      </p>
      <CopyBox label={t('install.github')} text={snippets.github} multiline />
      <CopyBox label={t('install.gitlab')} text={snippets.gitlab} multiline />
    </>
  );
}
