import assert from 'node:assert/strict';
import { test } from 'node:test';
import { translator } from './i18n.js';
import { en } from './locales/en.js';
import { messages as fr } from './locales/fr.js';
import {
  fixStory,
  problemSentence,
  type StateFields,
  statePills,
  type TimelineFields,
  timelineSentence,
} from './vocabulary.js';

const english = translator('en', en);
const french = translator('fr', en, fr);

test('a refusal is said once: a detail that names its field is not followed by the field again', () => {
  const message = 'is one of the most commonly used passwords; choose another';
  assert.equal(
    problemSentence(
      { detail: `/password ${message}`, errors: [{ path: '/password', message }], status: 400 },
      400,
      english,
    ),
    `password ${message}`,
  );
  assert.equal(
    problemSentence(
      { detail: 'The body is not valid.', errors: [{ path: '/name', message: 'must not be blank' }] },
      400,
      english,
    ),
    'The body is not valid. (name must not be blank)',
  );
  assert.equal(problemSentence(undefined, 502, english), 'The server answered 502.');
  assert.equal(problemSentence({ title: 'Conflict' }, 409, english), 'Conflict');
});

test('in another language a refusal is the message of its code, its field and rule in that language', () => {
  assert.equal(
    problemSentence(
      {
        code: 'validation_failed',
        detail: '/body must NOT have more than 5000 characters',
        errors: [{ path: '/body', message: 'must NOT have more than 5000 characters', rule: 'maxLength' }],
      },
      400,
      french,
    ),
    'Un élément du formulaire n’est pas valide. Commentaire : trop long',
  );
  // A field or rule the catalogue does not name: the path as it is, and "not valid".
  assert.equal(
    problemSentence(
      { code: 'validation_failed', errors: [{ path: '/colour', message: 'odd', rule: 'oddness' }] },
      400,
      french,
    ),
    'Un élément du formulaire n’est pas valide. colour : non valide',
  );
  assert.equal(
    problemSentence({ code: 'rate_limited', detail: 'Too many requests' }, 429, french),
    'Trop de tentatives : patientez un instant, puis réessayez.',
  );
  assert.equal(problemSentence(undefined, 502, french), 'Le serveur a répondu 502.');
});

test('an assignment is said as what happened: assigned by someone, taken on by the assignee, or unassigned', () => {
  const event = { kind: 'assigned', at: '', via: 'person' as const, commitSha: null, buildSha: null, note: null };
  const ann = { id: 'usr_a', name: 'Ann' };
  const bot = { id: 'usr_b', name: 'CI agent' };
  assert.equal(timelineSentence({ ...event, by: ann, assignee: bot }, english.t), 'Assigned to CI agent by Ann');
  assert.equal(timelineSentence({ ...event, by: bot, assignee: bot }, english.t), 'CI agent took it on');
  assert.equal(timelineSentence({ ...event, by: ann, assignee: null }, english.t), 'Unassigned by Ann');
  assert.equal(timelineSentence({ ...event, by: null, assignee: bot }, english.t), 'Assigned to CI agent');
  assert.equal(timelineSentence({ ...event, by: ann, assignee: bot }, french.t), 'Assigné à CI agent par Ann');
});

test('a comment shows one status: a verified fix is Verified (not Completed or Live beside it); archived stays Archived', () => {
  const fix: StateFields = { status: 'applied', deployedAt: null, deployedBuildSha: null, verifiedAt: null };
  const live: StateFields = { ...fix, deployedAt: '2026-01-02T00:00:00.000Z', deployedBuildSha: '9f1c2e0aa' };
  const pills = (c: StateFields) => statePills(c, english.t).map((pill) => pill.label);
  assert.deepEqual(pills(fix), ['Completed']);
  assert.deepEqual(pills(live), ['Live · 9f1c2e0']);
  assert.deepEqual(pills({ ...live, verifiedAt: '2026-01-03T00:00:00.000Z' }), ['Verified']);
  assert.deepEqual(pills({ ...fix, verifiedAt: '2026-01-03T00:00:00.000Z' }), ['Verified']);
  assert.deepEqual(pills({ ...fix, status: 'archived', verifiedAt: '2026-01-03T00:00:00.000Z' }), ['Archived']);
});

test('a fix without a commit is said Live at once, in the timeline and in its story', () => {
  const at = '2026-01-02T10:00:00.000Z';
  const by = { name: 'Dana' };
  const applied: TimelineFields = {
    kind: 'applied',
    at,
    by,
    via: 'person',
    commitSha: null,
    buildSha: null,
    note: null,
  };
  const live: TimelineFields = { ...applied, kind: 'live' };
  const timeline = [applied, live];
  assert.equal(timelineSentence(live, english.t), 'Live at once (no commit: nothing to deploy)');
  assert.equal(fixStory(timeline, english.t), 'Applied by Dana · Live at once');
  assert.equal(fixStory(timeline, french.t, 'fr'), 'Appliqué par Dana · En ligne aussitôt');
  const built: TimelineFields = { ...live, at: '2026-01-02T12:00:00.000Z', buildSha: '9f1c2e0aa' };
  assert.equal(fixStory([applied, built], english.t), 'Applied by Dana · Live 2 hr later in build 9f1c2e0');
});
