// The workspace's projects: create, edit and delete (admins), and the way to each project's
// install snippets and builds.
import type { AnswerOf } from '@svc/contract/endpoints';
import { PROJECT_KEY_PATTERN } from '@svc/contract/project-key';
import { useEffect, useState } from 'preact/hooks';
import { api } from '../api.js';
import { currentQuery, Link, navigate } from '../router.js';
import { isAdmin } from '../session.js';
import { Dialog, Field, FormError, Loading, PageTitle, TableHead, Time, useAction, useLoad } from '../ui.js';

type Project = AnswerOf<'GET /api/projects'>['items'][number];

/** The key rule as an input's pattern: anchored already, and read with the `v` flag, where a bare `-` in a class is an error. */
const KEY_INPUT_PATTERN = PROJECT_KEY_PATTERN.replace(/^\^|\$$/g, '').replace('0-9-]', '0-9\\-]');

/** Origins typed one per line, blank lines dropped. */
const originLines = (text: string) =>
  text
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean);

/** Origins the project's widget was refused on lately, each with a button that adds it to the list being edited. */
function RefusedOrigins({
  project,
  origins,
  onAdd,
}: {
  project: Project;
  origins: string;
  onAdd: (origin: string) => void;
}) {
  const refused = useLoad(
    () => api.call('GET /api/projects/{key}/refused-origins', { params: { key: project.key } }),
    [project.key],
  );
  const typed = originLines(origins);
  const offered = (refused.data?.items ?? []).filter((item) => !typed.includes(item.origin));
  if (offered.length === 0) return null;
  return (
    <div class="field">
      <p class="hint">The widget was refused on these pages lately:</p>
      <ul class="refused">
        {offered.map((item) => (
          <li key={item.origin} class="row spread">
            <span class="wrap">
              <code>{item.origin}</code>{' '}
              <span class="muted small">
                {item.attempts}×, last <Time iso={item.lastSeenAt} />
              </span>
            </span>
            <button type="button" onClick={() => onAdd(item.origin)}>
              Allow<span class="skip"> {item.origin}</span>
            </button>
          </li>
        ))}
      </ul>
    </div>
  );
}

function ProjectForm({
  project,
  addOrigin,
  onDone,
}: {
  project: Project | null;
  /** An origin to add to the list, from a widget's "may not use this project" link. */
  addOrigin?: string;
  onDone: () => void;
}) {
  const [key, setKey] = useState('');
  const [name, setName] = useState(project?.name ?? '');
  const [repoUrl, setRepoUrl] = useState(project?.repoUrl ?? '');
  const [appUrl, setAppUrl] = useState(project?.appUrl ?? '');
  const [origins, setOrigins] = useState(
    [...new Set([...(project?.allowedOrigins ?? []), ...(addOrigin ? [addOrigin] : [])])].join('\n'),
  );
  const [pageParams, setPageParams] = useState((project?.pageParams ?? []).join(', '));
  const action = useAction();
  return (
    <form
      onSubmit={async (event) => {
        event.preventDefault();
        const fields = {
          name,
          allowedOrigins: originLines(origins),
          pageParams: pageParams
            .split(/[\s,]+/)
            .map((param) => param.trim())
            .filter(Boolean),
        };
        const answer = project
          ? await action.run(() =>
              api.call('PATCH /api/projects/{key}', {
                params: { key: project.key },
                body: { ...fields, repoUrl: repoUrl.trim() || null, appUrl: appUrl.trim() || null },
              }),
            )
          : await action.run(() =>
              api.call('POST /api/projects', {
                body: {
                  ...fields,
                  key,
                  ...(repoUrl.trim() ? { repoUrl: repoUrl.trim() } : {}),
                  ...(appUrl.trim() ? { appUrl: appUrl.trim() } : {}),
                },
              }),
            );
        if (answer) onDone();
      }}
    >
      {project ? null : (
        <Field
          label="Key"
          hint="2-40 of a-z, 0-9 and -. The CLI and CI name the project by it; it cannot change."
          required
          pattern={KEY_INPUT_PATTERN}
          value={key}
          onValue={setKey}
        />
      )}
      <Field label="Name" required maxLength={100} value={name} onValue={setName} />
      <Field
        label="Repository URL"
        hint="Used to link commits, e.g. https://github.com/acme/web."
        type="url"
        value={repoUrl}
        onValue={setRepoUrl}
      />
      <Field
        label="App URL"
        hint="Where the app runs: client access links and “Open on page” start with it."
        type="url"
        value={appUrl}
        onValue={setAppUrl}
      />
      <Field
        label="Allowed origins"
        hint="One per line, e.g. https://app.example.com: the pages the widget may run on."
        multiline
        rows={3}
        value={origins}
        onValue={setOrigins}
      />
      {project ? (
        <RefusedOrigins
          project={project}
          origins={origins}
          onAdd={(origin) => setOrigins([...originLines(origins), origin].join('\n'))}
        />
      ) : null}
      <Field
        label="Page parameters"
        hint="Query parameters that make another page of the app, separated by commas (e.g. tab, id): comments of ?tab=billing and ?tab=team are then apart. Others (tracking, filters) are ignored."
        value={pageParams}
        onValue={setPageParams}
      />
      <FormError message={action.error} />
      <div class="row">
        <button class="primary" type="submit" disabled={action.pending}>
          {project ? 'Save' : 'Create project'}
        </button>
        <button type="button" onClick={onDone}>
          Cancel
        </button>
      </div>
    </form>
  );
}

