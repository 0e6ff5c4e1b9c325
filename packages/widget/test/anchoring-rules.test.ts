// Rules of finding a pinned element again, on small pages in Chromium: the widget's own
// describe and resolve, run on markup changed the way apps change it.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { Anchor } from '@svc/contract';
import { build } from 'esbuild';
import type { Browser, Page } from 'playwright-core';
import { Value } from 'typebox/value';
import { launchBrowser } from './helpers.js';

describe('finding a pinned element again', () => {
  let browser: Browser;
  let page: Page;
  let script = '';

  before(async () => {
    const result = await build({
      stdin: {
        contents: `import { describeElement } from './describe.js';
import { Resolver, resolveAnchor } from './resolve.js';
import { finish } from './steps.js';
window.anchoring = { describeElement, finish, Resolver, resolveAnchor };`,
        resolveDir: fileURLToPath(new URL('../src/anchoring/', import.meta.url)),
        loader: 'ts',
      },
      bundle: true,
      write: false,
      format: 'iife',
      target: ['es2022'],
      logLevel: 'error',
    });
    script = result.outputFiles[0]?.text ?? '';
    browser = await launchBrowser();
    page = await browser.newPage();
  });
  after(() => browser?.close());

  /**
   * Pins `pinned` on `markup`, applies `change` to the pinned element, and says what the
   * resolver finds: the pinned element ('same'), another, or nothing.
   */
  const afterChange = async (markup: string, pinned: string, change: string, expecting = {}) => {
    await page.setContent(`<!doctype html><html><body>${markup}</body></html>`);
    await page.addScriptTag({ content: script });
    return page.evaluate(
      ([selector, changeSource, expected]) => {
        const { describeElement, resolveAnchor } = (window as any).anchoring;
        const target = document.querySelector(selector as string) as Element;
        (target as any).__pinned = true;
        const anchor = describeElement(target);
        new Function('el', changeSource as string)(target);
        const found = resolveAnchor(JSON.parse(JSON.stringify(anchor)), document, expected);
        if (!found) return 'nothing';
        return found.element.__pinned ? 'same' : `another: ${found.element.outerHTML}`;
      },
      [pinned, change, expecting] as const,
    );
  };

  test('every element of a page gets an anchor the server accepts (a select, long list items, a link in a custom element)', async () => {
    const long = 'A list item whose text runs on and on, '.repeat(12);
    await page.setContent(`<!doctype html><html><body>
      <label>Size <select name="size"><option>Small</option><option selected>Medium size, in stock</option></select></label>
      <ul><li>${long}first</li><li>${long}second</li><li><b>Bold</b> ${long}</li></ul>
      <product-card><a href="/p/1">Blue mug</a><span slot="price">12 €</span></product-card>
      <table><tr><th>Plan</th><td>Pro</td></tr></table><textarea>Notes</textarea><img alt="" src="/x.png">
      </body></html>`);
    await page.evaluate(() => {
      customElements.define(
        'product-card',
        class extends HTMLElement {
          connectedCallback() {
            this.attachShadow({ mode: 'open' }).innerHTML =
              '<div class="card"><slot></slot><p><slot name="price"></slot></p></div>';
          }
        },
      );
    });
    await page.addScriptTag({ content: script });
    const anchors = await page.evaluate(() =>
      [...document.body.querySelectorAll('*')].map((el) => [
        el.outerHTML.slice(0, 80),
        JSON.parse(JSON.stringify((window as any).anchoring.describeElement(el))),
      ]),
    );
    assert.ok(anchors.length >= 15, `${anchors.length} elements`);
    for (const [element, anchor] of anchors) {
      assert.ok(
        Value.Check(Anchor, anchor),
        `${element}: ${JSON.stringify([...Value.Errors(Anchor, anchor)].slice(0, 2))}`,
      );
    }
  });

  /**
   * Anchors as the release before this one recorded them (its describe, on this page): rows
   * whose item tells them apart, comments told apart by their shape, a plan's line by the text
   * before it. Stored anchors are read as they are (each twin hint reads its own field), and
   * today's describe records the same fields.
   */
  const EARLIER_PAGE = `<table><tbody><tr><td>Invoice 1041</td><td><button class="act" type="button">Archive</button> <button class="act" type="button">Delete</button></td></tr><tr><td>Invoice 1042</td><td><button class="act" type="button">Archive</button> <button class="act" type="button">Delete</button></td></tr><tr><td>Invoice 1043</td><td><button class="act" type="button">Archive</button> <button class="act" type="button">Delete</button></td></tr></tbody></table><ul class="comments"><li class="comment"><p>Looks good</p><div class="actions"><button type="button">Reply</button> <button type="button">Like</button></div></li><li class="comment"><img class="avatar" alt=""><p>Looks good</p><div class="actions"><button type="button">Reply</button> <button type="button">Like</button></div></li><li class="comment"><p>Looks good</p><div class="actions"><button type="button">Reply</button> <button type="button">Like</button></div></li></ul><h2>Plans</h2><p class="plan">Dedicated support</p><h2>Pricing</h2><p class="plan">Dedicated support</p>`;
  const EARLIER_ANCHORS = [
    {
      selector: 'tr:nth-of-type(2) > td:nth-of-type(2) > button:nth-of-type(1)',
      x: 0,
      y: 0,
      tag: 'button',
      role: 'button',
      name: 'Archive',
      text: {
        exact: 'Archive',
        prefix: 'Invoice 1041Archive DeleteInvoice 1042',
        suffix: 'DeleteInvoice 1043Archive DeleteLooks goodReply LikeLooks goodRe',
      },
      attributes: { type: 'button' },
      classes: ['act'],
      context: { parent: 'Archive Delete', next: 'Delete' },
      twins: 2,
      twinsBefore: 1,
      twinsByQuote: 'both',
      twinsByItem: { up: 2, text: 'Invoice 1042 Archive Delete' },
      alikes: 2,
      alikesBefore: 1,
      kin: 6,
      textCount: 3,
      position: { left: 118, top: 36, width: 66, height: 21, viewportWidth: 1280, viewportHeight: 720 },
    },
    {
      selector: 'li:nth-of-type(2) > div > button:nth-of-type(1)',
      x: 0,
      y: 0,
      tag: 'button',
      role: 'button',
      name: 'Reply',
      text: {
        exact: 'Reply',
        prefix: 'e DeleteInvoice 1043Archive DeleteLooks goodReply LikeLooks good',
        suffix: 'LikeLooks goodReply LikePlansDedicated supportPricingDedicated s',
      },
      attributes: { type: 'button' },
      context: { parent: 'Reply Like', next: 'Like' },
      twins: 2,
      twinsBefore: 1,
      twinsByShape: { up: 3, shape: '1wyq1q3' },
      alikes: 2,
      alikesBefore: 1,
      kin: 12,
      textCount: 3,
      position: { left: 48, top: 227, width: 53, height: 21, viewportWidth: 1280, viewportHeight: 720 },
    },
    {
      selector: 'p:nth-of-type(2)',
      x: 0,
      y: 0,
      tag: 'p',
      role: 'paragraph',
      text: { exact: 'Dedicated support', prefix: ' goodReply LikeLooks goodReply LikePlansDedicated supportPricing' },
      classes: ['plan'],
      context: {
        parent:
          'Invoice 1041 Archive Delete Invoice 1042 Archive Delete Invoice 1043 Archive Delete Looks good Reply Like Looks good Rep',
        previous: 'Pricing',
      },
      twins: 1,
      twinsBefore: 1,
      twinsByQuote: 'before',
      alikes: 1,
      alikesBefore: 1,
      kin: 2,
      textCount: 2,
      position: { left: 8, top: 475, width: 1264, height: 19, viewportWidth: 1280, viewportHeight: 720 },
    },
  ];
  const EARLIER_PINNED = ['tr:nth-child(2) button', 'li.comment:nth-child(2) button', 'p.plan:last-of-type'];

  test('anchors recorded by the release before are found, unchanged and after their twins were reordered; recorded alike today', async () => {
    const changes = [
      '',
      "const rows = document.querySelector('tbody'); rows.append(...[...rows.children].reverse());",
      "const list = document.querySelector('ul.comments'); list.append(...[...list.children].reverse());",
    ];
    for (const change of changes) {
      await page.setContent(`<!doctype html><html><body>${EARLIER_PAGE}</body></html>`);
      await page.addScriptTag({ content: script });
      const found = await page.evaluate(
        ([anchors, pinned, changeSource]) => {
          const { describeElement, resolveAnchor } = (window as any).anchoring;
          const targets = pinned.map((selector) => document.querySelector(selector) as Element);
          const today = targets.map((el) => {
            const { position, ...anchor } = describeElement(el);
            return JSON.parse(JSON.stringify(anchor));
          });
          for (const el of targets) (el as any).__pinned = true;
          new Function(changeSource)();
          const where = anchors.map((anchor, i) => {
            const element = resolveAnchor(anchor, document)?.element;
            return element === targets[i] ? 'same' : element ? `another: ${element.outerHTML}` : 'nothing';
          });
          return { where, today };
        },
        [EARLIER_ANCHORS, EARLIER_PINNED, change] as const,
      );
      assert.deepEqual(found.where, ['same', 'same', 'same'], change || 'unchanged');
      if (!change) {
        const earlier = EARLIER_ANCHORS.map(({ position, ...anchor }) => anchor);
        assert.deepEqual(found.today, earlier);
      }
    }
  });

  const ICONS = `<nav><a href="/home">Home <i class="fa fa-home"></i><i class="fa fa-caret-down"></i></a>
    <a href="/shop">Shop <i class="fa fa-shop"></i><i class="fa fa-caret-down"></i></a></nav>`;

  test('a state class added (is-active) and a class dropped: the icon is still told from its neighbour', async () => {
    assert.equal(
      await afterChange(ICONS, 'a[href="/home"] .fa-home', "el.classList.remove('fa'); el.classList.add('is-active');"),
      'same',
    );
  });

  test('pinned while it was open, found once it is closed; pinned closed, found open', async () => {
    const menu = `<ul><li class="item open"><button>Account</button></li><li class="item"><button>Orders</button></li></ul>`;
    assert.equal(await afterChange(menu, 'li.open', "el.classList.remove('open');"), 'same');
    assert.equal(await afterChange(menu, 'li:not(.open)', "el.classList.add('active', 'is-selected');"), 'same');
  });

  test('a class that says what it is, changed, still leaves nothing to guess between look-alikes', async () => {
    assert.equal(
      await afterChange(ICONS, 'a[href="/home"] .fa-home', "el.classList.replace('fa-home', 'fa-caret-down');"),
      'nothing',
    );
  });

  /** Four rows alike in every way but their place: the same button, the same text around it. */
  const TWINS = `<ul class="rows">${'<li><button class="row-action" type="button">Archive</button></li>'.repeat(4)}</ul>`;
  const addFirst = `el.closest('ul').insertAdjacentHTML('afterbegin', '<li><button class="row-action" type="button">Restore</button></li>');`;

  test('twins are told apart by their order while there are as many: not by the place a new item shifted', async () => {
    // The path that found the third row's button now finds the second's.
    assert.equal(await afterChange(TWINS, 'li:nth-of-type(3) > button', addFirst), 'same');
    assert.equal(
      await afterChange(
        TWINS,
        'li:nth-of-type(2) > button',
        "el.replaceWith(Object.assign(document.createElement('span'), { className: 'wrap' })); document.querySelector('.wrap').append(el);",
      ),
      'same',
    );
  });

  // Two accordions with the same questions, each under its own id.
  const questions = [1, 2, 3]
    .map(
      (n) => `<div class="item"><h3 class="question">Question #${n}</h3><div class="answer">Answer ${n}.</div></div>`,
    )
    .join('');
  const FAQ = `<h2>Account and billing</h2><div class="accordion" id="billing">${questions}</div><h2>Website issues</h2><div class="accordion" id="website">${questions}</div>`;

  test('of twins, the one its selector finds within what holds no other twin is it, once its section moved; not among twins of one list', async () => {
    const moved = "const section = el.closest('.accordion'); section.parentElement.prepend(section);";
    assert.equal(await afterChange(FAQ, '#website > div:nth-of-type(1) > h3', moved), 'same');
    // A table's footer repeating its header, moved above it.
    const row = '<tr><th>Name</th><th>Office</th><th>Age</th></tr>';
    const table = `<table><thead>${row}</thead><tbody><tr><td>Tiger Nixon</td><td>Edinburgh</td><td>61</td></tr></tbody><tfoot>${row}</tfoot></table>`;
    assert.equal(
      await afterChange(table, 'tfoot th:nth-of-type(2)', "el.closest('table').prepend(el.closest('tfoot'));"),
      'same',
    );
    // Within one id's list, a place shifted by an item added first names another twin: their order decides.
    const list = TWINS.replace('<ul class="rows">', '<ul class="rows" id="rows">');
    assert.equal(await afterChange(list, '#rows > li:nth-of-type(3) > button', addFirst), 'same');
  });

  // Two cards each showing a table under its title: their header rows are twins.
  const table =
    '<table><thead><tr><th>ID</th><th>User</th></tr></thead><tbody><tr><td>183</td><td>John Doe</td></tr></tbody></table>';
  const CARDS = `<div class="cards">${['Invoices paid in the last quarter', 'Invoices waiting for an approval']
    .map((title) => `<div class="card"><h3>${title}</h3>${table}</div>`)
    .join('')}</div>`;

  test('of twins, the one with the pinned text just before and after it is it, once their items were reordered', async () => {
    const reversed = "const cards = el.closest('.cards'); cards.append(...[...cards.children].reverse());";
    assert.equal(await afterChange(CARDS, 'div.card:nth-of-type(2) thead > tr', reversed), 'same');
    assert.equal(await afterChange(CARDS, 'div.card:nth-of-type(1) thead > tr', reversed), 'same');
    // Removed with its card, it is not found on the other card's.
    assert.equal(
      await afterChange(CARDS, 'div.card:nth-of-type(2) thead > tr', `${reversed} el.closest('.card').remove();`),
      'nothing',
    );
  });

  // A table whose rows end in the same words, status and note: the notes are twins (the same
  // text around them), each in its own row, the text just before each the same.
  const ROWS = `<table><tbody>${[
    ['183', 'John Doe'],
    ['219', 'Alexander Pierce'],
    ['657', 'Bob Doe'],
    ['175', 'Mike Doe'],
  ]
    .map(
      ([id, name]) =>
        `<tr><td>${id}</td><td>${name}</td><td>Bacon ipsum dolor sit amet salami venison</td><td><span class="status">Pending</span> <p class="note">Awaiting approval</p></td></tr>`,
    )
    .join('')}</tbody></table>`;

  test('of twins, the one in the row or card whose text told it from theirs is it, once their order changed', async () => {
    const reversed = "const body = el.closest('tbody'); body.append(...[...body.children].reverse());";
    const note = 'tr:nth-of-type(2) p';
    assert.equal(await afterChange(ROWS, note, reversed), 'same');
    assert.equal(await afterChange(ROWS, 'tr:nth-of-type(4) p', reversed), 'same');
    // Its row moved to the top, and one added first: still its row's.
    assert.equal(await afterChange(ROWS, note, "el.closest('tbody').prepend(el.closest('tr'));"), 'same');
    // Removed with its row, it is not found in another.
    assert.equal(await afterChange(ROWS, note, `${reversed} el.closest('tr').remove();`), 'nothing');
  });

  test('of twins in items whose text is all the same, the one in the item shaped otherwise (a comment with a reply, an article with another picture) is it, once their order changed', async () => {
    const comment = (replies = '') =>
      `<li><article><p class="who">Author</p><p>Same words every time</p><a href="#">Reply</a></article>${replies}</li>`;
    const thread = `<ul class="comments">${comment()}${comment(`<ul>${comment()}</ul>`)}${comment()}${comment()}</ul><p>End of the thread</p>`;
    const reversed = "const list = document.querySelector('.comments'); list.append(...[...list.children].reverse());";
    // The comment with a reply, and the reply itself.
    assert.equal(await afterChange(thread, '.comments > li:nth-of-type(2) > article > a', reversed), 'same');
    assert.equal(await afterChange(thread, '.comments ul a', reversed), 'same');
    // Removed with its comment, it is not found in another.
    assert.equal(await afterChange(thread, '.comments ul a', `${reversed} el.closest('li').remove();`), 'nothing');
    // A reply to a comment alike but for where it stands: the other is a reply itself.
    const deep = `<ul class="comments">${comment()}${comment(`<ul>${comment(`<ul>${comment()}</ul>`)}</ul>`)}${comment()}${comment(`<ul>${comment()}</ul>`)}</ul><p>End of the thread</p>`;
    assert.equal(await afterChange(deep, '.comments > li:nth-of-type(4) ul a', reversed), 'same');
    // Articles alike but for their picture.
    const article = (picture: string) =>
      `<article><img src="${picture}" alt=""><h2>Heading</h2><p>Same words every time</p><a href="#">Read more</a></article>`;
    const blog = `<div class="blog">${['sea.jpg', 'hills.jpg', 'town.jpg'].map(article).join('')}</div><p>End of the blog</p>`;
    const blogReversed = "const blog = document.querySelector('.blog'); blog.append(...[...blog.children].reverse());";
    assert.equal(await afterChange(blog, 'article:nth-of-type(1) a', blogReversed), 'same');
  });

  test('of twins, where the element whose text told it from theirs held some of them too, the one at its rank there', async () => {
    // Two code samples alike but for their captions: each "li" token is a twin of three others.
    const li = '<span class="tag">&lt;<span class="name">li</span>&gt;</span>Same text here&lt;/li&gt;';
    const samples = ['Marks for a list of fruit', 'Marks for a list of tools']
      .map(
        (title) =>
          `<figure><figcaption>${title}</figcaption><pre><code>&lt;ul&gt;\n${li}\n${li}\n&lt;/ul&gt;</code></pre><p>Copy the markup above.</p></figure>`,
      )
      .join('');
    const token = 'figure:nth-of-type(2) code > span:nth-of-type(2) > .name';
    const moved = "const figure = el.closest('figure'); figure.parentElement.prepend(figure);";
    assert.equal(await afterChange(samples, token, moved), 'same');
    // One token more in its sample, and its rank there says nothing: the order of all decides.
    assert.equal(
      await afterChange(samples, token, `${moved} el.closest('code').append(el.parentElement.cloneNode(true));`),
      'nothing',
    );
  });

  test('of twins, a side of the text around that another twin had too does not tell them apart', async () => {
    // "Add to cart Sale" stands before both "Sale Item" titles; what follows each differs.
    const card = (title: string, badge = '') =>
      `<div class="card">${badge}<div class="body"><h5 class="title">${title}</h5><p class="price">$50.00</p></div><button type="button">Add to cart</button></div>`;
    const shop = `<div class="shop">${[
      card('Special Item'),
      card('Sale Item', '<span class="badge">Sale</span>'),
      card('Popular Item'),
      card('Sale Item', '<span class="badge">Sale</span>'),
      card('Fancy Product'),
    ].join('')}</div>`;
    // Its badge moved to the end of its card: nothing around it is as it was, and its order still holds.
    const badgeMoved = "const card = el.closest('.card'); card.append(card.querySelector('.badge'));";
    assert.equal(await afterChange(shop, 'div.card:nth-of-type(2) h5', badgeMoved), 'same');
  });

  test('the one twin that changed (a class, its tag) is found where it stood among them; removed, it is not', async () => {
    assert.equal(await afterChange(TWINS, 'li:nth-of-type(2) > button', "el.classList.remove('row-action');"), 'same');
    assert.equal(
      await afterChange(
        TWINS,
        'li:nth-of-type(3) > button',
        "const a = document.createElement('a'); a.className = 'row-action'; a.textContent = el.textContent; el.replaceWith(a); a.__pinned = true;",
      ),
      'same',
    );
    assert.equal(await afterChange(TWINS, 'li:nth-of-type(2) > button', 'el.remove();'), 'nothing');
    // One twin more or fewer: their order no longer says which.
    assert.equal(
      await afterChange(TWINS, 'li:nth-of-type(2) > button', "el.closest('ul').lastElementChild.remove();"),
      'nothing',
    );
  });

  test('a twin in a passing state (is-active) is still one of the twins, told apart by its order', async () => {
    assert.equal(await afterChange(TWINS, 'li:nth-of-type(2) > button', "el.classList.add('is-active');"), 'same');
  });

  // Two menus alike in every way: each item has a twin in the other menu.
  const MENUS = `${'<div class="dropdown-menu"><h6>Reports</h6><a class="dropdown-item" href="#">Action</a><a class="dropdown-item" href="#">Another action</a></div>'.repeat(2)}`;
  const addToMenu = (menu: number) =>
    `document.querySelectorAll('.dropdown-menu')[${menu}].querySelector('h6').insertAdjacentHTML('afterend', '<a class="dropdown-item" href="#">Settings</a>');`;

  test('twins whose surroundings changed (an item added beside one) are told apart by their order among look-alikes', async () => {
    const second = '.dropdown-menu:nth-of-type(2) > a:nth-of-type(1)';
    assert.equal(await afterChange(MENUS, second, addToMenu(1)), 'same');
    assert.equal(await afterChange(MENUS, second, addToMenu(0)), 'same');
    assert.equal(await afterChange(MENUS, '.dropdown-menu:nth-of-type(1) > a:nth-of-type(1)', addToMenu(1)), 'same');
    // Removed, its twin is not taken for it, although fewer look so than when it was pinned;
    // the item added in its place, made as it was, reads as it reworded ("moved?").
    assert.equal(
      await afterChange(MENUS, second, `${addToMenu(1)} el.remove();`),
      'another: <a class="dropdown-item" href="#">Settings</a>',
    );
    assert.equal(await afterChange(MENUS, second, 'el.remove();'), 'nothing');
  });

  test('a twin whose surroundings changed is found by its order even where many unchanged twins rank ahead of it', async () => {
    // Thirty menus alike: the pinned item's twins, unchanged, fill the candidates compared in full.
    const menus = MENUS.repeat(15);
    const pinned = '.dropdown-menu:nth-of-type(20) > a:nth-of-type(1)';
    assert.equal(await afterChange(menus, pinned, addToMenu(19)), 'same');
    // Removed, with an item added in its place: that item, not an unchanged twin.
    assert.equal(
      await afterChange(menus, pinned, `${addToMenu(19)} el.remove();`),
      'another: <a class="dropdown-item" href="#">Settings</a>',
    );
    assert.equal(await afterChange(menus, pinned, 'el.remove();'), 'nothing');
  });

  test('among more than a thousand look-alikes, an element late in the page still has all its twins counted', async () => {
    const rows = Array.from({ length: 1200 }, (_, i) => `<p><a href="#">Item</a> of list ${i % 2 ? 'A' : 'B'}</p>`);
    assert.equal(await afterChange(rows.join(''), 'p:nth-of-type(1101) > a', ''), 'same');
  });

  const CHEVRONS = `<nav><a href="/home">Home <i class="chevron"></i></a> <a href="/shop">Shop <i class="chevron"></i></a></nav>`;

  test('an icon whose only class a build dropped is found; an icon with a class of its own is not taken for a removed one', async () => {
    const dropped = "el.classList.remove('chevron'); el.classList.add('is-active');";
    assert.equal(await afterChange(CHEVRONS, 'a[href="/shop"] i', dropped), 'same');
    const pair = `<nav><a href="/home">Home <i class="icon-home"></i><i class="caret"></i></a></nav>`;
    assert.equal(await afterChange(pair, '.icon-home', 'el.remove();'), 'nothing');
  });

  test('its tag changed, an element is not told apart from the block inside it with the same text', async () => {
    const page = `<main><h2>Intro</h2><section id="reviews"><div>From the community: used by many teams since 2014.</div></section><p>Questions</p></main>`;
    const retag =
      "const d = document.createElement('div'); for (const a of el.attributes) d.setAttribute(a.name, a.value); d.append(...el.childNodes); el.replaceWith(d); d.__pinned = true;";
    assert.equal(await afterChange(page, '#reviews', retag), 'same');
  });

  test('the one twin whose tag changed is found beside look-alikes of another kind with the same text', async () => {
    // Each article's lead says what its paragraph says; the paragraphs are twins, the leads too.
    const articles =
      '<article><h2>Heading</h2><p class="lead">Lorem ipsum dolor sit amet.</p><p>Lorem ipsum dolor sit amet.</p></article>'.repeat(
        3,
      );
    const toDiv =
      "const d = document.createElement('div'); for (const a of el.attributes) d.setAttribute(a.name, a.value); d.append(...el.childNodes); el.replaceWith(d); d.__pinned = true;";
    assert.equal(await afterChange(articles, 'article:nth-of-type(2) > p:not(.lead)', toDiv), 'same');
  });

  test('removed, an image is not found on another showing the same picture elsewhere', async () => {
    const page = `<header><img src="/logo.png" alt=""> <span>Acme</span> <a href="/plans">Plans</a></header><main><p>${'Text of the page. '.repeat(20)}</p></main><footer><img src="/logo.png" alt=""> <small>Made in 2026</small></footer>`;
    assert.equal(await afterChange(page, 'header img', 'el.remove();'), 'nothing');
    assert.equal(
      await afterChange(page, 'header img', "el.closest('header').prepend(document.createElement('hr'));"),
      'same',
    );
  });

  // Items alike but for their first word: a removed one's neighbour takes its place, and its
  // text is nearly the pinned one's.
  const ROLES = `<ul>${['Spin', 'Shout', 'Flick', 'Pull', 'Shake', 'Press', 'Snap', 'Zoom', 'Work']
    .map(
      (verb) =>
        `<li><a class="list-link" href="#">${verb} it (Senior customer experience enhancement consultant)</a></li>`,
    )
    .join('')}</ul>`;

  test('removed, its element is not found on the neighbour that took its place; its text edited, it is', async () => {
    for (const pinned of ['li:nth-of-type(2) > a', 'li:nth-of-type(5) > a', 'li:nth-of-type(7) > a']) {
      assert.equal(await afterChange(ROLES, pinned, "el.closest('li').remove();"), 'nothing', pinned);
      assert.equal(
        await afterChange(ROLES, pinned, "el.textContent = el.textContent.replace('customer', 'updated');"),
        'same',
        pinned,
      );
    }
  });

  // Cards alike, each a table under a title; the titles differ by a few words.
  const TABLES = ['DataTable with minimal features & hover style', 'DataTable with default features']
    .map(
      (title) =>
        `<section class="card"><h3 class="card-title">${title}</h3><table><tr><th>Engine</th><th>Browser</th></tr><tr><td>Trident</td><td>IE 5</td></tr></table></section>`,
    )
    .join('');

  test('removed, an element is not found on one of its kind with other words in its place; its words edited, it is', async () => {
    const pinned = 'section:nth-of-type(1) > h3';
    assert.equal(await afterChange(TABLES, pinned, "el.closest('section').remove();"), 'nothing');
    assert.equal(
      await afterChange(TABLES, pinned, "el.textContent = 'DataTable with few features & hover style';"),
      'same',
    );
  });

  test('an icon button known by its id is found once a build made up its ids, and not once it is removed', async () => {
    const bar = `<nav><a href="/">Start</a><form><input aria-label="Search for" placeholder="Search for…"><button id="btnNavbarSearch" class="btn btn-primary" type="button"><i class="fas fa-search"></i></button></form><ul><li><a href="/settings">Settings</a></li><li><a href="/log">Activity Log</a></li></ul></nav><main><h1>Quarterly report</h1><p>Figures of the last three months.</p><button id="btnSave" class="btn btn-secondary" type="button"><i class="fas fa-save"></i></button></main>`;
    const renumber = "let n = 0; for (const e of document.querySelectorAll('[id]')) e.id = ':r' + (n += 1) + ':';";
    assert.equal(await afterChange(bar, '#btnNavbarSearch', renumber), 'same');
    assert.equal(await afterChange(bar, '#btnNavbarSearch', `${renumber} el.remove();`), 'nothing');
  });

  // Menus of many alike items ("Item" in every one): the pinned one has twins in every menu.
  const ITEM_MENUS =
    `<nav><ul>${'<li><a href="#">Item</a></li>'.repeat(3)}<li><a href="#">Parent</a></li></ul></nav>`.repeat(5);

  test('one of many alike items, its text edited or its tag changed, is found by its place among them; removed, it is not', async () => {
    const toButton =
      "const button = document.createElement('button'); button.textContent = el.textContent; button.__pinned = true; el.replaceWith(button);";
    for (const pinned of ['nav:nth-of-type(2) li:nth-of-type(2) > a', 'nav:nth-of-type(5) li:nth-of-type(3) > a']) {
      assert.equal(await afterChange(ITEM_MENUS, pinned, "el.textContent = 'Item now';"), 'same', pinned);
      assert.equal(await afterChange(ITEM_MENUS, pinned, "el.textContent = 'Items';"), 'same', pinned);
      // Its list item, like the others, is not what it became.
      assert.equal(await afterChange(ITEM_MENUS, pinned, toButton), 'same', pinned);
      assert.equal(await afterChange(ITEM_MENUS, pinned, "el.closest('li').remove();"), 'nothing', pinned);
    }
  });

  // The same, the words after the verb in a span only screen readers show (a summary list's
  // "Change<span> name</span>" links): a text in several pieces, its first short.
  const ROLES_HIDDEN = ROLES.replace(/">(\w+) it \(/g, '">$1<span class="visually-hidden"> it (').replace(
    /\)<\/a>/g,
    ')</span></a>',
  );

  test('its class changed, an element is told from neighbours alike but for a word: they do not show its text', async () => {
    for (const markup of [ROLES, ROLES_HIDDEN]) {
      for (const pinned of ['li:nth-of-type(3) > a', 'li:nth-of-type(8) > a']) {
        const restyled = "el.classList.remove('list-link'); el.classList.add('is-active');";
        assert.equal(await afterChange(markup, pinned, restyled), 'same', pinned);
        assert.equal(await afterChange(markup, pinned, `${restyled} el.closest('li').remove();`), 'nothing', pinned);
      }
    }
  });

  // A shop's cards: each product's button says the same, its card says which product. The
  // last card's removed, the card before it ends where it ended, before the footer.
  const SHOP = `<section>${[
    ['Fancy Product', '$40.00 - $80.00'],
    ['Special Item', '$20.00 $18.00'],
    ['Sale Item', '$50.00 $25.00'],
    ['Popular Item', '$40.00'],
  ]
    .map(
      ([name, price]) =>
        `<div class="card"><div class="card-body"><h5>${name}</h5>${price}</div><div class="card-footer"><a class="btn btn-outline-dark" href="#">Add to cart</a></div></div>`,
    )
    .join('')}</section><footer>Copyright © Shop 2026</footer>`;

  test('removed with its card, a button is not found on another card whose button says the same; edited, it is', async () => {
    for (const pinned of ['div.card:nth-of-type(2) a', 'div.card:nth-of-type(4) a']) {
      assert.equal(await afterChange(SHOP, pinned, "el.closest('.card').remove();"), 'nothing', pinned);
      assert.equal(
        await afterChange(SHOP, pinned, "el.closest('.card').previousElementSibling.remove();"),
        'same',
        pinned,
      );
      assert.equal(await afterChange(SHOP, pinned, "el.textContent = 'Add to cart now';"), 'same', pinned);
    }
  });

  // A shop's products as a starter template shows them: the same product twice ("Sale Item"),
  // its old price struck through; the cards alike but for their words.
  const PRODUCTS = `<section class="row">${[
    ['Fancy Product', '$40.00 - $80.00'],
    ['Special Item', '<span class="text-muted text-decoration-line-through">$20.00</span> $18.00'],
    ['Sale Item', '<span class="text-muted text-decoration-line-through">$50.00</span> $25.00'],
    ['Popular Item', '$40.00'],
    ['Sale Item', '<span class="text-muted text-decoration-line-through">$50.00</span> $25.00'],
    ['Special Item', '<span class="text-muted text-decoration-line-through">$20.00</span> $18.00'],
  ]
    .map(
      ([name, price]) =>
        `<div class="col"><div class="card"><img class="card-img-top" src="/product.jpg" alt="..."><div class="card-body p-4"><div class="text-center"><h5 class="fw-bolder">${name}</h5>${price}</div></div><div class="card-footer"><div class="text-center"><a class="btn btn-outline-dark" href="#">Add to cart</a></div></div></div></div>`,
    )
    .join('')}</section><footer>Copyright © Shop 2026</footer>`;

  test('of a product shown twice, the one whose price was edited or whose class changed is found; removed, it is not', async () => {
    const price = 'div.col:nth-of-type(3) span';
    assert.equal(await afterChange(PRODUCTS, price, "el.textContent = '$50.00 now';"), 'same');
    assert.equal(await afterChange(PRODUCTS, price, "el.closest('.col').remove();"), 'nothing');
    const details = 'div.col:nth-of-type(3) .card-body > div';
    assert.equal(await afterChange(PRODUCTS, details, "el.className = 'is-active';"), 'same');
    assert.equal(await afterChange(PRODUCTS, details, "el.closest('.col').remove();"), 'nothing');
  });

  // Highlighted code: one `class` attribute on every line, the lines alike but for a comment
  // and a string.
  const CODE = `<h2>Text utilities</h2><pre class="code"><code>${[
    'left',
    'center',
    'right',
    'justify',
    'lowercase',
    'uppercase',
    'capitalize',
    'normal',
    'bold',
    'italic',
    'muted',
    'large',
    'small',
    'tiny',
    'ellipsis',
    'clip',
    'break',
  ]
    .map(
      (name) =>
        `<span class="hljs-comment">&lt;!-- ${name} text --&gt;</span>\n<span class="hljs-tag">&lt;<span class="hljs-name">div</span> <span class="hljs-attr">class</span>=<span class="hljs-string">"text-${name}"</span>&gt;</span><span class="hljs-tag">&lt;/<span class="hljs-name">div</span>&gt;</span>\n`,
    )
    .join('')}</code></pre><p>Utilities for text.</p>`;

  test('one of many alike words in code, edited or its class changed, is found by its place; removed, it is not', async () => {
    const attribute = 'code > span:nth-of-type(35) > span:nth-of-type(2)';
    assert.equal(await afterChange(CODE, attribute, "el.textContent = 'class now';"), 'same');
    assert.equal(await afterChange(CODE, attribute, "el.className = 'is-active';"), 'same');
    assert.equal(await afterChange(CODE, attribute, 'el.remove();'), 'nothing');
    assert.equal(await afterChange(CODE, attribute, 'el.parentElement.remove();'), 'nothing');
  });

  // Lines of code alike but for a file name: each `rel` is known by the line around it.
  const STYLESHEETS = ['', 'https://unpkg.com/dist/']
    .map(
      (base) =>
        `<pre class="code"><code>${['main.min.css', 'extras.min.css', 'icons.min.css']
          .map(
            (file) =>
              `<span class="hljs-tag">&lt;<span class="hljs-name">link</span> <span class="hljs-attr">rel</span>=<span class="hljs-string">"stylesheet"</span> <span class="hljs-attr">href</span>=<span class="hljs-string">"${base}${file}"</span>&gt;</span>`,
          )
          .join('\n')}</code></pre>`,
    )
    .join('<p>Or from a CDN:</p>');
  const lineBefore =
    "const line = el.parentElement; const copy = line.cloneNode(true); copy.lastElementChild.textContent = '\"print.min.css\"'; line.before(copy, '\\n');";

  test('a line like the pinned one inserted before it: the element with the pinned line around it is found', async () => {
    const rel = 'pre:nth-of-type(1) > code > span:nth-of-type(2) > span:nth-of-type(2)';
    assert.equal(await afterChange(STYLESHEETS, rel, lineBefore), 'same');
    // Removed with its whole line, it is found on the next line's: a limit (bench/README.md).
    assert.equal(await afterChange(STYLESHEETS, rel, 'el.remove();'), 'nothing');
  });

  // A button in three sizes: the same text, a class more for each size.
  const SIZES = `<h2>Sizes</h2><form class="sizes">${['', ' btn-large', ' btn-small']
    .map(
      (size) =>
        `<div class="field"><label>Size${size}</label> <button class="btn btn-default${size}" type="button">Button</button></div>`,
    )
    .join('')}</form><p>Buttons come in three sizes.</p>`;

  test('the one element that still looks as the pinned one did is found beside others with a class more; removed, it is not', async () => {
    const plain = 'div.field:nth-of-type(1) > button';
    const reversed = "const form = el.closest('form'); form.append(...[...form.children].reverse());";
    assert.equal(await afterChange(SIZES, plain, reversed), 'same');
    assert.equal(await afterChange(SIZES, plain, `${reversed} el.remove();`), 'nothing');
  });

  // A search button with an icon only, the nearest text four levels up.
  const SEARCH = `<aside class="sidebar"><p>Projects</p><form class="search"><div class="group"><input type="search" aria-label="Find"><div class="append"><button class="btn btn-find" type="submit"><i class="icon icon-search"></i></button></div></div></form><p>Settings</p></aside>`;

  test('an element without text, alone holding what it held, is found once wrapped beyond the reach of the text around it', async () => {
    const button = 'button.btn-find';
    const wrapped = "const wrap = document.createElement('span'); el.replaceWith(wrap); wrap.append(el);";
    assert.equal(await afterChange(SEARCH, button, wrapped), 'same');
    assert.equal(await afterChange(SEARCH, button, `${wrapped} el.remove();`), 'nothing');
  });

  // Plans listing features: one greyed out where the plan lacks it, another with a list of its own.
  const PLANS = `<div class="plans">${[
    ['Free', ['3 users', 'Unlimited projects', 'Dedicated support', 'Custom domain'], ' text-muted'],
    ['Pro', ['5 users', 'Unlimited projects', 'Dedicated support', 'Custom domain'], ''],
    ['Team', ['Unlimited users', 'Single sign-on', 'Dedicated support', 'Audit log'], ''],
  ]
    .map(
      ([plan, features, lacking]) =>
        `<div class="plan"><h3>${plan}</h3><ul>${(features as string[])
          .map((feature) => `<li class="feature${feature === 'Dedicated support' ? lacking : ''}">${feature}</li>`)
          .join('')}</ul></div>`,
    )
    .join('')}</div>`;

  test('of several still looking as the pinned one did, as many as then, the one at its rank is found, not one with a class more', async () => {
    const pro = 'div.plan:nth-of-type(2) li:nth-of-type(3)';
    const inserted = "el.insertAdjacentHTML('beforebegin', '<li class=\"feature\">Priority queue</li>');";
    const reversed = 'const list = el.parentElement; list.append(...[...list.children].reverse());';
    assert.equal(await afterChange(PLANS, pro, inserted), 'same');
    assert.equal(await afterChange(PLANS, pro, reversed), 'same');
  });

  test('removed, an element is not found on one showing its text with a class more, the same feature greyed out', async () => {
    const pro = 'div.plan:nth-of-type(2) li:nth-of-type(3)';
    assert.equal(await afterChange(PLANS, pro, 'el.remove();'), 'nothing');
    assert.equal(await afterChange(PLANS, pro, "el.classList.add('text-muted');"), 'same');
  });

  // Colour swatches: alike but for what they hold, a choice's value, an icon; no text of their own.
  const SWATCHES = `<h2>Colour</h2><div class="row">${['dark', 'teal', 'blue', 'red']
    .map(
      (colour) =>
        `<div class="col-auto"><label class="swatch"><input name="color" type="checkbox" value="${colour}" class="swatch-input"><span class="swatch-color bg-${colour}"></span></label></div>`,
    )
    .join('')}</div><p class="share">${['twitter', 'github']
    .map((brand) => `<a href="#!"><i class="icon icon-${brand}"></i></a>`)
    .join(' ')}</p>`;

  test('elements without text, alike but for what they hold (a value, an icon), are told apart by it once reordered', async () => {
    const reversed = "const row = el.closest('.row'); row.append(...[...row.children].reverse());";
    const addFirst = `el.closest('.row').insertAdjacentHTML('afterbegin', '<div class="col-auto"><label class="swatch"><input name="color" type="checkbox" value="green" class="swatch-input"></label></div>');`;
    const swatch = 'div.col-auto:nth-of-type(2)';
    assert.equal(await afterChange(SWATCHES, swatch, reversed), 'same');
    assert.equal(await afterChange(SWATCHES, swatch, addFirst), 'same');
    assert.equal(await afterChange(SWATCHES, `${swatch} input`, reversed), 'same');
    assert.equal(await afterChange(SWATCHES, `${swatch} input`, `${reversed} el.remove();`), 'nothing');
    assert.equal(await afterChange(SWATCHES, swatch, `${reversed} el.remove();`), 'nothing');
    const share = 'p.share > a:nth-of-type(2)';
    assert.equal(await afterChange(SWATCHES, share, 'el.parentElement.prepend(el);'), 'same');
  });

  test('an icon button whose icon changed with its state (a menu opened) is still found', async () => {
    const toggle = `<nav><a class="brand" href="/">Shop</a><button class="toggler" type="button"><i class="icon icon-menu"></i></button><ul><li>Home</li><li>Cart</li></ul></nav>`;
    assert.equal(
      await afterChange(toggle, 'button.toggler', "el.querySelector('i').className = 'icon icon-close';"),
      'same',
    );
  });

  // A shop's cards, alike but for their words, as a fix finds them: one price, one label changed.
  const BAKERY = [
    ['Croissant', '€1.90'],
    ['Pain au chocolat', '€2.20'],
    ['Brioche', '€2.50'],
  ]
    .map(
      ([name, price], i) =>
        `<div class="card"><img class="photo" src="/img/${i}.jpg" alt="${name}, fresh from the oven"><h3>${name}</h3>` +
        `<p class="price">${price}</p><input class="note" name="note-${i}" placeholder="A note for the baker">` +
        `<button class="order" id="order-${i}">Order now</button></div>`,
    )
    .join('');

  test("an element whose words a fix replaced, made as it was and in its place, is found: a price, a button's label, an image's alternative text, a field's placeholder", async () => {
    const first = '.card:nth-of-type(1)';
    assert.equal(await afterChange(BAKERY, `${first} .price`, "el.textContent = '€2.10';"), 'same');
    assert.equal(await afterChange(BAKERY, '#order-1', "el.textContent = 'Place your order';"), 'same');
    assert.equal(await afterChange(BAKERY, `${first} img`, "el.alt = 'A golden croissant';"), 'same');
    assert.equal(await afterChange(BAKERY, `${first} input`, "el.placeholder = 'Anything we should know?';"), 'same');
    // Shipped in a new build too: classes hashed, ids made up.
    const rebuilt =
      "for (const e of document.querySelectorAll('[class]')) e.className = e.className.split(' ').map((c) => c + '__x8k2q').join(' ');" +
      "for (const e of document.querySelectorAll('[id]')) e.id = ':r' + e.id.length + ':';";
    assert.equal(await afterChange(BAKERY, `${first} .price`, `el.textContent = '€2.10'; ${rebuilt}`), 'same');
    // A fixed comment expects it: found without doubt.
    await page.setContent(`<!doctype html><html><body>${BAKERY}</body></html>`);
    await page.addScriptTag({ content: script });
    const sure = await page.evaluate(() => {
      const { describeElement, resolveAnchor } = (window as any).anchoring;
      const el = document.querySelector('.card:nth-of-type(2) .price') as Element;
      const anchor = describeElement(el);
      el.textContent = '€3.75';
      return [
        resolveAnchor(anchor, document)?.confidence,
        resolveAnchor(anchor, document, { fixed: true })?.confidence,
      ];
    });
    assert.deepEqual(sure, ['doubtful', 'sure']);
  });

  test('removed, or its card removed, the element is not taken for a look-alike in its place; nor one made otherwise', async () => {
    assert.equal(await afterChange(BAKERY, '.card:nth-of-type(1) .price', 'el.remove();'), 'nothing');
    assert.equal(await afterChange(BAKERY, '.card:nth-of-type(2) .price', "el.closest('.card').remove();"), 'nothing');
    assert.equal(await afterChange(BAKERY, '#order-1', 'el.remove();'), 'nothing');
    // Reworded and made otherwise (a link now, another class): not it, whatever its place.
    assert.equal(
      await afterChange(BAKERY, '#order-1', 'el.outerHTML = \'<a class="order" href="/order">Place your order</a>\';'),
      'nothing',
    );
  });

  test('reworded beside look-alikes with the same text around them, it is found by its place, not by a look-alike whose words are like its old ones', async () => {
    // Sections alike but for their headings, one heading's words like the pinned one's.
    const sections = ['Not animated', 'Not collapsible', 'Multiple open']
      .map((title) => `<div class="section"><h3>${title}</h3><ul><li>Item 1</li><li>Item 2</li></ul></div>`)
      .join('');
    assert.equal(await afterChange(sections, '.section:nth-of-type(1) h3', "el.textContent = 'Smooth';"), 'same');
  });

  test('of a fixed comment, an element whose words the fix kept while it changed what is around it is shown without doubt', async () => {
    await page.setContent(`<!doctype html><html><body><section class="menu"><div class="dish"><h2>Espresso</h2>
      <p class="price">€1.90</p></div><button type="button" id="order">Order now</button><p class="offer">Free refill on Sundays</p>
      </section><div class="plan"><h2>Team</h2><p class="price">$49</p></div></body></html>`);
    await page.addScriptTag({ content: script });
    const confidence = await page.evaluate(() => {
      const { describeElement, resolveAnchor } = (window as any).anchoring;
      const heading = document.querySelector('.dish h2') as Element;
      const anchor = describeElement(heading);
      (document.querySelector('.dish .price') as Element).textContent = '€2.10';
      (document.querySelector('#order') as Element).textContent = 'Place your order';
      document.querySelector('.offer')?.remove();
      return [{}, { fixed: true }].map((expecting) => {
        const resolved = resolveAnchor(anchor, document, expecting);
        return resolved?.element === heading ? resolved.confidence : 'another or nothing';
      });
    });
    assert.deepEqual(confidence, ['doubtful', 'sure']);
  });

  test('of a fixed comment, reworded where the text on one side of it changed too, it is found where its path points', async () => {
    // The name beside the price renamed in the same deploy: one side of the price is another.
    const both = "el.textContent = '€2.10'; el.previousElementSibling.textContent = 'Morning bun';";
    const price = '.card:nth-of-type(1) .price';
    assert.equal(await afterChange(BAKERY, price, both), 'nothing');
    assert.equal(await afterChange(BAKERY, price, both, { fixed: true }), 'same');
    // Not where one of its kind was removed, nor where one was added.
    const removed = `${both} document.querySelector('.card:nth-of-type(3) .price').remove();`;
    assert.equal(await afterChange(BAKERY, price, removed, { fixed: true }), 'nothing');
    const newCard = `document.body.insertAdjacentHTML('beforeend', '<div class="card"><h3>Muffin</h3><p class="price">€3.00</p></div>');`;
    assert.equal(await afterChange(BAKERY, price, `${both} ${newCard}`, { fixed: true }), 'nothing');
    // Removed by the fix, and one of its kind added elsewhere (as many as then): none taken for it.
    assert.equal(await afterChange(BAKERY, price, 'el.remove();', { fixed: true }), 'nothing');
    assert.equal(await afterChange(BAKERY, price, `el.remove(); ${newCard}`, { fixed: true }), 'nothing');
    assert.equal(await afterChange(BAKERY, price, `el.remove(); ${newCard}`), 'nothing');
    assert.equal(await afterChange(BAKERY, '#order-1', 'el.remove();', { fixed: true }), 'nothing');
  });

  test('a lookup cut into many short steps finds what one done at once finds, and notices that its element changed meanwhile', async () => {
    const rows = Array.from(
      { length: 400 },
      (_, i) => `<li class="row"><a href="/items/${i}">Item ${i}</a> <span class="tag">new</span></li>`,
    );
    await page.setContent(`<!doctype html><html><body><ul>${rows.join('')}</ul></body></html>`);
    await page.addScriptTag({ content: script });
    const result = await page.evaluate(() => {
      const { describeElement, finish, Resolver } = (window as any).anchoring;
      const list = document.querySelector('ul') as HTMLElement;
      const pinned = [7, 150, 151, 390].map((i) => list.children[i]?.querySelector('span.tag') as Element);
      const anchors = pinned.map((el) => JSON.parse(JSON.stringify(describeElement(el))));
      // The page changes: a row inserted at the top, one pinned row removed.
      list.insertAdjacentHTML(
        'afterbegin',
        '<li class="row"><a href="/items/new">Item new</a> <span class="tag">new</span></li>',
      );
      pinned[2]?.closest('li')?.remove();
      const atOnce = anchors.map((anchor: unknown) => new Resolver(document).resolve(anchor)?.element ?? null);
      let steps = 0;
      const stepped = anchors.map((anchor: unknown) => {
        const resolver = new Resolver(document);
        resolver.deadline.at = 0; // always due: stops every few elements
        const lookup = resolver.steps(anchor);
        for (let step = lookup.next(); ; step = lookup.next(), steps += 1) {
          if (step.done) return step.value?.element ?? null;
        }
      });
      const reader = new Resolver(document);
      const found = finish(reader.steps(anchors[1])).element as Element;
      const before = reader.readsAsItDid(found);
      found.classList.add('tag-old');
      return {
        same: atOnce.map((el: Element | null, i: number) => el === stepped[i]),
        right: atOnce.map((el: Element | null, i: number) => el === (i === 2 ? null : pinned[i])),
        steps,
        before,
        after: reader.readsAsItDid(found),
      };
    });
    assert.deepEqual(result.same, [true, true, true, true]);
    assert.deepEqual(result.right, [true, true, true, true]);
    assert.ok(result.steps > 40, `${result.steps} steps`);
    assert.equal(result.before, true);
    assert.equal(result.after, false);
  });
});
