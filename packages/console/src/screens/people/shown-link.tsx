// A link just made (an invitation, a password reset, a client's access) is shown once, with a
// copy button: nothing is e-mailed.
import { t } from '../../i18n.js';
import { CopyBox, Dialog } from '../../ui.js';

/** A link just made, shown until dismissed. */
export interface ShownLink {
  title: string;
  label: string;
  url: string;
  note: string;
}

/** The link just made, to copy; closed by Done (or Esc). */
export function ShownLinkDialog({ link, onClose }: { link: ShownLink | null; onClose: () => void }) {
  return (
    <Dialog title={link?.title ?? ''} open={link !== null} onClose={onClose}>
      {link ? (
        <>
          <CopyBox label={link.label} text={link.url} />
          <p class="muted small">{t('people.shownOnce', { note: link.note })}</p>
          <button type="button" class="primary" onClick={onClose}>
            {t('keys.done')}
          </button>
        </>
      ) : null}
    </Dialog>
  );
}
