// What every browser's replay test checks of the replay a reviewer sent (replay.test.ts,
// replay-firefox.test.ts): what it holds, and what it never holds, in the bytes the server
// stored, compressed and decompressed.
import assert from 'node:assert/strict';
import { gunzipSync } from 'node:zlib';
import { call } from '../../server/test/helpers.js';
import { type Stack, TYPED_SECRET } from './helpers.js';

/** Never in a replay: what was typed, a password field's value (its markup's and one typed), masked elements' text. */
const NEVER = [TYPED_SECRET, 'hunter2hunter2', 'typed-password-X1', 'Card 4242', 'Jane Quinn'];

/** What the reviewer does on `?steps=1&broken=1` before pinning: a click, a secret typed, a password typed, a route changed. */
export const REVIEWER_ACTS = { secret: TYPED_SECRET, password: 'typed-password-X1' };

interface ReplayEvent {
  type: number;
  timestamp: number;
  data: { source?: number; type?: number; tag?: string; payload?: Record<string, unknown> };
}

/** The comment's stored replay holds the clicks, the route (without its query), the pin and the page, and nothing of NEVER. */
export async function assertReplayKept(stack: Stack, id: string): Promise<void> {
  const row = await stack.api.app.database.db
    .selectFrom('attachments')
    .select(['bytes'])
    .where('comment_id', '=', id)
    .where('kind', '=', 'replay')
    .executeTakeFirstOrThrow();
  const compressed = Buffer.from(row.bytes);
  const text = gunzipSync(compressed).toString('utf8');
  for (const secret of NEVER) {
    assert.equal(compressed.includes(secret), false, `"${secret}" not in the stored bytes`);
    assert.equal(text.includes(secret), false, `"${secret}" not in the replay`);
  }
  const events = JSON.parse(text) as ReplayEvent[];
  const clicks = events.filter((e) => e.type === 3 && e.data.source === 2 && e.data.type === 2);
  assert.ok(clicks.length >= 3, `the clicks: ${clicks.length}`);
  const custom = (tag: string) => events.filter((e) => e.type === 5 && e.data.tag === tag);
  assert.deepEqual(
    custom('svc-navigation').map((e) => e.data.payload?.href),
    [`${stack.pageOrigin}/pricing/team`],
    'the route, without its query',
  );
  assert.ok(custom('svc-pin').length > 0, 'the pin marked at its end');
  assert.ok(text.includes('Simple pricing'), 'the page itself');
  assert.ok(text.includes('Choose Team'), "the button's text (text is shown unless the project masks it)");
  // The comment says it has one, for the console to play.
  const comment = await call(stack.api.app, 'GET', `/api/comments/${id}`, { token: stack.admin.token });
  assert.equal(comment.body.replay.bytes, compressed.length);
}
