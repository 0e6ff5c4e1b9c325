import assert from 'node:assert/strict';
import { test } from 'node:test';
import { encodeMentions, insertMention, mentionedPeople, showMentions } from './mentions.js';

const lena = { id: 'usr_01JD2W6Y1KQ9V8E0P4T3M5R7XA', name: 'Lena Fischer' };
const ana = { id: 'usr_01JD2W6Y1KQ9V8E0P4T3M5R7XB', name: 'Ana' };

test('a mention chosen from the suggestions and followed by a typed space is sent with one space after it', () => {
  const typed = '@Le';
  const { text } = insertMention(typed, 0, typed.length, lena);
  assert.equal(text, '@Lena Fischer ', 'the suggestion puts a space after the name');
  assert.equal(encodeMentions(`${text} can you check?`, [lena]), `<@${lena.id}> can you check?`);
  assert.equal(encodeMentions('@Lena Fischer, and @Ana  too', [lena, ana]), `<@${lena.id}>, and <@${ana.id}> too`);
  assert.equal(encodeMentions('Ask @Lena Fischer', [lena]), `Ask <@${lena.id}>`);
});

test('whom a stored text mentions: each person once, in order, by the name it holds', () => {
  const stored = `<@${ana.id}|Ana> and <@${lena.id}|Lena Fischer>, again <@${ana.id}|Ana>`;
  assert.deepEqual(mentionedPeople(stored), [ana, lena]);
  assert.equal(showMentions(stored), '@Ana and @Lena Fischer, again @Ana');
  assert.deepEqual(mentionedPeople('@Ana typed by hand'), []);
});
