// The workspace's projects: create, edit and delete (admins), and the way to each project's
// install snippets and builds.
import type { AnswerOf } from '@svc/contract/endpoints';
import { PROJECT_KEY_PATTERN } from '@svc/contract/project-key';
import { useState } from 'preact/hooks';
import { api } from '../api.js';
import { Link } from '../router.js';
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

function ProjectForm({ project, onDone }: { project: Project | null; onDone: () => void }) {
  const [key, setKey] = useState('');
  const [name, setName] = useState(project?.name ?? '');
  const [repoUrl, setRepoUrl] = useState(project?.repoUrl ?? '');
  const [appUrl, setAppUrl] = useState(project?.appUrl ?? '');
  const [origins, setOrigins] = useState((project?.allowedOrigins ?? []).join('\n'));
  const action = useAction();
  return (
    <form
      onSubmit={async (event) => {
        event.preventDefault();
        const fields = { name, allowedOrigins: originLines(origins) };
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
        onClose={() => setEditing(null)}
      >
        <ProjectForm
          project={editing === 'new' ? null : editing}
          onDone={() => {
            setEditing(null);
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
