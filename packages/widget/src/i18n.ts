// The widget's words. Which language it speaks: the person's own choice (their account), else
// the site's (`data-locale`), else the browser's languages, else the workspace's default, else
// English (Widget.speak). English travels with the widget (the first load's words in widget.js,
// the panel's in its chunk); another language is a chunk of its own, loaded when someone reads it.
import { type Messages, translator, type Values } from '@svc/contract/i18n';
import type { VocabularyId } from '@svc/contract/locales/en';
import { enFirstLoad, type WidgetMessageId } from './locales/en.js';

export type MessageId = WidgetMessageId | VocabularyId;

/** What the views are given: the text of a message, or its parts with elements in their places. */
export interface Words {
  locale: string;
  dir: 'ltr' | 'rtl';
  t(id: MessageId, values?: Values): string;
  parts(id: MessageId, values: Values<Node>): (string | Node)[];
}

/** English as far as it is loaded: the first load's words, and the panel's once its chunk is here. */
const english: Messages = { ...enFirstLoad };

/** The panel's chunk adds its English words. */
export function addEnglish(messages: Messages): void {
  Object.assign(english, messages);
}

/** The words of `locale`, its messages given (none for English); English where one is missing. */
export function wordsOf(locale: string, messages: Messages = {}): Words {
  const { t, parts, dir } = translator(locale, english, messages);
  return { locale, dir, t, parts: (id, values) => parts<Node>(id, values) };
}
