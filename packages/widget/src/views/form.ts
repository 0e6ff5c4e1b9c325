import type { Answer, Endpoint } from '@svc/contract/endpoints';
import { h } from '../dom.js';

/** The value of a form's field, trimmed. */
export function field(form: HTMLFormElement, name: string): string {
  return (form.elements.namedItem(name) as HTMLInputElement | HTMLTextAreaElement).value.trim();
}

export function formError(form: HTMLFormElement, message: string): void {
  form.querySelector('.error')?.remove();
  form.append(h('p', { class: 'error', role: 'alert' }, message));
}

/**
 * Runs a form's request with its buttons disabled; shows the server's reason when it fails.
 * On success the form is cleared, so the re-render that follows does not bring the text back.
 */
export async function submit<E extends Endpoint>(
  form: HTMLFormElement | null,
  request: () => Promise<Answer<E>>,
): Promise<Answer<E> | null> {
  const buttons = form ? [...form.querySelectorAll('button')] : [];
  for (const button of buttons) button.disabled = true;
  try {
    const answer = await request();
    if (answer.ok) form?.reset();
    else if (form) {
      const problem = answer.data;
      formError(form, problem?.detail ?? problem?.title ?? 'That did not work. Please try again.');
    }
    return answer;
  } catch {
    if (form) formError(form, 'Could not reach the feedback server. Check your connection and try again.');
    return null;
  } finally {
    for (const button of buttons) if (button.isConnected) button.disabled = false;
  }
}
