// The language of a page the server writes itself (the extension's page, the single sign-on
// popup's last page), chosen as the console chooses its own (`pickLocale`): the one the address
// asks for (`?locale=`, which the console's links carry: the person's own setting), else the
// browser's, in the order of its Accept-Language, else English. (Not the tests' pseudo-language:
// these pages' messages hold markup, which it would accent.)
import { isLocale, type Locale, type Messages, pickLocale, type Translation, translator } from '@svc/contract/i18n';
import type { FastifyRequest } from 'fastify';

/** The languages of an Accept-Language header, most wanted first ("de-CH, fr;q=0.8, *;q=0.1" → de-CH, fr); none refused (q=0). */
export function acceptedLanguages(header: string | undefined): string[] {
  return (header ?? '')
    .split(',')
    .map((part, order) => {
      const [tag = '', ...params] = part.trim().split(';');
      const q = params.map((p) => /^\s*q=([\d.]+)\s*$/.exec(p)?.[1]).find((value) => value !== undefined);
      return { tag: tag.trim(), weight: q === undefined ? 1 : Number(q), order };
    })
    .filter(({ tag, weight }) => tag && tag !== '*' && weight > 0)
    .sort((a, b) => b.weight - a.weight || a.order - b.order)
    .map(({ tag }) => tag);
}

/** The language a request for a page asks for (see above). */
export function pageLocale(request: FastifyRequest): Locale {
  const asked = (request.query as { locale?: unknown } | undefined)?.locale;
  const locale = pickLocale([
    typeof asked === 'string' ? asked : null,
    ...acceptedLanguages(request.headers['accept-language']),
  ]);
  return isLocale(locale) ? locale : 'en';
}

/** A page's words in the language `request` asks for: its English and their translations. */
export function pageWords<T extends Messages>(
  request: FastifyRequest,
  english: T,
  translations: Record<Exclude<Locale, 'en'>, Translation<T>>,
) {
  const locale = pageLocale(request);
  return translator(locale, english, locale === 'en' ? {} : translations[locale]);
}
export type PageWords<T extends Messages> = ReturnType<typeof pageWords<T>>;

/** Text for an HTML element or attribute of such a page (a request's Host, a provider's words): never markup. */
export const htmlText = (text: string) => text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
