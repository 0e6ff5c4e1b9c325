// The workspace's projects: create, edit and delete (admins), and the way to each project's
// install snippets and builds.
import type { Project } from '@svc/contract';
import { useEffect, useState } from 'preact/hooks';
import { api } from '../../api.js';
import { FollowButton, useFollowing } from '../../following.js';
import { t, tx } from '../../i18n.js';
import { Loading, useLoad } from '../../loading.js';
import { currentQuery, Link, navigate } from '../../router.js';
import { may } from '../../session.js';
import { Dialog, FormError, PageTitle, TableHead, Time } from '../../ui.js';
import { DeleteProject } from './delete-project.js';
import { ProjectForm } from './project-form.js';

export function Projects() {
  const list = useLoad(() => api.call('GET /api/projects', {}), []);
  const follows = useFollowing();
  const [editing, setEditing] = useState<Project | 'new' | null>(null);
  const [deleting, setDeleting] = useState<Project | null>(null);
  const manage = may('manageProjects');
  const items = list.data?.items ?? [];
  // /projects?edit=<key>&origin=<origin>: the widget's link when it runs on an origin not allowed.
  const [fromWidget] = useState(() => {
    const query = currentQuery();
    return { key: query.get('edit'), origin: query.get('origin') ?? undefined };
  });
  // The link opens its project's dialog once: not again when the list reloads after saving.
  const [linkUsed, setLinkUsed] = useState(false);
  const [editingFromLink, setEditingFromLink] = useState(false);
  useEffect(() => {
    const project = items.find((p) => p.key === fromWidget.key);
    if (linkUsed || !project || !manage) return;
    setLinkUsed(true);
    setEditingFromLink(true);
    setEditing(project);
    navigate('/projects', true);
  }, [list.data]);
  const closeEditing = () => {
    setEditing(null);
    setEditingFromLink(false);
  };
  return (
    <>
      <PageTitle
        actions={
          manage ? (
            <button class="primary" type="button" onClick={() => setEditing('new')}>
              {t('projects.new')}
            </button>
          ) : null
        }
      >
        {t('nav.projects')}
      </PageTitle>
      {fromWidget.origin && !manage ? (
        <p class="notice">
          {tx('projects.askAdmin', { origin: <code>{fromWidget.origin}</code>, key: fromWidget.key ?? '' })}
        </p>
      ) : null}
      {list.data ? null : <Loading error={list.error} />}
      {list.data && items.length === 0 ? (
        <p class="empty">{t(manage ? 'projects.emptyAdmin' : 'projects.empty')}</p>
      ) : null}
      {items.length ? <p class="muted">{t('following.lead')}</p> : null}
      <FormError message={follows.error} />
      {items.length ? (
        <div class="table-wrap">
          <table>
            <TableHead
              columns={[t('comments.project'), [t('projects.app'), 'wide'], [t('keys.created'), 'wide'], '']}
            />
            <tbody>
              {items.map((p) => (
                <tr key={p.key}>
                  <td class="wrap">
                    <strong>{p.name}</strong>
                    <div class="muted small">
                      <code>{p.key}</code>
                    </div>
                  </td>
                  <td class="hide-phone wrap small">
                    {p.appUrl ?? <span class="muted">{t('projects.noAppUrl')}</span>}
                  </td>
                  <td class="hide-phone">
                    <Time iso={p.createdAt} />
                  </td>
                  <td>
                    <div class="row">
                      <FollowButton project={p} follows={follows} />
                      <Link class="button" href={`/projects/${p.key}/install`}>
                        {t('install.title')}
                        <span class="skip"> {p.name}</span>
                      </Link>
                      <Link class="button" href={`/projects/${p.key}/builds`}>
                        {t('projects.builds')}
                        <span class="skip"> {t('people.ofName', { name: p.name })}</span>
                      </Link>
                      {manage ? (
                        <>
                          <button type="button" onClick={() => setEditing(p)}>
                            {t('projects.edit')}
                            <span class="skip"> {p.name}</span>
                          </button>
                          <button type="button" class="danger" onClick={() => setDeleting(p)}>
                            {t('comment.delete')}
                            <span class="skip"> {p.name}</span>
                          </button>
                        </>
                      ) : null}
                    </div>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
      <Dialog
        title={editing === 'new' ? t('projects.new') : t('projects.editTitle', { name: editing?.name ?? '' })}
        open={editing !== null}
        onClose={closeEditing}
      >
        <ProjectForm
          project={editing === 'new' ? null : editing}
          addOrigin={editingFromLink ? fromWidget.origin : undefined}
          onDone={() => {
            closeEditing();
            list.reload();
          }}
        />
      </Dialog>
      <Dialog
        title={t('projects.deleteTitle', { name: deleting?.name ?? '' })}
        open={deleting !== null}
        onClose={() => setDeleting(null)}
      >
        {deleting ? (
          <DeleteProject
            project={deleting}
            onDone={(deleted) => {
              setDeleting(null);
              if (deleted) list.reload();
            }}
          />
        ) : null}
      </Dialog>
    </>
  );
}
