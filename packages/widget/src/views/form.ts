import type { Answer, Endpoint } from '@svc/contract/endpoints';
import { problemSentence } from '@svc/contract/vocabulary';
import { h } from '../dom.js';
import type { Words } from '../i18n.js';

/** The value of a form's field, trimmed. */
export function field(form: HTMLFormElement, name: string): string {
  return (form.elements.namedItem(name) as HTMLInputElement | HTMLTextAreaElement).value.trim();
}

export function formError(form: HTMLFormElement, ...message: (string | Node)[]): void {
  form.querySelector('.error')?.remove();
  form.append(h('p', { class: 'error', role: 'alert' }, ...message));
}

/** Says what a form's request is doing now (read out by screen readers). */
export function formStatus(form: HTMLFormElement, message: string): void {
  form.querySelector('.status')?.remove();
  form.append(h('p', { class: 'status muted', role: 'status' }, message));
}

/** What a request that did not reach the server is told: this page not allowed, or no connection. */
export type Unreachable = () => Promise<{ origin: string; allowUrl: string } | null>;

/**
 * Runs a form's request with its buttons disabled; shows the server's reason when it fails.
 * On success the form is cleared, so the re-render that follows does not bring the text back.
 */
export async function submit<E extends Endpoint>(
  form: HTMLFormElement | null,
  request: () => Promise<Answer<E>>,
  words: Words,
  unreachable?: Unreachable,
): Promise<Answer<E> | null> {
  const buttons = form ? [...form.querySelectorAll('button')] : [];
  for (const button of buttons) button.disabled = true;
  try {
    const answer = await request();
    if (answer.ok) form?.reset();
    else if (form) {
      formError(form, problemSentence(answer.data, answer.status, words));
    }
    return answer;
  } catch {
    const refused = await unreachable?.();
    if (form && refused) {
      const link = h(
        'a',
        { href: refused.allowUrl, target: '_blank', rel: 'noopener noreferrer' },
        words.t('request.originRefusedLink'),
      );
      formError(form, ...words.parts('request.originRefused', { origin: refused.origin, link }));
    } else if (form) formError(form, words.t('request.unreachable'));
    return null;
  } finally {
    for (const button of buttons) if (button.isConnected) button.disabled = false;
  }
}
