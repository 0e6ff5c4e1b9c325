// The languages the widget and the console speak, and how a message of their catalogues becomes
// text: `{name}` placeholders, ICU-style plurals (`{count, plural, one {# update} other {#
// updates}}`, plural categories from `Intl.PluralRules`, `=0`-style exact cases first) and
// selects (`{via, select, mcp {through an agent} other {}}`): the subset the catalogues use, in
// a few hundred bytes, as the widget's first load has no room for a full ICU library. Free of
// schema code, so bundles stay small.

/** The languages of the catalogues, English first (the fallback of every other). */
export const LOCALES = ['en', 'de', 'fr', 'es', 'pt-BR', 'it', 'nl', 'ja', 'zh-CN', 'ar'] as const;
export type Locale = (typeof LOCALES)[number];

/** Each language in its own words, for a language menu. */
export const LOCALE_NAMES: Record<Locale, string> = {
  en: 'English',
  de: 'Deutsch',
  fr: 'Français',
  es: 'Español',
  'pt-BR': 'Português (Brasil)',
  it: 'Italiano',
  nl: 'Nederlands',
  ja: '日本語',
  'zh-CN': '简体中文',
  ar: 'العربية',
};

/**
 * A pseudo-language for tests: every English message accented, 40% longer and bracketed
 * (⟦…⟧), so that text no catalogue gave, and text that overflows its box, show.
 */
export const PSEUDO_LOCALE = 'en-XA';

/** A catalogue: message ids to messages. */
export type Messages = Record<string, string>;
/** The same ids as `T`, every one of them: what a translation of an English catalogue must hold. */
export type Translation<T extends Messages> = { [K in keyof T]: string };

export const isLocale = (value: unknown): value is Locale => LOCALES.includes(value as Locale);

export const direction = (locale: string): 'rtl' | 'ltr' => (/^(ar|he|fa|ur)\b/.test(locale) ? 'rtl' : 'ltr');

/**
 * The first of `wanted` (a person's choice, a page's setting, the browser's languages… in that
 * order; empty ones skipped) that the catalogues speak: the tag as it is ("pt-BR"), else its
 * language alone ("de-AT" → de, "pt-PT" → pt-BR, "zh-TW" → zh-CN). Null when none is.
 */
export function pickLocale(wanted: readonly (string | null | undefined)[]): Locale | null {
  for (const tag of wanted) {
    if (!tag) continue;
    if (tag === PSEUDO_LOCALE) return tag as Locale;
    const exact = LOCALES.find((locale) => locale.toLowerCase() === tag.toLowerCase());
    if (exact) return exact;
    const language = tag.split(/[-_]/)[0]?.toLowerCase();
    const same = LOCALES.find((locale) => locale.split('-')[0] === language);
    if (same) return same;
  }
  return null;
}

type Part = string | { name: string } | { name: string; select: boolean; cases: Record<string, Part[]> };

/** A message read into its parts: text, `{name}`, and plurals with their cases. */
function parse(message: string, at = { i: 0 }, inCase = false): Part[] {
  const parts: Part[] = [];
  let text = '';
  while (at.i < message.length) {
    const c = message[at.i++] as string;
    if (c === '}' && inCase) break;
    if (c !== '{') {
      text += c;
      continue;
    }
    if (text) parts.push(text);
    text = '';
    let name = '';
    while (at.i < message.length && message[at.i] !== ',' && message[at.i] !== '}') name += message[at.i++];
    name = name.trim();
    if (message[at.i++] === '}') {
      parts.push({ name });
      continue;
    }
    // "{count, plural, one {…} other {…}}", "{via, select, mcp {…} other {…}}"
    const comma = message.indexOf(',', at.i);
    const select = message.slice(at.i, comma).trim() === 'select';
    at.i = comma + 1;
    const cases: Record<string, Part[]> = {};
    for (;;) {
      while (message[at.i] === ' ') at.i++;
      if (message[at.i] === '}' || at.i >= message.length) break;
      const open = message.indexOf('{', at.i);
      const key = message.slice(at.i, open).trim();
      at.i = open + 1;
      cases[key] = parse(message, at, true);
    }
    at.i++;
    parts.push({ name, select, cases });
  }
  if (text) parts.push(text);
  return parts;
}

/** The names of a message's placeholders, plurals and selects included (for the catalogues' checks). */
export function messageArguments(message: string): string[] {
  const names = new Set<string>();
  const walk = (parts: Part[]) => {
    for (const part of parts) {
      if (typeof part === 'string') continue;
      names.add(part.name);
      if ('cases' in part) for (const value of Object.values(part.cases)) walk(value);
    }
  };
  walk(parse(message));
  return [...names].sort();
}

