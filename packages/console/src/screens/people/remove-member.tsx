// Removing a member from the team, asked first: from the team's list and from Agents.
import { api } from '../../api.js';
import { t } from '../../i18n.js';
import type { useAction } from '../../loading.js';
import { ConfirmDialog } from '../../ui.js';

/** Asks before removing `member` (a person or an agent) from the team; `body` says what follows. */
export function RemoveMember({
  member,
  body,
  action,
  onClose,
  onRemoved,
}: {
  member: { id: string; name: string } | null;
  body: string;
  action: ReturnType<typeof useAction>;
  onClose: () => void;
  onRemoved: () => void;
}) {
  return (
    <ConfirmDialog
      title={t('people.removeTitle', { name: member?.name ?? '' })}
      open={member !== null}
      onClose={onClose}
      confirm={t('people.remove')}
      action={action}
      request={() => api.call('DELETE /api/workspace/members/{id}', { params: { id: member?.id ?? '' } })}
      done={onRemoved}
    >
      <p>{body}</p>
    </ConfirmDialog>
  );
}
