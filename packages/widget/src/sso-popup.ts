// Signing in through the workspace's provider, in a popup: part of the panel's chunk, as the
// panel's sign-in is the only way to start it.
import type { Session } from './session.js';

/** A single sign-on's answer through its popup: a one-time code, or why it failed. */
type SsoAnswer = { code?: string | null; error?: string | null } | null;

/**
 * Signs `session` in through the workspace's provider in `popup` (opened by the click, so that
 * no blocker stops it): the provider's pages there, then the server's last page hands this
 * page a one-time code (a message from the API's origin only), traded for a session here.
 * Null once signed in, else why not.
 */
export async function signInWithSso(session: Session, popup: Window): Promise<string | null> {
  const { api, i18n } = session;
  const started = await api.call('POST /api/auth/sso/start', {
    body: { workspace: session.sso?.workspaceId ?? '' },
  });
  if (!started.ok) {
    popup.close();
    return started.data ? session.refusal(started) : i18n.t('signIn.ssoNotStarted');
  }
  popup.location.href = started.data.url;
  const answer = await ssoAnswer(new URL(session.embed.apiBase).origin, popup);
  if (!answer) return i18n.t('signIn.popupClosed');
  if (answer.error) return i18n.t('signIn.ssoFailedBecause', { reason: answer.error });
  if (!answer.code) return i18n.t('signIn.ssoFailed');
  const signedIn = await api.call('POST /api/auth/sso/exchange', {
    body: { code: answer.code, binding: started.data.binding },
  });
  if (!signedIn.ok) return signedIn.data ? session.refusal(signedIn) : i18n.t('signIn.ssoFailed');
  session.adopt(signedIn.data.token, signedIn.data.user);
  return null;
}

/** What the popup's last page says (from `apiOrigin` only); null when it was closed first. */
function ssoAnswer(apiOrigin: string, popup: Window): Promise<SsoAnswer> {
  return new Promise((resolve) => {
    const heard = (event: MessageEvent) => {
      if (event.origin !== apiOrigin || event.source !== popup || event.data?.type !== 'svc-sso') return;
      done(event.data);
    };
    // Closed without an answer: nothing to wait for.
    const watch = setInterval(() => popup.closed && done(null), 500);
    const done = (value: SsoAnswer) => {
      clearInterval(watch);
      removeEventListener('message', heard);
      resolve(value);
    };
    addEventListener('message', heard);
  });
}
