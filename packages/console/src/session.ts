// Who is signed in: the `me` answer, loaded once from the stored token and dropped when the
// server refuses it.
import { signal } from '@preact/signals';
import type { Me, WorkspaceAbilities } from '@svc/contract';
import { api } from './api.js';
import { t } from './i18n.js';

export const me = signal<Me | null>(null);
/** False until the stored token has been checked. */
export const ready = signal(false);
/** Why the user is on the sign-in page, when it is not their choice. */
export const signedOutReason = signal('');

api.onUnauthorized = () => {
  if (!me.value) return;
  api.setToken(null);
  me.value = null;
  signedOutReason.value = t('session.ended');
};

export async function loadMe(): Promise<void> {
  if (api.token) {
    const answer = await api.call('GET /api/me', {}).catch(() => null);
    if (answer?.ok) me.value = answer.data;
    else if (answer?.status === 401) api.setToken(null);
  }
  ready.value = true;
}

/** Keeps a new session (sign-in, accepted invitation, completed reset) and loads who it is. */
export async function adoptSession(token: string): Promise<void> {
  api.setToken(token);
  signedOutReason.value = '';
  await loadMe();
}

export async function signOut(): Promise<void> {
  await api.call('POST /api/auth/logout', {}).catch(() => null);
  api.setToken(null);
  me.value = null;
}

/** Whether the server's policy lets the signed-in person do this in their workspace (served with `me`): screens ask this, never a role. */
export const may = (ability: keyof WorkspaceAbilities): boolean => me.value?.can[ability] ?? false;
