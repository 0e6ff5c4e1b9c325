// The console's API client. The session token lives in localStorage: the API takes bearer
// tokens only (no cookies, so no cross-site request can carry it), and the console's strict
// Content-Security-Policy (scripts from this origin only, no inline code) is what keeps other
// scripts from reading it. Signing out, or the server refusing it, removes it.
import type { Answer, Endpoint } from '@svc/contract/endpoints';
import { FetchApiClient } from '@svc/contract/fetch-client';
import { problemSentence } from '@svc/contract/vocabulary';
import { speaker, t } from './i18n.js';

function storage(): Storage | undefined {
  try {
    return localStorage;
  } catch {
    return undefined;
  }
}

export const api = new FetchApiClient('', 'svc:console:token', storage());

/** The reason a refused call gives, for a form or a notice. */
export function problemText(answer: Answer<Endpoint> | null): string {
  if (!answer) return t('api.unreachable');
  return problemSentence(answer.ok ? undefined : answer.data, answer.status, speaker());
}
