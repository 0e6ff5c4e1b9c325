import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  formatParts,
  LOCALES,
  messageArguments,
  PSEUDO_LOCALE,
  pickLocale,
  pseudoMessages,
  translator,
} from './i18n.js';
import { en } from './locales/en.js';

const catalogues = Object.fromEntries(
  await Promise.all(
    LOCALES.slice(1).map(async (locale) => [locale, (await import(`./locales/${locale}.js`)).messages]),
  ),
) as Record<string, Record<string, string>>;

test('every catalogue of the shared words holds every message English has, and no other', () => {
  for (const [locale, messages] of Object.entries(catalogues)) {
    assert.deepEqual(Object.keys(messages).sort(), Object.keys(en).sort(), locale);
  }
});

test('every message keeps the placeholders of its English one', () => {
  for (const [locale, messages] of Object.entries(catalogues)) {
    for (const [id, message] of Object.entries(en)) {
      // `vowel` chooses English's article (a/an): other languages have no use for it.
      const english = messageArguments(message).filter((name) => name !== 'vowel');
      const translated = messageArguments(messages[id] ?? '').filter((name) => name !== 'vowel');
      assert.deepEqual(translated, english, `${locale} ${id}`);
    }
  }
});

test('plurals: the six forms of Arabic, the one form of Japanese and Chinese, exact cases first', () => {
  const arabic = '{n, plural, zero {صفر} one {واحد} two {اثنان} few {# قليلة} many {# كثيرة} other {# أخرى}}';
  const say = (locale: string, message: string, n: number) => formatParts(locale, message, { n }).join('');
  assert.deepEqual(
    [0, 1, 2, 3, 11, 100].map((n) => say('ar', arabic, n)),
    ['صفر', 'واحد', 'اثنان', '3 قليلة', '11 كثيرة', '100 أخرى'].map((text) =>
      // Arabic writes its numbers as its locale says: the test reads them the same way.
      text.replace(/\d+/, (digits) => new Intl.NumberFormat('ar').format(Number(digits))),
    ),
  );
  const japanese = '{n, plural, =0 {なし} other {# 件}}';
  assert.deepEqual(
    [0, 1, 2, 5].map((n) => say('ja', japanese, n)),
    ['なし', '1 件', '2 件', '5 件'],
  );
  // English has two forms; a number is written the language's way.
  assert.equal(say('en', '{n, plural, one {# reply} other {# replies}}', 1), '1 reply');
  assert.equal(say('de', '{n, plural, one {# Antwort} other {# Antworten}}', 1200), '1.200 Antworten');
});

test('numbers: small whole ones written without a formatter read exactly as the formatter writes them, in every language', () => {
  for (const locale of [...LOCALES, PSEUDO_LOCALE]) {
    for (const n of [0, 1, 7, 42, 999, 1000, 12_345, 0.5, 2.75]) {
      assert.equal(
        formatParts(locale, '{n}', { n }).join(''),
        new Intl.NumberFormat(locale).format(n),
        `${locale} ${n}`,
      );
    }
  }
});

test('selects, placeholders that are elements, and an id without a message', () => {
  const t = translator('en', { a: '{who, select, none {Written} other {Written by {who}}}', b: 'Fixed in {link}.' });
  assert.equal(t.t('a', { who: 'none' }), 'Written');
  assert.equal(t.t('a', { who: 'Dana' }), 'Written by Dana');
  const link = { element: true };
  assert.deepEqual(t.parts('b', { link }), ['Fixed in ', link, '.']);
  assert.equal(t.t('missing' as 'a'), 'missing');
});

test('the language: the first wanted that the catalogues speak, by tag or by language', () => {
  assert.equal(pickLocale([null, undefined, '', 'de-AT', 'fr']), 'de');
  assert.equal(pickLocale(['pt-PT']), 'pt-BR');
  assert.equal(pickLocale(['zh-Hant-TW']), 'zh-CN');
  assert.equal(pickLocale(['ko', 'ar-EG']), 'ar');
  assert.equal(pickLocale(['ko']), null);
  assert.equal(translator('ar', en).dir, 'rtl');
  assert.equal(translator('ja', en).dir, 'ltr');
});

test('the pseudo-language accents the text, keeps placeholders and plurals working, and is 40% longer', () => {
  const pseudo = pseudoMessages({ m: 'You have {count, plural, one {# update} other {# updates}} from {name}' });
  const text = translator('en-XA', pseudo).t('m', { count: 2, name: 'Dana' });
  assert.match(text, /^⟦Yöü hávé 2 üpdátés fröm Dana·+⟧$/);
  assert.ok(text.length >= 'You have 2 updates from Dana'.length * 1.4);
});
