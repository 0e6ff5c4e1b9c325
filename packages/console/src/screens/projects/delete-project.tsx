// Deleting a project, confirmed by typing its key: its comments go with it.
import type { Project } from '@svc/contract';
import { useState } from 'preact/hooks';
import { api } from '../../api.js';
import { t, tx } from '../../i18n.js';
import { useAction } from '../../loading.js';
import { Field, FormError } from '../../ui.js';

/** Asks for `project`'s key before deleting it; `onDone(true)` once deleted, `onDone(false)` on Cancel. */
export function DeleteProject({ project, onDone }: { project: Project; onDone: (deleted: boolean) => void }) {
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
