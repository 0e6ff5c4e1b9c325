import path from 'node:path';
import { IMAGE_MAX_BYTES, REPLAY_MAX_BYTES, SCREENSHOT_MAX_BYTES } from '@svc/contract';
import yauzl from 'yauzl';
import { AppError } from '../../errors.js';
import { storableImage } from '../comments/image-store.js';
import { storableReplay } from '../comments/replays.js';
import { sizeText } from '../storage/quota.js';
import { ImportError } from './import-error.js';
import { EXTENSIONS } from './screenshots.js';

// The export's zip of screenshots, images and replays (screenshots.ts writes it) as an import
// reads it: its list of files first (the zip's central directory, a few bytes a file), each
// file's bytes only when the import reaches its comment, one at a time, so that memory holds
// one picture whatever their number. Each file is held to what an upload of it may be (its
// size, its type read from its bytes, its dimensions; a replay gzipped rrweb events) by the
// very checks uploads go through, and stored as an upload is (an image without metadata).

/** What a file of the zip is, by its name: `site/cmt_….png`, `site/cmt_….replay.json.gz`, `site/cmt_…/img_….jpg`. */
export type ZipFileKind = 'screenshot' | 'replay' | 'image';

export interface ZipPicture {
  name: string;
  kind: ZipFileKind;
  projectKey: string;
  commentId: string;
  /** The image's id (an image's file alone). */
  imageId: string | null;
  entry: yauzl.Entry;
}

/** Each kind's upload limit: the most bytes its route takes. */
const MOST_BYTES: Record<ZipFileKind, number> = {
  screenshot: SCREENSHOT_MAX_BYTES,
  image: IMAGE_MAX_BYTES,
  replay: REPLAY_MAX_BYTES,
};

const imageExtensions = [...new Set(Object.values(EXTENSIONS).filter((ext) => !ext.includes('.')))].join('|');
const KEY = '[a-z0-9-]{2,40}';
const COMMENT = 'cmt_[0-9A-Za-z]{1,60}';
const NAMES: [ZipFileKind, RegExp][] = [
  ['screenshot', new RegExp(`^(${KEY})/(${COMMENT})\\.(?:${imageExtensions})$`)],
  ['replay', new RegExp(`^(${KEY})/(${COMMENT})\\.replay\\.json\\.gz$`)],
  ['image', new RegExp(`^(${KEY})/(${COMMENT})/(img_[0-9A-Za-z]{1,60})\\.(?:${imageExtensions})$`)],
];

/** A picture's bytes as they are stored, and how they are served. */
export interface Storable {
  bytes: Buffer;
  contentType: string;
}

export class ExportZip {
  /** The comments of the file that the zip has files of, as the check meets them. */
  readonly matched = new Set<string>();

  private constructor(
    /** The zip's file name, which each refusal starts with. */
    readonly label: string,
    private readonly zip: yauzl.ZipFile,
    /** Every picture of the zip, by comment. */
    readonly byComment: Map<string, ZipPicture[]>,
    readonly count: number,
  ) {}

  /** Reads the zip's list of files; refuses one that is no zip, or holds a file no export's zip would. */
  static async open(file: string): Promise<ExportZip> {
    const label = path.basename(file);
    let zip: yauzl.ZipFile;
    try {
      zip = await yauzl.openPromise(file, { lazyEntries: true, autoClose: false, strictFileNames: true });
    } catch (error) {
      throw new ImportError(`${label} is not a zip archive (${(error as Error).message})`);
    }
    const byComment = new Map<string, ZipPicture[]>();
    const taken = new Map<string, string>();
    let count = 0;
    try {
      for await (const entry of zip.eachEntry()) {
        const name = entry.fileName;
        if (name.endsWith('/')) continue;
        const picture = pictureOf(name, entry);
        if (!picture) {
          throw new ImportError(
            `${label}: ${name} is not a file of an export's zip (<project key>/<comment id>.png, <project key>/<comment id>.replay.json.gz, <project key>/<comment id>/<image id>.png)`,
          );
        }
        // One screenshot and one replay a comment, one file an image, whatever their extension.
        const slot = `${picture.commentId}/${picture.imageId ?? picture.kind}`;
        const twin = taken.get(slot);
        if (twin) throw new ImportError(`${label}: ${name} and ${twin} are the same ${picture.kind}`);
        taken.set(slot, name);
        byComment.set(picture.commentId, [...(byComment.get(picture.commentId) ?? []), picture]);
        count += 1;
      }
    } catch (error) {
      zip.close();
      if (error instanceof ImportError) throw error;
      throw new ImportError(`${label} is not a whole zip archive (${(error as Error).message})`);
    }
    return new ExportZip(label, zip, byComment, count);
  }

  /**
   * The picture's bytes as they would be stored, held to its upload's checks; an ImportError
   * naming the file otherwise. Its size is read from the zip's list before its bytes are.
   */
  async storable(picture: ZipPicture): Promise<Storable> {
    const refuse = (why: string) => new ImportError(`${this.label}: ${picture.name}: ${why}`);
    const most = MOST_BYTES[picture.kind];
    if (picture.entry.uncompressedSize > most) {
      throw refuse(
        `a ${picture.kind} may be at most ${sizeText(most)}, as its upload may; this one is ${sizeText(picture.entry.uncompressedSize)}`,
      );
    }
    let bytes: Buffer;
    try {
      const chunks: Buffer[] = [];
      for await (const chunk of await this.zip.openReadStreamPromise(picture.entry)) chunks.push(chunk as Buffer);
      bytes = Buffer.concat(chunks);
    } catch (error) {
      throw refuse(`cannot be read from the archive (${(error as Error).message})`);
    }
    try {
      return picture.kind === 'replay'
        ? { bytes: storableReplay(bytes), contentType: 'application/gzip' }
        : storableImage(bytes);
    } catch (error) {
      if (error instanceof AppError) throw refuse(error.message);
      throw error;
    }
  }

  close() {
    this.zip.close();
  }
}

function pictureOf(name: string, entry: yauzl.Entry): ZipPicture | null {
  for (const [kind, pattern] of NAMES) {
    const match = pattern.exec(name);
    if (match?.[1] && match[2])
      return { name, kind, projectKey: match[1], commentId: match[2], imageId: match[3] ?? null, entry };
  }
  return null;
}
