// A project's builds as deploys reported them, newest first, with the comments each made Live.

import { deriveCommitUrl } from '@svc/contract/commit-url';
import { shortSha } from '@svc/contract/sha';
import { api } from '../api.js';
import { t, tx } from '../i18n.js';
import { Loading, MoreRows, useLoad, usePages } from '../loading.js';
import { Link } from '../router.js';
import { PageTitle, TableHead, Time } from '../ui.js';

export function ProjectBuilds({ projectKey }: { projectKey: string }) {
  const project = useLoad(() => api.call('GET /api/projects/{key}', { params: { key: projectKey } }), [projectKey]);
  const builds = usePages(
    (cursor) =>
      api.call('GET /api/projects/{key}/builds', { params: { key: projectKey }, query: { limit: 50, cursor } }),
    [projectKey],
  );
  const items = builds.data?.items ?? [];
  return (
    <>
      <p class="small">
        <Link href="/projects">{t('projects.back')}</Link>
      </p>
      <PageTitle>{t('builds.title', { name: project.data?.name ?? projectKey })}</PageTitle>
      {builds.data ? null : <Loading error={builds.error ?? project.error} />}
      {builds.data && items.length === 0 ? (
        <p class="empty">
          {tx('builds.empty', {
            command: <code>svc-cli status --deployed</code>,
            link: <Link href={`/projects/${projectKey}/install`}>{t('install.title')}</Link>,
          })}
        </p>
      ) : null}
      {items.length ? (
        <div class="table-wrap">
          <table>
            <TableHead
              columns={[
                t('builds.build'),
                t('builds.firstSeen'),
                [t('builds.reportedBy'), 'wide'],
                t('builds.madeLive'),
              ]}
            />
            <tbody>
              {items.map((b) => {
                const link = deriveCommitUrl(project.data?.repoUrl ?? null, b.sha);
                return (
                  <tr key={b.id}>
                    <td>
                      {link ? (
                        <a href={link} target="_blank" rel="noopener noreferrer">
                          <code>{shortSha(b.sha)}</code>
                        </a>
                      ) : (
                        <code>{shortSha(b.sha)}</code>
                      )}
                    </td>
                    <td>
                      <Time iso={b.createdAt} />
                    </td>
                    <td class="hide-phone">{b.reportedBy?.name ?? <span class="muted">{t('builds.beacon')}</span>}</td>
                    <td>
                      {b.deployedCommentIds.length === 0 ? (
                        <span class="muted">{t('builds.noComment')}</span>
                      ) : (
                        <ul style="margin:0;padding-inline-start:18px">
                          {b.deployedCommentIds.map((id) => (
                            <li key={id}>
                              <Link href={`/comments/${encodeURIComponent(id)}`}>{id}</Link>
                            </li>
                          ))}
                        </ul>
                      )}
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      ) : null}
      <MoreRows pages={builds} label={t('builds.older')} />
    </>
  );
}
