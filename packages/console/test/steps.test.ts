// The comment page shows the steps that led to a comment, numbered, in the reader's language,
// at 1200 px and on a phone (axe, no overflow, screenshots to look at).
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { call, capturedContext, createProject } from '../../server/test/helpers.js';
import { consoleSuite, look, PHONE } from './helpers.js';

const at = (second: number) => `2026-11-22T10:00:0${second}.000Z`;

const context = {
  ...capturedContext,
  errors: [{ kind: 'error', message: 'TypeError: Cannot read properties of undefined (reading “plan”)', at: at(3) }],
  actions: [
    { kind: 'open', at: at(1), path: '/pricing' },
    { kind: 'press', at: at(2), name: 'Choose Team' },
    { kind: 'press', at: at(2), name: 'Choose Team' },
    { kind: 'type', at: at(4), name: 'E-mail' },
  ],
  requests: [
    {
      method: 'POST',
      url: 'https://app.example.test/api/v2/organisations/acme-corporation/orders/checkout-sessions',
      status: 500,
      durationMs: 30,
      at: at(5),
    },
  ],
};

describe('console: steps to reproduce on the comment page', () => {
  const { stack, open } = consoleSuite();

  test('numbered, in English at 1200 px and in German on a phone', async () => {
    const { admin } = stack();
    const project = await createProject(stack().api.app, admin);
    const created = await call(stack().api.app, 'POST', `/api/projects/${project.key}/comments`, {
      token: admin.token,
      body: {
        body: 'Ordering fails',
        pageUrl: 'https://app.example.test/pricing',
        anchor: { selector: '#team button', x: 1, y: 1, name: 'Team $29' },
        context,
      },
    });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    const path = `/comments/${created.body.id}`;

    const wide = await open(admin, path, { width: 1200, height: 900 });
    const steps = wide.page.getByRole('list', { name: 'Steps to reproduce' }).getByRole('listitem');
    await steps.first().waitFor();
    assert.deepEqual(await steps.allTextContents(), [
      'Opened /pricing',
      'Pressed “Choose Team” 2 times',
      'Error: TypeError: Cannot read properties of undefined (reading “plan”)',
      'Typed in “E-mail”',
      'Request POST /api/v2/organisations/acme-corporation/orders/checkout-sessions failed (500)',
      'Pinned “Team $29”',
    ]);
    await look(wide.page, 'comment-steps', wide.errors);

    assert.equal(
      (await call(stack().api.app, 'PATCH', '/api/me', { token: admin.token, body: { locale: 'de' } })).status,
      200,
    );
    const phone = await open(admin, path, PHONE);
    const german = phone.page.getByRole('list', { name: 'Schritte zum Nachstellen' }).getByRole('listitem');
    await german.first().waitFor();
    assert.deepEqual((await german.allTextContents()).slice(0, 2), [
      '/pricing geöffnet',
      '„Choose Team“ 2-mal gedrückt',
    ]);
    await look(phone.page, 'comment-steps-phone', phone.errors);
    await call(stack().api.app, 'PATCH', '/api/me', { token: admin.token, body: { locale: null } });
  });
});
