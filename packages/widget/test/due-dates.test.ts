// A comment's due date on its card in the widget: a team member reads it (overdue in words and in
// a colour that keeps its contrast); a client, for whom it is the team's plan, does not.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { seriousViolations } from '../../console/test/helpers.js';
import { addClient, call } from '../../server/test/helpers.js';
import { newReviewer, openWidget, screenshot, widget, widgetSuite } from './helpers.js';

describe('due dates in the widget', () => {
  const suite = widgetSuite();

  test('a team member’s card says it, overdue in words; a client’s card does not', async () => {
    const [browser, stack, contexts] = [suite.browser(), suite.stack(), suite.contexts];
    const ids: string[] = [];
    for (const [body, dueOn] of [
      ['The logo is blurry', '2020-01-02'],
      ['The footer wraps', '2999-12-31'],
    ]) {
      const created = await call(stack.api.app, 'POST', `/api/projects/${stack.projectKey}/comments`, {
        token: stack.admin.token,
        body: { body, pageUrl: `${stack.pageOrigin}/pricing`, anchor: { selector: 'h1', x: 5, y: 5 } },
      });
      ids.push(created.body.id);
      const set = await call(stack.api.app, 'PATCH', `/api/comments/${created.body.id}`, {
        token: stack.admin.token,
        body: { dueOn },
      });
      assert.equal(set.status, 200, JSON.stringify(set.body));
    }
    const [late, ahead] = ids as [string, string];
    for (const [name, viewport] of [
      ['wide', { width: 1200, height: 800 }],
      ['phone', { width: 390, height: 844 }],
    ] as const) {
      const member = await newReviewer(stack, `Dora Dev ${name}`);
      const page = await openWidget(browser, stack, member, contexts, { viewport });
      await widget(page).locator('.launcher').click();
      await widget(page).locator('[role=tab]', { hasText: 'Comments' }).click();
      const lateCard = widget(page).locator(`[data-comment="${late}"]`);
      await lateCard.locator('.pill.due.overdue', { hasText: 'Overdue · due Jan 2, 2020' }).waitFor();
      await widget(page)
        .locator(`[data-comment="${ahead}"] .pill.due:not(.overdue)`, { hasText: 'Due Dec 31, 2999' })
        .waitFor();
      assert.deepEqual(await seriousViolations(page, '[data-svc-widget]'), [], `${name}: axe`);
      await screenshot(page, `due-dates-widget-${name}`);
    }
    const client = await addClient(stack.api.app, stack.admin, undefined, 'Cleo Client');
    const clientPage = await openWidget(browser, stack, client, contexts, {});
    await widget(clientPage).locator('.launcher').click();
    await widget(clientPage).locator('[role=tab]', { hasText: 'Comments' }).click();
    await widget(clientPage).locator(`[data-comment="${late}"]`).waitFor();
    assert.equal(await widget(clientPage).locator('.pill.due').count(), 0, 'the team’s plan is not the client’s');
  });
});
