import type { Priority } from '@svc/contract';
import type { Locale } from '@svc/contract/i18n';
import type { ReplayState } from '../replay-keeper.js';
import type { StatusFilter } from '../store.js';
import type { Tab } from '../view-state.js';

/** What the views can ask of the widget; each re-renders and moves focus where the user expects. */
export interface Actions {
  close(): void;
  switchTab(tab: Tab): void;
  startPicking(): void;
  /** The welcome of a first visit was answered: by its first action (`pin`: start picking), or dismissed. */
  welcomed(pin: boolean): void;
  /** Move the comment's pin: pick its element again. */
  repin(id: string): void;
  signIn(form: HTMLFormElement, email: string, password: string): void;
  answerSecondFactor(form: HTMLFormElement, code: string): void;
  continueWithSso(): void;
  signOut(): void;
  /** The person's own language for the widget (null: as the page or browser says). */
  setLanguage(locale: Locale | null): void;
  openComment(id: string, pageUrl: string): void;
  setAllPages(all: boolean): void;
  setStatus(status: StatusFilter): void;
  /** The team's filter by who is on a comment: anyone (''), me, nobody. */
  setAssignee(assignee: '' | 'me' | 'none'): void;
  triage(id: string, action: 'archive' | 'reopen' | 'claim'): void;
  setPriority(id: string, priority: Priority): void;
  /** The workspace's labels the comment has from now on. */
  setLabels(id: string, labelIds: string[]): void;
  remove(id: string): void;
  setDeleting(id: string | null): void;
  showMore(): void;
  toggleReplies(id: string): void;
  toggleDetails(id: string): void;
  reply(form: HTMLFormElement, id: string, body: string): void;
  verify(form: HTMLFormElement | null, id: string, body: { ok: boolean; note?: string }): void;
  /** The comment's element as it is now on this page, cropped from a screenshot (its author's kept on the server); null when it is not here. */
  pictureNow(id: string): Promise<Blob | null>;
  /** Shows (true) or hides again what the author hid on their screenshot, in comment `id`'s picture of now and its verdict's. */
  uncover(id: string, shown: boolean): void;
  setRejecting(id: string | null): void;
  sendComment(form: HTMLFormElement, body: string, attachScreenshot: boolean): void;
  /** Whether the last moments are kept for comments now (see replay-keeper.ts). */
  replayState(): ReplayState;
  /** The reviewer turns replays off on this browser. */
  stopReplay(): void;
  /** And on again. */
  keepReplayAgain(): void;
  /** Takes the screenshot now and opens the markup on it (again: on the one marked up). */
  markUp(): void;
  /** Take the comment's screenshot again, after it could not be attached. */
  retryScreenshot(id: string): void;
  cancelDraft(): void;
}
