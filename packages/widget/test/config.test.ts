import assert from 'node:assert/strict';
import { describe, test } from 'node:test';

describe('the embed configuration', () => {
  test('the poll interval has a floor of one second and a default of a minute', async () => {
    const { configFrom } = await import('../src/config.js');
    const script = 'https://feedback.example.com/widget.js';
    assert.equal(configFrom({ notifyPollMs: 10 }, { projectKey: 'site' }, script)?.notifyPollMs, 1_000);
    assert.equal(configFrom({}, { projectKey: 'site', notifyPollMs: '250' }, script)?.notifyPollMs, 1_000);
    assert.equal(configFrom({}, { projectKey: 'site', notifyPollMs: '5000' }, script)?.notifyPollMs, 5_000);
    assert.equal(configFrom({}, { projectKey: 'site', notifyPollMs: 'soon' }, script)?.notifyPollMs, 60_000);
    assert.equal(configFrom({}, { projectKey: 'site' }, script)?.apiBase, 'https://feedback.example.com');
    assert.equal(configFrom({}, {}, script), null, 'no project: the widget stays silent');
  });
});