export type Values<T = never> = Record<string, string | number | T>;

/**
 * A message with its values, as parts: text, and each value that is not text or a number as
 * it is (an element, for a message that holds a link). Numbers are written the language's
 * way; `#` in a plural's case is its number.
 */
export function formatParts<T = never>(locale: string, message: string, values: Values<T> = {}): (string | T)[] {
  const out: (string | T)[] = [];
  const walk = (parts: Part[], count: number | null) => {
    for (const part of parts) {
      if (typeof part === 'string') {
        const chunks = count === null ? [part] : part.split('#');
        chunks.forEach((chunk, i) => {
          if (i > 0) out.push(writeNumber(locale, count as number));
          if (chunk) out.push(chunk);
        });
      } else if ('cases' in part && part.select) {
        walk(part.cases[String(values[part.name])] ?? part.cases.other ?? [], count);
      } else if ('cases' in part) {
        const n = Number(values[part.name] ?? 0);
        const category = pluralRules(locale).select(n);
        walk(part.cases[`=${n}`] ?? part.cases[category] ?? part.cases.other ?? [], n);
      } else {
        const value = values[part.name];
        out.push(
          typeof value === 'number' ? writeNumber(locale, value) : value === undefined ? `{${part.name}}` : value,
        );
      }
    }
  };
  walk(parse(message), null);
  return out;
}

/** `make(locale)`, made once per language: Intl's formatters and rules are slow to build. */
function perLocale<T>(make: (locale: string) => T): (locale: string) => T {
  const made = new Map<string, T>();
  return (locale) => made.get(locale) ?? (made.set(locale, make(locale)).get(locale) as T);
}

const numberFormat = perLocale((locale) => new Intl.NumberFormat(locale));

/**
 * A number written the language's way. A whole number under 1,000 is written as it is in a
 * language written left to right (those of right to left may use digits of their own, as
 * Arabic's ٠–٩): there is no separator to place, and building the first formatter costs the
 * host page about 20 ms, which a widget saying "3 unread" need not spend.
 */
const writeNumber = (locale: string, n: number) =>
  n >= 0 && n < 1000 && n % 1 === 0 && direction(locale) === 'ltr' ? String(n) : numberFormat(locale).format(n);

const pluralRules = perLocale((locale) => new Intl.PluralRules(locale));

/** A message as text. */
export function format(locale: string, message: string, values?: Values): string {
  return formatParts(locale, message, values).join('');
}

/** A function that gives a catalogue's message by its id, with its values (the id itself when it has none). */
export type Translate<Id extends string = string> = (id: Id, values?: Values) => string;

/** What the apps show in `locale`: its messages, each missing one in English. */
export function translator<T extends Messages>(locale: string, english: T, messages: Partial<Translation<T>> = {}) {
  const parts = <V>(id: keyof T & string, values?: Values<V>): (string | V)[] => {
    const message = messages[id] ?? english[id];
    return message === undefined ? [id] : formatParts<V>(locale, message as string, values);
  };
  const t = (id: keyof T & string, values?: Values) => parts<never>(id, values).join('');
  return { locale, dir: direction(locale), t, parts };
}
export type Translator<T extends Messages> = ReturnType<typeof translator<T>>;

/**
 * The pseudo-language's catalogue from English: the text of each message accented, 40% longer
 * and bracketed (⟦…⟧), its placeholders and plural cases kept.
 */
export function pseudoMessages(english: Messages): Messages {
  const write = (parts: Part[]): string =>
    parts
      .map((part) => {
        if (typeof part === 'string') return part.replace(/[aeiouycnAEIOUCN]/g, (c) => ACCENTS[c] ?? c);
        if (!('cases' in part)) return `{${part.name}}`;
        const cases = Object.entries(part.cases).map(([key, value]) => `${key} {${write(value)}}`);
        return `{${part.name}, ${part.select ? 'select' : 'plural'}, ${cases.join(' ')}}`;
      })
      .join('');
  return Object.fromEntries(
    Object.entries(english).map(([id, message]) => [
      id,
      `⟦${write(parse(message))}${'·'.repeat(Math.ceil(message.length * 0.4))}⟧`,
    ]),
  );
}

const ACCENTS: Record<string, string> = {
  a: 'á',
  e: 'é',
  i: 'í',
  o: 'ö',
  u: 'ü',
  c: 'ç',
  n: 'ñ',
  y: 'ý',
  A: 'Å',
  E: 'É',
  I: 'Î',
  O: 'Ø',
  U: 'Û',
  C: 'Ç',
  N: 'Ñ',
};
