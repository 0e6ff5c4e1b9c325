import assert from 'node:assert/strict';
import { test } from 'node:test';
import { problemSentence } from './vocabulary.js';

test('a refusal is said once: a detail that names its field is not followed by the field again', () => {
  const message = 'is one of the most commonly used passwords; choose another';
  assert.equal(
    problemSentence({ detail: `/password ${message}`, errors: [{ path: '/password', message }], status: 400 }, 400),
    `password ${message}`,
  );
  assert.equal(
    problemSentence(
      { detail: 'The body is not valid.', errors: [{ path: '/name', message: 'must not be blank' }] },
      400,
    ),
    'The body is not valid. (name must not be blank)',
  );
  assert.equal(problemSentence(undefined, 502), 'The server answered 502.');
  assert.equal(problemSentence({ title: 'Conflict' }, 409), 'Conflict');
});
