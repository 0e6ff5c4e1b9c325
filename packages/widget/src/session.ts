// Who the widget speaks for and in which words: the sign-in (password, second factor, a
// client's link; the workspace's provider in sso-popup.ts, with the panel), the token, the
// person and their language. Every change is announced (see changes.ts); no DOM here.
import type { User, WorkspaceAbilities } from '@svc/contract';
import type { FetchApiClient } from '@svc/contract/fetch-client';
import type { Locale } from '@svc/contract/i18n';
import { type ProblemDocument, problemSentence } from '@svc/contract/vocabulary';
import { widgetApi } from './api.js';
import type { Announce, FieldsOf } from './changes.js';
import { type Words, wordsOf } from './i18n.js';

/** The embed's settings the session needs. */
export interface Embed {
  apiBase: string;
  projectKey: string;
  /** The embed's workspace id, when it names one: single sign-on is then found by it. */
  workspace: string | null;
}

export class Session {
  readonly api: FetchApiClient;
  readonly user: User | null = null;
  /** Shown above the sign-in form: why the user is signed out. */
  readonly notice: string = '';
  /** A sign-in waiting for its second factor (shown once, kept in memory only). */
  readonly challenge: string | null = null;
  /** The workspace's single sign-on, once asked (null: it has none). */
  readonly sso: { workspaceId: string; displayName: string } | null | undefined = undefined;
  /** What the person may do in the workspace, as the server's policy says (`GET /api/me`); null until read. */
  readonly can: WorkspaceAbilities | null = null;
  /** The workspace's default language, once read (`GET /api/me`). */
  readonly workspaceLocale: string | null | undefined = undefined;
  /** The language the widget speaks, and its words. */
  readonly i18n: Words = wordsOf('en');
  private beaconSent = false;

  constructor(
    readonly embed: Embed,
    private readonly announce: Announce,
  ) {
    this.api = widgetApi(embed.apiBase);
  }

  private set(patch: Partial<FieldsOf<Session>>): void {
    Object.assign(this, patch);
    this.announce('session');
  }

  /** Shows `notice` above the sign-in form. */
  tell(notice: string): void {
    this.set({ notice });
  }

  /** Speaks `words` from now on. */
  speak(words: Words): void {
    Object.assign(this, { i18n: words });
    this.announce('language');
  }

  /**
   * Why the server could not be reached, when it is because this page's origin is not allowed
   * (the browser hides that from a refused request): the origin, and where an admin allows it.
   * Null when the server cannot be reached at all, or says the origin is allowed.
   */
  async refusedOrigin(): Promise<{ origin: string; allowUrl: string } | null> {
    const { apiBase, projectKey } = this.embed;
    const url = `${apiBase}/api/widget/origin-check?project=${encodeURIComponent(projectKey)}`;
    const answer = await fetch(url).then(
      (response) => (response.ok ? (response.json() as Promise<{ origin: string | null; allowed: boolean }>) : null),
      () => null,
    );
    if (!answer || answer.allowed) return null;
    const origin = answer.origin ?? location.origin;
    const allowUrl = `${apiBase}/projects?edit=${encodeURIComponent(projectKey)}&origin=${encodeURIComponent(origin)}`;
    return { origin, allowUrl };
  }

  /** Signs in with the token of a client's link (`#svc_access=`), if the page was opened from one; false when refused. */
  async exchangeAccessLink(accessToken: string | null): Promise<boolean> {
    if (!accessToken) return true;
    const answer = await this.api.call('POST /api/auth/quick-access', { body: { accessToken } }).catch(() => null);
    if (answer?.ok) {
      this.api.setToken(answer.data.token);
      return true;
    }
    const refused = answer ? null : await this.refusedOrigin();
    this.tell(
      refused ? this.i18n.t('signIn.linkRefusedHere', { origin: refused.origin }) : this.i18n.t('signIn.linkInvalid'),
    );
    return false;
  }

