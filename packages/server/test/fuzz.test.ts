import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { errorCatalog } from '@svc/contract';
import fc from 'fast-check';
import { createTestApp, type TestApp } from './helpers.js';
import {
  buildWorld,
  mentionFields,
  mentioningRequest,
  ROLES,
  requestArbitrary,
  rowCounts,
  signInAgain,
  strayMentions,
  type World,
} from './route-table.js';

/** Requests per route and role: the suite stays within a couple of minutes on both databases. */
const RUNS = Number(process.env.FUZZ_RUNS ?? 10);
const SEED = Number(process.env.FUZZ_SEED ?? 20261122);

describe('fuzz: every route, every role, inputs from its own schema and hostile ones', () => {
  let t: TestApp;
  let world: World;
  const tally = { requests: 0, serverErrors: 0, refusals: 0, writesAfterRefusal: 0, mentioning: 0 };
  before(async () => {
    // Limits high enough that the fuzz exercises the routes, not only the throttles.
    t = await createTestApp({
      limits: { commentsPerMinute: 100_000, repliesPerMinute: 100_000, signUpsPerAddress: 1000 },
    });
    world = await buildWorld(t.app);
  });
  after(async () => {
    process.stdout.write(
      `# fuzz: ${tally.requests} requests over ${t.app.routeTable.length} routes x ${ROLES.length} roles (seed ${SEED}): ` +
        `${tally.serverErrors} 5xx, ${tally.refusals} refused, ${tally.writesAfterRefusal} writes after a refusal, ` +
        `${tally.mentioning} accepted texts with mentions checked\n`,
    );
    await t.close();
  });

  test('never a 5xx; every refusal is problem+json with a known code and writes nothing', {
    timeout: 600_000,
  }, async () => {
    for (const route of t.app.routeTable) {
      await signInAgain(world);
      // The rows as the last request left them: counted again after each request, not before it too.
      let counts = await rowCounts(t.app);
      for (const role of ROLES) {
        await fc
          .assert(
            fc.asyncProperty(requestArbitrary(route, world), async ({ options, description }) => {
              const token = world.tokens[role];
              const before = counts;
              const answer = await t.app.inject({
                ...options,
                headers: { ...(options.headers as object), ...(token ? { authorization: `Bearer ${token}` } : {}) },
              });
              tally.requests++;
              const where = `${role}: ${description} -> ${answer.statusCode} ${answer.body.slice(0, 300)}`;
              if (answer.statusCode >= 500) tally.serverErrors++;
              assert.ok(answer.statusCode < 500, where);
              if (answer.statusCode < 400) {
                counts = await rowCounts(t.app);
                // A text that named people keeps only mentions by the rule: its workspace's, under their own names.
                if (String(options.payload ?? '').includes('<@')) {
                  tally.mentioning++;
                  assert.deepEqual(await strayMentions(t.app), [], where);
                }
                return;
              }
              tally.refusals++;
              if (route.url === '/mcp' && /^application\/json/.test(String(answer.headers['content-type']))) {
                // Past authentication, the MCP endpoint refuses in its own protocol: a JSON-RPC error.
                const { jsonrpc, error } = answer.json();
                assert.equal(jsonrpc, '2.0', where);
                assert.ok(Number.isInteger(error.code) && typeof error.message === 'string', where);
              } else {
                assert.match(String(answer.headers['content-type']), /^application\/problem\+json/, where);
                const problem = answer.json();
                assert.ok(problem.code in errorCatalog, where);
                assert.equal(problem.status, answer.statusCode, where);
              }
              const after = await rowCounts(t.app);
              counts = after;
              if (JSON.stringify(after) !== JSON.stringify(before)) tally.writesAfterRefusal++;
              assert.deepEqual(after, before, `refused but wrote: ${where}`);
            }),
            { numRuns: RUNS, seed: SEED, endOnFailure: true },
          )
          .catch((error: Error) => {
            // fast-check's report names the counterexample; the assertion that failed is its cause.
            throw new Error(
              `${route.method} ${route.url} as ${role}: ${(error.cause as Error)?.message}\n${error.message}`,
            );
          });
      }
    }
    assert.ok(tally.requests >= t.app.routeTable.length * ROLES.length * RUNS);
  });

  test('texts that mention people of both workspaces, sent by every role: what is stored holds only mentions by the rule', async () => {
    const routes = t.app.routeTable.filter((route) => mentionFields(route).length > 0);
    assert.ok(routes.length >= 3, 'a comment, a reply and a verdict hold mentions');
    const before = tally.mentioning;
    for (const route of routes) {
      await signInAgain(world);
      for (const role of ROLES) {
        await fc.assert(
          fc.asyncProperty(mentioningRequest(route, world), async ({ options, description }) => {
            const token = world.tokens[role];
            const answer = await t.app.inject({
              ...options,
              headers: { ...(options.headers as object), ...(token ? { authorization: `Bearer ${token}` } : {}) },
            });
            const where = `${role}: ${description} -> ${answer.statusCode} ${answer.body.slice(0, 300)}`;
            assert.ok(answer.statusCode < 500, where);
            if (answer.statusCode < 400) tally.mentioning++;
            assert.deepEqual(await strayMentions(t.app), [], where);
          }),
          { numRuns: RUNS, seed: SEED },
        );
      }
    }
    assert.ok(tally.mentioning > before, 'no text with mentions was accepted');
  });
});
