// The workspace's labels (admins): add one, rename it or change its colour in place, delete it
// (it comes off every comment). The team puts them on comments from the comment's page.
import type { Label, LabelColor } from '@svc/contract';
import { LABEL_COLORS } from '@svc/contract/rules';
import { useState } from 'preact/hooks';
import { api } from '../api.js';
import { LabelChips } from '../comment-pills.js';
import { t } from '../i18n.js';
import { Loading, useAction, useLoad } from '../loading.js';
import { ConfirmDialog, Field, FormError, PageTitle, TableHead } from '../ui.js';

function ColorSelect({
  value,
  onValue,
  label,
  id,
}: {
  value: LabelColor;
  onValue: (c: LabelColor) => void;
  /** Said to screen readers when no visible label names it (`id` given: one does). */
  label: string;
  id?: string;
}) {
  return (
    <select
      id={id}
      aria-label={id ? undefined : label}
      value={value}
      onChange={(e) => onValue((e.target as HTMLSelectElement).value as LabelColor)}
    >
      {LABEL_COLORS.map((color) => (
        <option key={color} value={color}>
          {t(`color.${color}`)}
        </option>
      ))}
    </select>
  );
}

export function Labels() {
  const labels = useLoad(() => api.call('GET /api/workspace/labels', {}), []);
  const action = useAction();
  const [name, setName] = useState('');
  const [color, setColor] = useState<LabelColor>('blue');
  const [deleting, setDeleting] = useState<Label | null>(null);
  return (
    <>
      <PageTitle>{t('nav.labels')}</PageTitle>
      <p class="muted">{t('labels.intro')}</p>
      <form
        class="card"
        onSubmit={async (event) => {
          event.preventDefault();
          const answer = await action.run(() => api.call('POST /api/workspace/labels', { body: { name, color } }));
          if (answer) {
            setName('');
            labels.reload();
          }
        }}
      >
        <Field label={t('labels.name')} required maxLength={40} value={name} onValue={setName} />
        <div class="field">
          <label for="new-label-color">{t('labels.color')}</label>
          <ColorSelect id="new-label-color" value={color} onValue={setColor} label={t('labels.color')} />
        </div>
        <FormError message={deleting ? '' : action.error} />
        <button class="primary" type="submit" disabled={action.pending}>
          {t('labels.add')}
        </button>
      </form>
      {labels.data ? null : <Loading error={labels.error} />}
      {labels.data && labels.data.items.length === 0 ? <p class="muted">{t('labels.empty')}</p> : null}
      {labels.data?.items.length ? (
        <div class="table-wrap">
          <table>
            <caption class="skip">{t('labels.caption')}</caption>
            <TableHead columns={[t('labels.name'), t('labels.color'), '']} />
            <tbody>
              {labels.data.items.map((label) => (
                <LabelRow
                  key={`${label.id}:${label.name}:${label.color}`}
                  label={label}
                  action={action}
                  saved={labels.reload}
                  onDelete={() => setDeleting(label)}
                />
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
      <ConfirmDialog
        title={t('labels.deleteTitle', { name: deleting?.name ?? '' })}
        open={deleting !== null}
        onClose={() => setDeleting(null)}
        confirm={t('labels.delete')}
        action={action}
        request={() => api.call('DELETE /api/workspace/labels/{id}', { params: { id: deleting?.id ?? '' } })}
        done={() => {
          setDeleting(null);
          labels.reload();
        }}
      >
        <p>{t('labels.deleteBody')}</p>
      </ConfirmDialog>
    </>
  );
}

/** One label, its name and colour editable in place; Save sends what changed. */
function LabelRow({
  label,
  action,
  saved,
  onDelete,
}: {
  label: Label;
  action: ReturnType<typeof useAction>;
  saved: () => void;
  onDelete: () => void;
}) {
  const [name, setName] = useState(label.name);
  const [color, setColor] = useState<LabelColor>(label.color);
  const changed = name.trim() !== label.name || color !== label.color;
  return (
    <tr>
      <td class="wrap">
        <input
          aria-label={t('labels.name')}
          maxLength={40}
          value={name}
          onInput={(e) => setName((e.target as HTMLInputElement).value)}
        />
        <div style="margin-top:4px">
          <LabelChips labels={[{ ...label, name: name.trim() || label.name, color }]} />
        </div>
      </td>
      <td>
        <ColorSelect value={color} onValue={setColor} label={t('labels.color')} />
      </td>
      <td>
        <div class="row">
          <button
            type="button"
            disabled={!changed || action.pending}
            onClick={async () => {
              const body = {
                ...(name.trim() !== label.name ? { name } : {}),
                ...(color !== label.color ? { color } : {}),
              };
              if (
                await action.run(() => api.call('PATCH /api/workspace/labels/{id}', { params: { id: label.id }, body }))
              )
                saved();
            }}
          >
            {t('labels.save')}
          </button>
          <button type="button" class="danger" onClick={onDelete}>
            {t('labels.delete')}
          </button>
        </div>
      </td>
    </tr>
  );
}
