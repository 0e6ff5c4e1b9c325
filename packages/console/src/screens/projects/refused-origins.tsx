// Origins a project's widget was refused on lately, offered to the admin editing its allowed origins.
import type { Project } from '@svc/contract';
import { api } from '../../api.js';
import { t, tx } from '../../i18n.js';
import { useLoad } from '../../loading.js';
import { Time } from '../../ui.js';

/** Origins typed one per line, blank lines dropped. */
export const originLines = (text: string) =>
  text
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean);

/** Origins the project's widget was refused on lately, each with a button that adds it to the list being edited. */
export function RefusedOrigins({
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
