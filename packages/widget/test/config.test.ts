import assert from 'node:assert/strict';
import { describe, test } from 'node:test';

describe('the embed configuration', () => {
  const src = 'https://feedback.example.com/widget.js';
  const tag = (dataset: Record<string, string>, nonce = '') => ({ dataset, src, nonce });

  test('the poll interval has a floor of one second and a default of a minute', async () => {
    const { configFrom } = await import('../src/config.js');
    assert.equal(configFrom({ notifyPollMs: 10 }, tag({ projectKey: 'site' }))?.notifyPollMs, 1_000);
    assert.equal(configFrom({}, tag({ projectKey: 'site', notifyPollMs: '250' }))?.notifyPollMs, 1_000);
    assert.equal(configFrom({}, tag({ projectKey: 'site', notifyPollMs: '5000' }))?.notifyPollMs, 5_000);
    assert.equal(configFrom({}, tag({ projectKey: 'site', notifyPollMs: 'soon' }))?.notifyPollMs, 60_000);
    assert.equal(configFrom({}, tag({ projectKey: 'site' }))?.apiBase, 'https://feedback.example.com');
    assert.equal(configFrom({}, tag({})), null, 'no project: the widget stays silent');
  });

  test("the nonce is the script tag's own unless the configuration names one", async () => {
    const { configFrom } = await import('../src/config.js');
    assert.equal(configFrom({}, tag({ projectKey: 'site' }, 'r4nd0m'))?.nonce, 'r4nd0m');
    assert.equal(configFrom({ nonce: 'other' }, tag({ projectKey: 'site' }, 'r4nd0m'))?.nonce, 'other');
    assert.equal(configFrom({}, tag({ projectKey: 'site' }))?.nonce, '');
  });

  test('the workspace, when the embed names it, is kept for finding its single sign-on', async () => {
    const { configFrom } = await import('../src/config.js');
    assert.equal(configFrom({}, tag({ projectKey: 'site', workspace: 'ws_01ABC' }))?.workspace, 'ws_01ABC');
    assert.equal(configFrom({ workspace: 'ws_02DEF' }, tag({ projectKey: 'site' }))?.workspace, 'ws_02DEF');
    assert.equal(configFrom({}, tag({ projectKey: 'site' }))?.workspace, null);
  });
});
