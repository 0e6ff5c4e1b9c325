import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Browser } from 'playwright-core';
import { setStorageQuota } from '../../server/src/modules/storage/quota.js';
import { addMember, call, createComment, createProject, type Member } from '../../server/test/helpers.js';
import { noisePng } from '../../server/test/images.js';
import { type ConsoleStack, consoleAs, launchBrowser, look, startConsoleStack } from './helpers.js';

describe("the console: a workspace's storage, for its admins (Account)", () => {
  let browser: Browser;
  let stack: ConsoleStack;
  const closers: (() => Promise<void>)[] = [];

  before(async () => {
    browser = await launchBrowser();
    stack = await startConsoleStack();
  });
  after(async () => {
    for (const close of closers) await close();
    await browser?.close();
    await stack?.close();
  });

  async function open(member: Member, viewport?: { width: number; height: number }) {
    const session = await consoleAs(browser, member, viewport);
    closers.push(() => session.context.close());
    await session.page.goto(`${stack.base}/account`);
    return session;
  }

  test('what images and screenshots take of the quota, as a meter; almost full and full said in words; a deletion frees it; 1280 and 390 px; members see none of it', async () => {
    const { app } = stack.api;
    const project = await createProject(app, stack.admin);
    const { id } = await createComment(app, stack.admin, project.key, 'A heavy picture');
    const sent = await app.inject({
      method: 'POST',
      url: `/api/comments/${id}/images`,
      headers: { authorization: `Bearer ${stack.admin.token}`, 'content-type': 'image/png' },
      payload: noisePng(100, 100),
    });
    assert.equal(sent.statusCode, 201, sent.body);
    const used = sent.json().bytes as number;
    await setStorageQuota(app.database.db, stack.admin.workspaceId, 32 * 1024);

    const { page, errors } = await open(stack.admin, { width: 1280, height: 900 });
    const meter = page.getByRole('meter', { name: 'Storage used' });
    await meter.waitFor();
    assert.equal(Number(await meter.getAttribute('value')), used);
    assert.equal(Number(await meter.getAttribute('max')), 32 * 1024);
    await page.getByText(/^Images and screenshots: 29\.\d kB of 32 kB$/).waitFor();
    await page.getByText('Almost full: once it is full, new images and screenshots are refused.').waitFor();
    await page
      .getByText('Deleting a comment frees the space of its images and its screenshot.', { exact: false })
      .waitFor();
    await look(page, 'console-storage-almost-full', errors);

    await setStorageQuota(app.database.db, stack.admin.workspaceId, 20 * 1024);
    const phone = await open(stack.admin, { width: 390, height: 844 });
    await phone.page.getByText(/^Full: new images and screenshots are refused/).waitFor();
    await phone.page.getByText(/of 20 kB$/).waitFor();
    await look(phone.page, 'console-storage-full-phone', phone.errors);

    assert.equal((await call(app, 'DELETE', `/api/comments/${id}`, { token: stack.admin.token })).status, 204);
    await page.reload();
    await page.getByText('Images and screenshots: 0 byte of 20 kB').waitFor();
    assert.equal(await page.getByText(/full/i).count(), 0, 'neither full nor almost');

    const member = await open(await addMember(app, stack.admin, 'member', 'Mo Member'));
    await member.page.getByRole('heading', { name: 'Language' }).waitFor();
    assert.equal(await member.page.getByRole('heading', { name: 'Storage' }).count(), 0);
    assert.deepEqual(member.errors, []);
  });
});
