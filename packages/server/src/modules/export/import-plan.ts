import type { RateRules } from '../../limits/rules.js';
import type { ExportZip } from './import-zip.js';

// What an import carries from one part to the next: the plan its check makes for the writes,
// the report its writes fill, the progress it tells, and the sizes of its rounds.

/** Comments checked and written per round trip (and per transaction). */
export const BATCH = 200;

/** Rows per insert statement: well under either database's limit of bound parameters. */
export const ROWS_PER_INSERT = 1000;

export interface ImportReport {
  workspace: { id: string; name: string };
  /** Rows written, and rows skipped because their id was there already. */
  added: { projects: number; labels: number; users: number; comments: number; replies: number; events: number };
  present: { projects: number; labels: number; users: number; comments: number };
  /** People imported without their e-mail, another account of this server having it. */
  withoutEmail: string[];
  /** With the zip: its files written, and those already here. */
  pictures?: { added: { screenshots: number; images: number; replays: number }; present: number };
}

/** Where an import is: checking the file (nothing written yet), checking the zip's files, or writing them. */
export type ImportProgress = (phase: 'checked' | 'pictures' | 'written', count: number) => void;

/** The export's zip, and the rules its pictures are held to (the server's storage quota). */
export interface Pictures {
  zip: ExportZip;
  rules: RateRules;
}

/** What the check learnt that the writes need. */
export interface ImportPlan {
  workspace: { id: string; name: string };
  digest: string;
  /** The file's projects: key → id. */
  projectIds: Map<string, string>;
  /** The file's people: id → name, the name each mention of them shows. */
  names: Map<string, string>;
}
