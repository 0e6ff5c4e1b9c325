// The workspace's projects: create, edit and delete (admins), and the way to each project's
// install snippets and builds.
import type { AnswerOf } from '@svc/contract/endpoints';
import { PROJECT_KEY_PATTERN } from '@svc/contract/project-key';
import { REPLAY_SECONDS } from '@svc/contract/rules';
import { useEffect, useId, useState } from 'preact/hooks';
import { api } from '../api.js';
import { FollowButton, useFollowing } from '../following.js';
import { t, tx } from '../i18n.js';
import { currentQuery, Link, navigate } from '../router.js';
import { may } from '../session.js';
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
      <p class="hint">{t('projects.refused')}</p>
      <ul class="refused">
        {offered.map((item) => (
          <li key={item.origin} class="row spread">
            <span class="wrap">
              <code>{item.origin}</code>{' '}
              <span class="muted small">
                {tx('projects.attempts', { count: item.attempts, when: <Time iso={item.lastSeenAt} /> })}
              </span>
            </span>
            <button type="button" onClick={() => onAdd(item.origin)}>
              {t('projects.allow')}
              <span class="skip"> {item.origin}</span>
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
  const [replay, setReplay] = useState(project?.replay ?? null);
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
                body: {
                  ...fields,
                  repoUrl: repoUrl.trim() || null,
                  appUrl: appUrl.trim() || null,
                  ...(replay ? { replay } : {}),
                },
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
        if (!answer) return;
        onDone();
        // A new project's next step is installing the widget on its app.
        if (!project) navigate(`/projects/${encodeURIComponent(key)}/install`);
      }}
    >
      {project ? null : (
        <Field
          label={t('projects.key')}
          hint={t('projects.keyHint')}
          required
          pattern={KEY_INPUT_PATTERN}
          value={key}
          onValue={setKey}
        />
      )}
      <Field label={t('account.name')} required maxLength={100} value={name} onValue={setName} />
      <Field
        label={t('projects.repoUrl')}
        hint={t('projects.repoUrlHint')}
        type="url"
        value={repoUrl}
        onValue={setRepoUrl}
      />
      <Field
        label={t('projects.appUrl')}
        hint={t('projects.appUrlHint')}
        type="url"
        value={appUrl}
        onValue={setAppUrl}
      />
      <Field
        label={t('projects.origins')}
        hint={t('projects.originsHint')}
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
        label={t('projects.pageParams')}
        hint={t('projects.pageParamsHint')}
        value={pageParams}
        onValue={setPageParams}
      />
      {replay ? <ReplaySettings replay={replay} onChange={setReplay} /> : null}
      <FormError message={action.error} />
      <div class="row">
        <button class="primary" type="submit" disabled={action.pending}>
          {t(project ? 'projects.save' : 'projects.create')}
        </button>
        <button type="button" onClick={onDone}>
          {t('ui.cancel')}
        </button>
      </div>
    </form>
  );
}

/**
 * Whether the project's widget keeps a replay of the moments before a reviewer's comment, how
 * long, and whether every text is masked in it. Off unless an admin turns it on; the widget reads
 * it when a page loads, so it takes effect without a deploy.
 */
function ReplaySettings({
  replay,
  onChange,
}: {
  replay: Project['replay'];
  onChange: (replay: Project['replay']) => void;
}) {
  const hintId = useId();
  return (
    <fieldset class="replay-settings" aria-describedby={hintId}>
      <legend>{t('projects.replay')}</legend>
      <p id={hintId} class="hint">
        {t('projects.replayHint')}
      </p>
      <label class="check">
        <input
          type="checkbox"
          name="replayOn"
          checked={replay.on}
          onChange={(e) => onChange({ ...replay, on: (e.target as HTMLInputElement).checked })}
        />
        {t('projects.replayOn')}
      </label>
      <Field
        label={t('projects.replaySeconds')}
        type="number"
        name="replaySeconds"
        required
        min={REPLAY_SECONDS.min}
        max={REPLAY_SECONDS.max}
        step={1}
        disabled={!replay.on}
        value={String(replay.seconds)}
        onValue={(value) => onChange({ ...replay, seconds: Number(value) })}
      />
      <label class="check">
        <input
          type="checkbox"
          name="replayMaskText"
          checked={replay.maskAllText}
          disabled={!replay.on}
          onChange={(e) => onChange({ ...replay, maskAllText: (e.target as HTMLInputElement).checked })}
        />
        {t('projects.replayMaskText')}
      </label>
    </fieldset>
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
      <p>{tx('projects.deleteBody', { name: <strong>{project.name}</strong> })}</p>
      <Field
        label={t('projects.typeToConfirm', { key: project.key })}
        required
        autocomplete="off"
        value={typed}
        onValue={setTyped}
      />
      <FormError message={action.error} />
      <div class="row">
        <button class="danger" type="submit" disabled={typed !== project.key || action.pending}>
          {t('projects.delete')}
        </button>
        <button type="button" onClick={() => onDone(false)}>
          {t('ui.cancel')}
        </button>
      </div>
    </form>
  );
}

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
