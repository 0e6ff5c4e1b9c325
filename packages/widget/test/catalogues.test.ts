// The widget's catalogues: each language holds every message English has, with the same
// placeholders, and a button's label read aloud holds the words shown on it.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { LOCALES, messageArguments } from '@svc/contract/i18n';
import { enVocabulary } from '@svc/contract/locales/en';
import { enFirstLoad, enPanel } from '../src/locales/en.js';

const english: Record<string, string> = { ...enFirstLoad, ...enPanel };
// The shared words are the shared catalogue's (its own test checks them).
for (const id of Object.keys(english)) if (id in enVocabulary || id.startsWith('problem.')) delete english[id];

const catalogues = await Promise.all(
  LOCALES.slice(1).map(async (locale) => ({
    locale,
    messages: (await import(`../src/locales/${locale}.ts`)).messages as Record<string, string>,
  })),
);

test('every catalogue of the widget holds every message English has, and no other', () => {
  for (const { locale, messages } of catalogues) {
    assert.deepEqual(Object.keys(messages).sort(), Object.keys(english).sort(), locale);
  }
});

test('every message keeps the placeholders, plurals and selects of its English one', () => {
  for (const { locale, messages } of catalogues) {
    for (const [id, message] of Object.entries(english)) {
      assert.deepEqual(messageArguments(messages[id] ?? ''), messageArguments(message), `${locale} ${id}`);
    }
  }
});

test('the “+ New” button’s label read aloud holds the words it shows (WCAG label in name)', () => {
  for (const { locale, messages } of [{ locale: 'en', messages: english }, ...catalogues]) {
    const shown = (messages['panel.new'] ?? '').replace(/^\+\s*/, '');
    assert.ok(
      (messages['panel.newLabel'] ?? '').includes(shown),
      `${locale}: “${messages['panel.newLabel']}” holds “${shown}”`,
    );
  }
});
