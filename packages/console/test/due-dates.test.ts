// Due dates in the console: the team sets and clears one on a comment's page; rows, cards, the
// board and My work show it, overdue in words and in a colour that keeps its contrast; the list
// filters and sorts by it; insights count the overdue. In Chromium at 1200 px and on a 390 px
// phone, with axe on every screen.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { addMember, call, createComment, createProject, type Member } from '../../server/test/helpers.js';
import { consoleSuite, look } from './helpers.js';

const DESKTOP = { width: 1200, height: 800 };
const PHONE = { width: 390, height: 844 };

describe('due dates in the console', () => {
  const suite = consoleSuite();

  /** Three comments of a new project, all on the admin: one overdue, one due far ahead, one without a date. */
  async function seed() {
    const { app } = suite.stack().api;
    const admin = suite.stack().admin;
    const project = await createProject(app, admin);
    const dana: Member = await addMember(app, admin, 'member', 'Dana Dev');
    const late = await createComment(app, dana, project.key, 'The logo is blurry');
    const ahead = await createComment(app, dana, project.key, 'The footer wraps');
    const none = await createComment(app, dana, project.key, 'The menu is slow');
    for (const [id, dueOn] of [
      [late.id, '2020-01-02'],
      [ahead.id, '2999-12-31'],
    ] as const) {
      const set = await call(app, 'PATCH', `/api/comments/${id}`, { token: dana.token, body: { dueOn } });
      assert.equal(set.status, 200, JSON.stringify(set.body));
    }
    for (const { id } of [late, ahead, none]) {
      await call(app, 'PUT', `/api/comments/${id}/assignee`, { token: admin.token, body: { assigneeId: admin.id } });
    }
    return { project, dana, late, ahead, none };
  }

  test('on a comment’s page the team sets a due date and clears it; the timeline says both', async () => {
    const { none } = await seed();
    const { page, errors } = await suite.open(suite.stack().admin, `/comments/${none.id}`, DESKTOP);
    const field = page.getByLabel('Due date', { exact: true });
    await field.fill('2030-05-06');
    await page.getByText('Due date set to May 6, 2030 by Ada Admin').waitFor();
    await page.locator('.due-choice .pill.due').filter({ hasText: 'Due May 6, 2030' }).waitFor();
    const read = async () =>
      (await call(suite.stack().api.app, 'GET', `/api/comments/${none.id}`, { token: suite.stack().admin.token })).body;
    assert.equal((await read()).dueOn, '2030-05-06');
    await look(page, 'due-dates-comment-set', errors);
    await page.getByRole('button', { name: 'Clear due date' }).click();
    await page.getByText('Due date cleared by Ada Admin').waitFor();
    assert.equal((await read()).dueOn, null);
    assert.equal(await field.inputValue(), '');
    await look(page, 'due-dates-comment-cleared', errors);
  });

  for (const [name, viewport, touch] of [
    ['wide', DESKTOP, false],
    ['phone', PHONE, true],
  ] as const) {
    test(`rows, the board, My work and insights show it, overdue in words (${name})`, async () => {
      const { project, late, ahead } = await seed();
      const admin = suite.stack().admin;
      const { page, errors } = await suite.open(admin, `/comments?project=${project.key}&sort=due`, viewport, touch);
      const overdue = page.locator('.pill.due.overdue').filter({ hasText: 'Overdue · due Jan 2, 2020' });
      await overdue.first().waitFor();
      await page.locator('.pill.due:not(.overdue)').filter({ hasText: 'Due Dec 31, 2999' }).first().waitFor();
      const rows = await page.locator('tbody tr a[data-row]').allTextContents();
      assert.deepEqual(rows, ['The logo is blurry', 'The footer wraps', 'The menu is slow'], 'the soonest due first');
      await look(page, `due-dates-list-${name}`, errors);

      await page.goto(`${suite.stack().base}/comments?project=${project.key}&due=overdue`);
      await page.locator('tbody tr a[data-row]').first().waitFor();
      assert.deepEqual(await page.locator('tbody tr a[data-row]').allTextContents(), ['The logo is blurry']);

      await page.goto(`${suite.stack().base}/comments?project=${project.key}&view=board`);
      await page.locator('.board-card .pill.due.overdue').filter({ hasText: 'Overdue · due Jan 2, 2020' }).waitFor();
      await look(page, `due-dates-board-${name}`, errors);

      await page.goto(`${suite.stack().base}/mine`);
      const mine = page.locator('ul.work').first().locator('li');
      await mine.first().locator('.pill.due').waitFor();
      const texts = await mine.allTextContents();
      const at = (body: string) => texts.findIndex((text) => text.includes(body));
      assert.ok(at('The logo is blurry') < at('The footer wraps'), 'the overdue one first');
      assert.ok(at('The footer wraps') < at('The menu is slow'), 'those without a date last');
      await look(page, `due-dates-my-work-${name}`, errors);

      await page.goto(`${suite.stack().base}/insights?project=${project.key}`);
      const tile = page.locator('.tiles li.overdue');
      await tile.waitFor();
      assert.match((await tile.textContent()) ?? '', /^1 overdue$/);
      await look(page, `due-dates-insights-${name}`, errors);
      await tile.getByRole('link').click();
      await page.waitForURL(/due=overdue/);
      await page.locator('tbody tr a[data-row]').first().waitFor();
      assert.deepEqual(await page.locator('tbody tr a[data-row]').allTextContents(), ['The logo is blurry']);
      assert.ok(late.id && ahead.id);
    });
  }
});