function DeleteProject({ project, onDone }: { project: Project; onDone: (deleted: boolean) => void }) {
  const [typed, setTyped] = useState('');
  const action = useAction();
  return (
    <form
      onSubmit={async (event) => {
        event.preventDefault();
        const answer = await action.run(() => api.call('DELETE /api/projects/{key}', { params: { key: project.key } }));
        if (answer) onDone(true);
      }}
    >
      <p>
        Every comment, reply, notification and build of <strong>{project.name}</strong> is deleted, and the client links
        limited to it stop working. This cannot be undone.
      </p>
      <Field label={`Type ${project.key} to confirm`} required autocomplete="off" value={typed} onValue={setTyped} />
      <FormError message={action.error} />
      <div class="row">
        <button class="danger" type="submit" disabled={typed !== project.key || action.pending}>
          Delete project
        </button>
        <button type="button" onClick={() => onDone(false)}>
          Cancel
        </button>
      </div>
    </form>
  );
}

export function Projects() {
  const list = useLoad(() => api.call('GET /api/projects', {}), []);
  const [editing, setEditing] = useState<Project | 'new' | null>(null);
  const [deleting, setDeleting] = useState<Project | null>(null);
  const admin = isAdmin();
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
    if (linkUsed || !project || !admin) return;
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
          admin ? (
            <button class="primary" type="button" onClick={() => setEditing('new')}>
              New project
            </button>
          ) : null
        }
      >
        Projects
      </PageTitle>
      {fromWidget.origin && !admin ? (
        <p class="notice">
          An admin of the workspace can allow <code>{fromWidget.origin}</code> for project {fromWidget.key}: ask one to
          add it to the project's allowed origins.
        </p>
      ) : null}
      {list.data ? null : <Loading error={list.error} />}
      {list.data && items.length === 0 ? (
        <p class="empty">
          {admin
            ? 'No projects yet: create one, then install the widget on its app.'
            : 'No projects yet. An admin creates them.'}
        </p>
      ) : null}
      {items.length ? (
        <div class="table-wrap">
          <table>
            <TableHead columns={['Project', ['App', 'wide'], ['Created', 'wide'], '']} />
            <tbody>
              {items.map((p) => (
                <tr key={p.key}>
                  <td class="wrap">
                    <strong>{p.name}</strong>
                    <div class="muted small">
                      <code>{p.key}</code>
                    </div>
                  </td>
                  <td class="hide-phone wrap small">{p.appUrl ?? <span class="muted">No app URL</span>}</td>
                  <td class="hide-phone">
                    <Time iso={p.createdAt} />
                  </td>
                  <td>
                    <div class="row">
                      <Link class="button" href={`/projects/${p.key}/install`}>
                        Install<span class="skip"> {p.name}</span>
                      </Link>
                      <Link class="button" href={`/projects/${p.key}/builds`}>
                        Builds<span class="skip"> of {p.name}</span>
                      </Link>
                      {admin ? (
                        <>
                          <button type="button" onClick={() => setEditing(p)}>
                            Edit<span class="skip"> {p.name}</span>
                          </button>
                          <button type="button" class="danger" onClick={() => setDeleting(p)}>
                            Delete<span class="skip"> {p.name}</span>
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
        title={editing === 'new' ? 'New project' : `Edit ${editing?.name ?? ''}`}
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
      <Dialog title={`Delete ${deleting?.name ?? ''}?`} open={deleting !== null} onClose={() => setDeleting(null)}>
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
