// A project's form, to create one or edit it: key (on creation), name, repository and app URLs,
// allowed origins (with those refused lately offered), page parameters and replay settings.
import type { Project } from '@svc/contract';
import { PROJECT_KEY_PATTERN } from '@svc/contract/project-key';
import { useState } from 'preact/hooks';
import { api } from '../../api.js';
import { t } from '../../i18n.js';
import { useAction } from '../../loading.js';
import { navigate } from '../../router.js';
import { Field, FormError } from '../../ui.js';
import { originLines, RefusedOrigins } from './refused-origins.js';
import { ReplaySettings } from './replay-settings.js';

/** The key rule as an input's pattern: anchored already, and read with the `v` flag, where a bare `-` in a class is an error. */
const KEY_INPUT_PATTERN = PROJECT_KEY_PATTERN.replace(/^\^|\$$/g, '').replace('0-9-]', '0-9\\-]');

/** Creates a project (then opens its install page) or saves `project`; `onDone` when saved or cancelled. */
export function ProjectForm({
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
