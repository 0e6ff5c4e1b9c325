// The key check of the steps to reproduce, the same in Chromium, Firefox and WebKit: on the
// `?steps=1` page a reviewer pressed "Choose Team" (a console error, a request answered 404),
// typed a secret in the e-mail field, pressed a masked button, took the "Team plan" route, and
// commented pinned to "Choose Team".
import assert from 'node:assert/strict';
import type { Member } from '../../server/test/helpers.js';
import { call } from '../../server/test/helpers.js';
import { type Stack, TYPED_SECRET } from './helpers.js';

/** The steps kept for that comment. */
export const EXPECTED_STEPS = [
  { kind: 'opened', path: '/pricing' },
  { kind: 'pressed', name: 'Choose Team' },
  { kind: 'error', message: 'TypeError: plan is undefined' },
  { kind: 'requestFailed', method: 'POST', path: '/missing', status: 404 },
  { kind: 'typed', field: 'E-mail' },
  { kind: 'pressed', name: 'Team plan' },
  { kind: 'opened', path: '/pricing/team' },
  { kind: 'pinned', name: 'Choose Team' },
];

/** A script for the page: whether the recorder has the request answered 404 (kept once answered). */
export const FAILED_REQUEST_KEPT =
  'return !!window.__svcSteps && window.__svcSteps.recentRequests().some((request) => request.status === 404)';

/** A script for the page: whether it asked its server for the recorder (its resource timings). */
export const RECORDER_REQUESTED =
  "return performance.getEntriesByType('resource').some((entry) => entry.name.endsWith('/widget-steps.js'))";

/**
 * The comment `id` holds those steps, and neither the stored row nor the API's answer holds
 * what was typed or the masked button's words; the routes' and requests' queries are kept
 * nowhere in the log (the comment's own address keeps its query, as it always has).
 */
export async function assertStepsKept(stack: Stack, reviewer: Member, id: string): Promise<void> {
  const read = await call(stack.api.app, 'GET', `/api/comments/${id}`, { token: reviewer.token });
  assert.deepEqual(read.body.context.steps, EXPECTED_STEPS);
  const { actions, requests, errors, steps } = read.body.context;
  assert.ok(
    !actions.some((action: { name?: string }) => /New|Send|Feedback/.test(action.name ?? '')),
    `the widget's own clicks are not kept: ${JSON.stringify(actions)}`,
  );
  assert.ok(!JSON.stringify(requests).includes(stack.apiBase), "the widget's own requests are not kept");
  assert.ok(!JSON.stringify({ actions, requests, errors, steps }).includes('never-kept'), 'no query is kept');
  const row = await stack.api.app.database.db
    .selectFrom('comments')
    .selectAll()
    .where('id', '=', id)
    .executeTakeFirstOrThrow();
  for (const secret of [TYPED_SECRET, 'Jane Quinn']) {
    assert.ok(!JSON.stringify(row).includes(secret), `the stored row holds no “${secret}”`);
    assert.ok(!JSON.stringify(read.body).includes(secret), `the API's answer holds no “${secret}”`);
  }
}
