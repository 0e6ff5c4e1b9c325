// The images the widget holds, as object URLs: comments' screenshots (taken and attached after
// a comment is sent, or again when that failed) and a thread's images, fetched with the
// session's token; and the pictures made on this page (a screenshot cropped around its element,
// the element as it is now), each made once, and kept with their comment when asked.
import { tookTooLong } from './screenshot-budget.js';
import type { Session } from './session.js';

/** A picture made on this page, with its object URL. */
export interface Picture {
  blob: Blob;
  url: string;
}

/** Where comment `id`'s screenshot is read and stored. */
export const screenshotPath = (id: string) => `/api/comments/${encodeURIComponent(id)}/screenshot`;

export class Images {
  /** Object URLs of the images fetched, by path. */
  private readonly urls = new Map<string, Promise<string | null>>();
  /** The pictures made on this page, by what they show. */
  private readonly pictures = new Map<string, Promise<Picture | null>>();

  constructor(private readonly session: Session) {}

  /** Takes a screenshot and attaches it to comment `id`: null once attached, else why not (too slow on this page, not taken, not stored). */
  async attach(id: string, take: () => Promise<Blob>): Promise<string | null> {
    const { t } = this.session.i18n;
    let image: Blob;
    try {
      image = await take();
    } catch (error) {
      return tookTooLong(error) ? t('screenshot.tooSlow') : t('screenshot.notTaken');
    }
    const stored = await this.session.api
      .call('PUT /api/comments/{id}/screenshot', { params: { id }, body: image })
      .catch(() => null);
    if (!stored?.ok) return t('screenshot.notStored');
    this.urls.delete(screenshotPath(id));
    return null;
  }

  /**
   * Keeps a picture of the comment's element with it: `now`, the author's while its fix waits;
   * `verdict`, with the verdict just given. Best effort: the verdict stands without it.
   */
  async keep(id: string, of: 'now' | 'verdict', picture: Blob): Promise<void> {
    const query = of === 'now' ? { now: true } : { verdict: true };
    await this.session.api
      .call('POST /api/comments/{id}/images', { params: { id }, query, body: picture })
      .catch(() => null);
  }

  /** The image at `path` of the API as an object URL, fetched once with the session's token. */
  urlOf(path: string): Promise<string | null> {
    let url = this.urls.get(path);
    if (!url) {
      url = this.session.api.blob(path).then((blob) => (blob ? URL.createObjectURL(blob) : null));
      this.urls.set(path, url);
    }
    return url;
  }

  /** The picture `key` names, made once by `make` (null when it could not be). */
  picture(key: string, make: () => Promise<Blob | null>): Promise<Picture | null> {
    let made = this.pictures.get(key);
    if (!made) {
      made = make()
        .catch(() => null)
        .then((blob) => (blob ? { blob, url: URL.createObjectURL(blob) } : null));
      this.pictures.set(key, made);
    }
    return made;
  }

  /** The picture `key` names, if it was made. */
  made(key: string): Promise<Picture | null> | undefined {
    return this.pictures.get(key);
  }

  /** Forgets the picture `key` names: made again when next asked. */
  forgetPicture(key: string): void {
    this.pictures.delete(key);
  }
}
