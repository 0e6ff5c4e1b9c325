// Comments' screenshots: taken and attached after a comment is sent (or again, when that
// failed), and fetched with the session's token to be shown on the cards.
import { ScreenshotTooSlow } from './screenshot-budget.js';
import type { Session } from './session.js';

export class Screenshots {
  /** Object URLs of the screenshots fetched, by comment. */
  private readonly urls = new Map<string, Promise<string | null>>();

  constructor(private readonly session: Session) {}

  /** Takes a screenshot and attaches it to comment `id`: null once attached, else why not (too slow on this page, not taken, not stored). */
  async attach(id: string, take: () => Promise<Blob>): Promise<string | null> {
    const { t } = this.session.i18n;
    let image: Blob;
    try {
      image = await take();
    } catch (error) {
      return error instanceof ScreenshotTooSlow ? t('screenshot.tooSlow') : t('screenshot.notTaken');
    }
    const stored = await this.session.api
      .call('PUT /api/comments/{id}/screenshot', { params: { id }, body: image })
      .catch(() => null);
    if (!stored?.ok) return t('screenshot.notStored');
    this.urls.delete(id);
    return null;
  }

  /** The comment's screenshot as an object URL, fetched once with the session's token. */
  urlOf(id: string): Promise<string | null> {
    let url = this.urls.get(id);
    if (!url) {
      url = this.session.api
        .blob(`/api/comments/${encodeURIComponent(id)}/screenshot`)
        .then((blob) => (blob ? URL.createObjectURL(blob) : null));
      this.urls.set(id, url);
    }
    return url;
  }
}
