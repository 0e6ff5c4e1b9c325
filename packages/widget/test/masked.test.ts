// What a page masks stays on the page: the text of anything marked `data-svc-mask` and the
// value of a password field are in no text the widget records with a comment (the anchor's
// texts, attributes and content; the context's title and errors), searched for in every row of
// the database, in what the API answers and in what `get_feedback` gives an agent; pins on
// and beside masked elements are found again by their other hints.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { sql } from 'kysely';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { call, dialect } from '../../server/test/helpers.js';
import { launchBrowser, newReviewer, openWidget, SECRETS, type Stack, startStack, widget } from './helpers.js';

describe('masked text and password values are recorded nowhere', () => {
  let browser: Browser;
  let stack: Stack;
  const contexts: BrowserContext[] = [];
  let agent: Client | null = null;
  before(async () => {
    browser = await launchBrowser();
    stack = await startStack();
  });
  after(async () => {
    await agent?.close();
    for (const context of contexts) await context.close();
    await browser?.close();
    await stack?.close();
  });

  /** Picks the element at `where` in it (clicked there, so that a child does not take the click) and sends `body` about it: its id. */
  async function pinAndSend(page: Page, selector: string, where: 'start' | 'end', body: string): Promise<string> {
    if (await widget(page).locator('.panel').isHidden()) await widget(page).locator('.launcher').click();
    await widget(page).locator('button', { hasText: 'New' }).click();
    await widget(page).locator('.hint').waitFor();
    const target = page.locator(selector);
    const box = (await target.boundingBox()) as { width: number; height: number };
    await target.click({ position: { x: where === 'start' ? 3 : box.width - 3, y: box.height / 2 } });
    await widget(page).locator('#svc-new-body').fill(body);
    await widget(page).locator('button[type=submit]', { hasText: 'Send' }).click();
    const card = widget(page).locator('[data-comment]', { hasText: body });
    await card.waitFor();
    return (await card.getAttribute('data-comment')) ?? '';
  }

  /** Every row of every table of this test's database (on PostgreSQL, its schema), as text (bytes as numbers): what the server stored. */
  async function everythingStored(): Promise<string> {
    const db = stack.api.app.database.db;
    const own =
      dialect === 'postgres' ? (await sql<{ s: string }>`select current_schema() as s`.execute(db)).rows[0]?.s : null;
    const tables = (await db.introspection.getTables()).filter((table) => !own || table.schema === own);
    assert.ok(tables.some((table) => table.name === 'comments'));
    const rows = await Promise.all(
      tables.map((table) =>
        db
          .selectFrom(table.name as never)
          .selectAll()
          .execute(),
      ),
    );
    return JSON.stringify(rows, (_key, value) => (value instanceof Uint8Array ? [...value] : value));
  }

  const leaked = (text: string) => SECRETS.filter((secret) => text.includes(secret));

  test('pinned on a masked element, beside one, around one and around a password field: nothing of them in the database, the API or get_feedback; the pins are found again', async () => {
    const reviewer = await newReviewer(stack, 'Maud Masked');
    const page = await openWidget(browser, stack, reviewer, contexts, {
      url: stack.pageUrl({ query: 'secrets=1' }),
    });
    // The card number's console error is recorded before the comments are written.
    await page.waitForFunction(() => document.title.includes('Account'));
    await page.waitForTimeout(800);
    const selectors = {
      onMasked: '.holder-name',
      aroundMasked: 'p.holder',
      besideMasked: '.edit-card',
      maskedBlock: '.card',
      aroundPassword: '.pin-box',
      onPassword: '.pin-box input',
    };
    const pins = {
      onMasked: await pinAndSend(page, selectors.onMasked, 'end', 'The name is cut off'),
      aroundMasked: await pinAndSend(page, selectors.aroundMasked, 'start', 'Say “owner” rather'),
      besideMasked: await pinAndSend(page, selectors.besideMasked, 'end', 'Edit should be a link'),
      maskedBlock: await pinAndSend(page, selectors.maskedBlock, 'end', 'The card block is too tall'),
      aroundPassword: await pinAndSend(page, selectors.aroundPassword, 'end', 'The PIN box needs a label'),
      onPassword: await pinAndSend(page, selectors.onPassword, 'start', 'The PIN field is too narrow'),
    };
    const read = async (id: string) =>
      (await call(stack.api.app, 'GET', `/api/comments/${id}`, { token: reviewer.token })).body;
    for (const id of Object.values(pins)) {
      for (let i = 0; i < 300 && !(await read(id)).screenshot; i++) await page.waitForTimeout(100);
    }

    // What is recorded still says what is not masked.
    const around = await read(pins.aroundMasked);
    assert.equal(around.anchor.text.exact, 'Account holder:');
    const beside = await read(pins.besideMasked);
    assert.equal(beside.anchor.text.exact, 'Edit card');
    assert.equal(beside.anchor.context.previous, 'Account holder:', 'the masked block is skipped, not read');
    const onMasked = await read(pins.onMasked);
    assert.equal(onMasked.anchor.tag, 'span');
    assert.deepEqual(onMasked.anchor.classes, ['holder-name']);
    assert.equal(onMasked.anchor.text, undefined, 'no text of its own');
    assert.match(onMasked.context.title, /^\[masked\] — Account$/);
    // A password field keeps what it shows (its placeholder, its name); only what it holds is masked.
    const onPassword = await read(pins.onPassword);
    assert.deepEqual(onPassword.anchor.attributes, { name: 'pin', type: 'password', placeholder: 'PIN' });
    const charge = onMasked.context.errors.find((e: { message: string }) => e.message.startsWith('Charge failed'));
    assert.equal(charge?.message, 'Charge failed for [masked] ([masked])');

    for (const [pin, id] of Object.entries(pins)) {
      assert.deepEqual(leaked(JSON.stringify(await read(id))), [], `the API's comment pinned ${pin}`);
    }
    assert.deepEqual(leaked(await everythingStored()), [], 'the database');

    // An agent's view: get_feedback over MCP.
    const key = await call(stack.api.app, 'POST', '/api/me/api-keys', {
      token: reviewer.token,
      body: { name: 'agent' },
    });
    agent = new Client({ name: 'test-agent', version: '1.0.0' });
    await agent.connect(
      new StreamableHTTPClientTransport(new URL(`${stack.apiBase}/mcp?project=${stack.projectKey}`), {
        requestInit: { headers: { authorization: `Bearer ${key.body.key}` } },
      }),
    );
    for (const [pin, id] of Object.entries(pins)) {
      const result = await agent.callTool({ name: 'get_feedback', arguments: { id } });
      const parts = result.content as { type: string; text?: string }[];
      const texts: string[] = parts.flatMap((part) => (part.type === 'text' && part.text ? [part.text] : []));
      assert.ok(texts.length > 0);
      assert.deepEqual(leaked(texts.join('\n')), [], `get_feedback of the comment pinned ${pin}`);
    }

    // Found again by their other hints, on their element: a pin opens its comment and outlines
    // the element it was found on.
    await page.reload();
    await widget(page).locator('.launcher').waitFor();
    for (const [pin, id] of Object.entries(pins)) {
      const placed = widget(page).locator(`[data-pin="${id}"]`);
      await placed.waitFor({ state: 'attached', timeout: 15000 });
      assert.equal(await placed.evaluate((el) => el.classList.contains('doubtful')), false, `${pin} found surely`);
      await placed.dispatchEvent('click');
      const flash = widget(page).locator('[data-flash]');
      // (No named function inside: the test runner's transpiler would add a helper the page lacks.)
      const outlined = await flash.evaluate(
        (el, selector) => {
          const host = (el.getRootNode() as ShadowRoot).host.getBoundingClientRect();
          const r = document.querySelector(selector)?.getBoundingClientRect() as DOMRect;
          const style = (el as HTMLElement).style;
          const offs = [
            Number.parseFloat(style.left) + 4 - (r.left - host.left),
            Number.parseFloat(style.top) + 4 - (r.top - host.top),
            Number.parseFloat(style.width) - 8 - r.width,
          ];
          return offs.every((off) => Math.abs(off) < 1);
        },
        selectors[pin as keyof typeof selectors],
      );
      assert.equal(outlined, true, `${pin} found on its element`);
      await flash.waitFor({ state: 'detached' });
    }
  });
});