  /** The signed-in user from a stored token, or null (a refused token is forgotten). */
  async resume(): Promise<User | null> {
    if (!this.api.token) return null;
    const me = await this.api.call('GET /api/me', {}).catch(() => null);
    if (me?.ok) {
      this.set({ workspaceLocale: me.data.workspace.defaultLocale, can: me.data.can });
      this.signedIn(me.data.user);
      this.sendBeacon();
      return me.data.user;
    }
    if (me?.status === 401) this.api.setToken(null);
    return null;
  }

  async signIn(email: string, password: string) {
    const answer = await this.api.call('POST /api/auth/login', { body: { email, password } });
    if (!answer.ok) return answer;
    if ('token' in answer.data) this.adopt(answer.data.token, answer.data.user);
    else if (answer.data.secondFactor === 'code') this.set({ challenge: answer.data.challenge });
    // Setting up an app takes a QR code and recovery codes to keep: the console's sign-in does it.
    else this.tell(this.i18n.t('signIn.setUpTwoFactor'));
    return answer;
  }

  /** Asks once whether this project's workspace signs in with its own provider. */
  async discoverSso(): Promise<void> {
    if (this.sso !== undefined) return;
    const { workspace, projectKey } = this.embed;
    const query = workspace ? { workspace } : { project: projectKey };
    const found = await this.api.call('GET /api/auth/sso', { query }).catch(() => null);
    this.set({ sso: found?.ok ? found.data : null });
  }

  /** The code of the authenticator app (or a recovery code), after a right password. */
  async answerSecondFactor(code: string) {
    const answer = await this.api.call('POST /api/auth/two-factor', {
      body: { challenge: this.challenge ?? '', code },
    });
    if (answer.ok) this.adopt(answer.data.token, answer.data.user);
    else if (answer.status === 401) {
      this.set({ challenge: null, notice: answer.data ? this.refusal(answer) : this.i18n.t('signIn.expired') });
    }
    return answer;
  }

  /** Signed in with `token` (a password and its second factor, a link, the workspace's provider). */
  adopt(token: string, user: User): void {
    this.api.setToken(token);
    this.signedIn(user);
    void this.readMe();
  }

  private signedIn(user: User): void {
    this.set({ user, notice: '', challenge: null });
  }

  /** Drops the token and the person, saying why (`notice`) when it is not their choice. */
  forget(notice = ''): void {
    this.api.setToken(null);
    this.set({ user: null, can: null, workspaceLocale: undefined, notice });
  }

  /** A refusal of the API as one sentence in the widget's language. */
  refusal(answer: { status: number; data?: ProblemDocument | null }): string {
    return problemSentence(answer.data ?? undefined, answer.status, this.i18n);
  }

  /** The person's own language (null: as the page or browser says), kept on their account. */
  async setLocale(locale: Locale | null) {
    const answer = await this.api.call('PATCH /api/me', { body: { locale } });
    if (answer.ok) this.set({ user: answer.data });
    return answer;
  }

  /** The workspace's default language, read when nothing before it in the order names one. */
  async readWorkspaceLocale(): Promise<string | null> {
    if (this.workspaceLocale === undefined && this.user) await this.readMe();
    return this.workspaceLocale ?? null;
  }

  /** Reads what the person may do, and the workspace's language, once a sign-in gave only who they are. */
  private async readMe(): Promise<void> {
    const me = await this.api.call('GET /api/me', {}).catch(() => null);
    this.set({ workspaceLocale: me?.ok ? me.data.workspace.defaultLocale : null, can: me?.ok ? me.data.can : null });
    this.sendBeacon();
  }

  /** Tells the server which build this page comes from, once per page load; never retried, never shown. Only those who may report builds try. */
  private sendBeacon(): void {
    const sha = document.documentElement.getAttribute('data-build-sha');
    if (!sha || this.beaconSent || !this.can?.reportBuilds) return;
    this.beaconSent = true;
    this.api
      .call('POST /api/projects/{key}/builds', {
        params: { key: this.embed.projectKey },
        body: { sha, containsCommitShas: [] },
      })
      .catch(() => {});
  }
}
