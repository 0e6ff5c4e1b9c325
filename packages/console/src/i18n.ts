// The console's words and the language it speaks: the person's own choice (Account), else the
// browser's languages, else the workspace's default, else English. English travels with the
// console; each other language is a chunk loaded when someone reads it. Components read the
// words through `t`, a signal: a change of language redraws them, without a reload.
import { signal } from '@preact/signals';
import {
  type Locale,
  type Messages,
  PSEUDO_LOCALE,
  pickLocale,
  pseudoMessages,
  translator,
  type Values,
} from '@svc/contract/i18n';
import { en as shared, type VocabularyId } from '@svc/contract/locales/en';
import type { ComponentChildren } from 'preact';
import { type ConsoleMessageId, en } from './locales/en.js';

export type MessageId = ConsoleMessageId | VocabularyId;

const english: Messages = { ...shared, ...en };
const words = signal(translator('en', english));

/** A message in the console's language. */
export const t = (id: MessageId, values?: Values): string => words.value.t(id, values);
/** A message whose values include elements (a link, a code), as parts to render. */
export const tx = (id: MessageId, values: Values<ComponentChildren>): ComponentChildren[] =>
  words.value.parts<ComponentChildren>(id, values);
/** What the shared words (states, timeline, refusals) are given to speak the console's language. */
export const speaker = () => ({
  locale: words.value.locale,
  t: words.value.t as (id: string, values?: Values) => string,
});
/** The language `Intl` writes times and numbers in (English for the pseudo-language). */
export const intlLocale = () => (words.value.locale === PSEUDO_LOCALE ? 'en' : words.value.locale);

/** Each language but English: its catalogues, the shared words and the console's, as a chunk. */
const CHUNKS: Record<Exclude<Locale, 'en'>, () => Promise<{ messages: Messages; shared: Messages }>> = {
  de: () => import('./locales/de.js'),
  fr: () => import('./locales/fr.js'),
  es: () => import('./locales/es.js'),
  'pt-BR': () => import('./locales/pt-BR.js'),
  it: () => import('./locales/it.js'),
  nl: () => import('./locales/nl.js'),
  ja: () => import('./locales/ja.js'),
  'zh-CN': () => import('./locales/zh-CN.js'),
  ar: () => import('./locales/ar.js'),
};

let asked = 0;
/** The pseudo-language, asked for by the address the console was opened at: it stays for the visit. */
const PSEUDO = new URLSearchParams(window.location.search).get('locale') === PSEUDO_LOCALE;

/**
 * Speaks the first language of `wanted` the catalogues have (English when none): its chunk
 * loaded first, then the whole console drawn again in it, right to left where it is written so.
 * The pseudo-language of the tests (`?locale=en-XA` on any page) comes first when asked for.
 */
export async function speak(wanted: readonly (string | null | undefined)[]): Promise<void> {
  const mine = ++asked;
  const locale = PSEUDO ? PSEUDO_LOCALE : (pickLocale(wanted) ?? 'en');
  // Read without subscribing: the effect that calls this follows who is signed in, not the words.
  if (locale === words.peek().locale) return;
  let messages: Messages = {};
  if (locale === PSEUDO_LOCALE) messages = pseudoMessages(english);
  else if (locale !== 'en') {
    const chunk = await CHUNKS[locale as Exclude<Locale, 'en'>]().catch(() => null);
    if (!chunk) return;
    messages = { ...chunk.shared, ...chunk.messages };
  }
  if (mine !== asked) return;
  const next = translator(locale, english, messages);
  document.documentElement.lang = locale;
  document.documentElement.dir = next.dir;
  words.value = next;
}
