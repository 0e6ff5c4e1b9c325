// Runs inside the page (bundled by index.mjs with the widget's anchoring code): picks the
// elements a reviewer would pin, changes the page as deploys and re-renders do, and asks each
// method to find every element again. The element that is the right answer carries a
// property set by this harness (never an attribute: no method can see it).
import { describeElement } from '../../packages/widget/src/anchoring/describe.ts';
import { textAround } from '../../packages/widget/src/anchoring/features.ts';
import { REFUSALS } from '../../packages/widget/src/anchoring/refusals.ts';
import { Resolver } from '../../packages/widget/src/anchoring/resolve.ts';
import { pathSelector } from '../../packages/widget/src/anchoring/selectors.ts';
import { PinTracker } from '../../packages/widget/src/anchoring/track.ts';

const TRUTH = Symbol('truth');

/** A small deterministic random source, so every run changes the pages alike. */
function random(seed) {
  let state = seed >>> 0 || 1;
  return () => {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    return (state >>> 0) / 4294967296;
  };
}

const WORDS =
  'alpha harbour orbit maple quartz signal lantern meadow copper falcon velvet summit ember delta cobalt willow'.split(
    ' ',
  );

function pathOf(el) {
  const path = [];
  for (let node = el; node !== document.body; node = node.parentElement) {
    path.unshift([...node.parentElement.children].indexOf(node));
  }
  return path;
}

function atPath(path) {
  let node = document.body;
  for (const index of path) node = node.children[index];
  return node;
}

const visible = (el) => {
  const r = el.getBoundingClientRect();
  return r.width > 2 && r.height > 2 && el.checkVisibility?.({ visibilityProperty: true }) !== false;
};

const ownText = (el) =>
  [...el.childNodes]
    .filter((n) => n.nodeType === 3)
    .map((n) => n.nodeValue)
    .join('')
    .trim();

const KINDS = [
  ['control', (el) => el.matches('a[href], button, input:not([type=hidden]), select, textarea, [role=button]')],
  ['heading', (el) => el.matches('h1, h2, h3, h4, h5, h6')],
  ['image', (el) => el.matches('img, svg, i[class], span[class*=icon]')],
  ['text', (el) => el.matches('p, li, td, th, span, label, strong, small, dt, dd') && ownText(el).length > 1],
  [
    'block',
    (el) =>
      el.matches('div[class], section, article, li, tr, form') &&
      el.querySelectorAll('*').length >= 2 &&
      el.querySelectorAll('*').length <= 40,
  ],
];

/** Up to `count` elements a reviewer might pin, of every kind, chosen by `rand`. */
function pickTargets(count, rand) {
  const all = [...document.body.querySelectorAll('*')].filter(
    (el) => !el.closest('script, style, noscript, template, head') && visible(el),
  );
  const byKind = KINDS.map(([kind, test]) => [kind, all.filter(test)]);
  const chosen = new Set();
  for (let round = 0; chosen.size < count && round < count * 4; round += 1) {
    const [, pool] = byKind[round % byKind.length];
    if (pool.length) chosen.add(pool[Math.floor(rand() * pool.length)]);
  }
  return [...chosen];
}

/** The nearest ancestor-or-self that is one of several like it (a list item, a card, a row: same tag, same classes). */
function repeatedItem(el) {
  for (let node = el; node && node !== document.body; node = node.parentElement) {
    const parent = node.parentElement;
    if (!parent) break;
    const alike = [...parent.children].filter(
      (child) => child.localName === node.localName && child.className === node.className,
    );
    if (alike.length >= 2) return node;
  }
  return null;
}

/** A copy of `el` as a new item would be: other words, other links, no ids. */
function newItemLike(el, rand) {
  const copy = el.cloneNode(true);
  const walker = document.createTreeWalker(copy, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    node.nodeValue = node.nodeValue.replace(/[\p{L}\p{N}$%.,]+/gu, () => WORDS[Math.floor(rand() * WORDS.length)]);
  }
  for (const node of [copy, ...copy.querySelectorAll('*')]) {
    node.removeAttribute('id');
    node.removeAttribute('for');
    if (node.hasAttribute('href')) node.setAttribute('href', `/new/${Math.floor(rand() * 1e6)}`);
    if (node.hasAttribute('src')) node.setAttribute('src', `/img/new-${Math.floor(rand() * 1e6)}.png`);
    for (const name of ['alt', 'title', 'aria-label', 'placeholder', 'name', 'value']) {
      if (node.hasAttribute(name)) node.setAttribute(name, WORDS[Math.floor(rand() * WORDS.length)]);
    }
  }
  return copy;
}

function retag(el, tag) {
  const replacement = document.createElement(tag);
  for (const { name, value } of el.attributes) replacement.setAttribute(name, value);
  replacement.append(...el.childNodes);
  if (el[TRUTH]) replacement[TRUTH] = true;
  el.replaceWith(replacement);
  return replacement;
}

const RETAG = {
  div: 'section',
  section: 'div',
  span: 'strong',
  strong: 'span',
  b: 'strong',
  em: 'i',
  i: 'span',
  a: 'button',
  button: 'a',
  h1: 'h2',
  h2: 'h3',
  h3: 'h4',
  h4: 'h5',
  h5: 'h6',
  h6: 'h5',
  p: 'div',
  label: 'span',
  small: 'span',
  article: 'section',
  nav: 'div',
  ul: 'ol',
};

/**
 * Whether the last change removed a node beside one of the same markup, one of the two holding
 * the pinned element: the page is then the same whichever of them went, so that the pinned
 * element is there, or not, on the very same page, and no method can be right both times.
 */
let removedBesideItsDouble = false;

function removeNode(node, target) {
  const doubles = [node.previousElementSibling, node.nextElementSibling].filter(
    (sibling) => sibling && sibling.outerHTML === node.outerHTML,
  );
  removedBesideItsDouble = doubles.length > 0 && (node.contains(target) || doubles.some((d) => d.contains(target)));
  node.remove();
}

/** Words a fix writes instead: none of them on the pages of the corpus. */
const FIX_WORDS = 'clearer wording revised kinder shorter friendlier rephrased simpler'.split(' ');

/**
 * The pinned element's own text nodes: those directly in it, or else (a label in a span, an
 * icon beside a word) those inside it, up to three; a block whose text is several elements'
 * has none of its own.
 */
function ownTextNodes(el) {
  const direct = [...el.childNodes].filter((n) => n.nodeType === 3 && n.nodeValue.trim());
  if (direct.length) return direct;
  const inside = [];
  const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    if (node.nodeValue.trim() && !node.parentElement.closest('script, style')) inside.push(node);
  }
  return inside.length <= 3 ? inside : [];
}

/**
 * Its own text replaced as a whole, as a fix does (a price changed, a label reworded): each
 * number by another of as many digits, each word by another; and its naming attributes'
 * texts (an image's alternative text, a field's placeholder). False when it has none.
 */
function replaceOwnText(el, rand) {
  const word = () => FIX_WORDS[Math.floor(rand() * FIX_WORDS.length)];
  const rewrite = (text) =>
    text
      // Each digit another (1 to 9 more, modulo 10): "1.90" may become "2.15".
      .replace(/\d/g, (d) => String((Number(d) + 1 + Math.floor(rand() * 9)) % 10))
      .replace(/\p{L}+/gu, word);
  let replaced = false;
  for (const node of ownTextNodes(el)) {
    const now = rewrite(node.nodeValue);
    if (now !== node.nodeValue) {
      node.nodeValue = now;
      replaced = true;
    }
  }
  for (const name of ['alt', 'title', 'aria-label', 'placeholder']) {
    const value = el.getAttribute(name);
    if (value?.trim()) {
      el.setAttribute(name, rewrite(value));
      replaced = true;
    }
  }
  if (el.localName === 'input' && /^(submit|button|reset)$/.test(el.type) && el.value) {
    el.setAttribute('value', rewrite(el.value));
    replaced = true;
  }
  return replaced;
}

/** A text elsewhere on the page edited, as a deploy edits some. */
function editAnotherText(target) {
  const other = [...document.body.querySelectorAll('p, h2, h3, a, button, td')].find(
    (el) => !el.contains(target) && !target.contains(el) && el.textContent.trim(),
  );
  if (other) other.append(' (new)');
}

/** How the page changes. Each returns 'present' or 'removed' (the right answer), or null when it does not apply to this element. */
const CHANGES = {
  'sibling inserted before it': (target, rand) => {
    const item = repeatedItem(target);
    if (!item) return null;
    item.before(newItemLike(item, rand));
    return 'present';
  },
  'item added first': (target, rand) => {
    const item = repeatedItem(target);
    if (!item) return null;
    item.parentElement.prepend(newItemLike(item, rand));
    return 'present';
  },
  'neighbour removed': (target) => {
    const item = repeatedItem(target);
    const neighbour = item?.previousElementSibling ?? item?.nextElementSibling;
    if (!neighbour || neighbour.localName !== item.localName) return null;
    removeNode(neighbour, target);
    return 'present';
  },
  'siblings reordered': (target) => {
    const item = repeatedItem(target);
    if (!item) return null;
    const parent = item.parentElement;
    parent.append(...[...parent.children].reverse());
    return 'present';
  },
  'section moved': (target) => {
    // The ancestor two or more levels up that has siblings: moved to the other end of its parent.
    let section = target.parentElement?.parentElement;
    while (section && section !== document.body && section.parentElement && section.parentElement.children.length < 2) {
      section = section.parentElement;
    }
    if (!section || section === document.body || !section.parentElement) return null;
    const parent = section.parentElement;
    if (parent.firstElementChild === section) parent.append(section);
    else parent.prepend(section);
    return 'present';
  },
  'wrapped in a new element': (target) => {
    const item = repeatedItem(target) ?? target;
    const wrapper = document.createElement('div');
    wrapper.className = 'wrapper';
    item.before(wrapper);
    wrapper.append(item);
    return 'present';
  },
  'tag changed': (target) => {
    const tag = RETAG[target.localName];
    if (!tag) return null;
    retag(target, tag);
    return 'present';
  },
  'ids regenerated': (_target, rand) => {
    const renamed = new Map();
    for (const el of document.querySelectorAll('[id]')) {
      const id = `:r${Math.floor(rand() * 36 ** 3).toString(36)}:`;
      renamed.set(el.id, id);
      el.id = id;
    }
    if (!renamed.size) return null;
    for (const el of document.querySelectorAll('[for], [aria-labelledby], [aria-describedby], [aria-controls]')) {
      for (const name of ['for', 'aria-labelledby', 'aria-describedby', 'aria-controls']) {
        const value = el.getAttribute(name);
        if (value)
          el.setAttribute(
            name,
            value
              .split(/\s+/)
              .map((id) => renamed.get(id) ?? id)
              .join(' '),
          );
      }
    }
    return 'present';
  },
  'classes hashed by a new build': (_target, rand) => {
    const hash = Math.floor(rand() * 36 ** 5)
      .toString(36)
      .padStart(5, '0');
    for (const el of document.querySelectorAll('[class]')) {
      const names = [...el.classList];
      el.className = names.map((name) => `${name}__${hash}`).join(' ');
    }
    return 'present';
  },
  'class added and removed': (target) => {
    if (!target.classList.length) {
      target.classList.add('is-active');
      return 'present';
    }
    target.classList.remove(target.classList[0]);
    target.classList.add('is-active');
    return 'present';
  },
  'text edited': (target) => {
    const walker = document.createTreeWalker(target, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const words = node.nodeValue.trim().split(/\s+/);
      if (!node.nodeValue.trim()) continue;
      if (words.length >= 3) words.splice(Math.floor(words.length / 2), 1, 'updated');
      else words.push('now');
      node.nodeValue = ` ${words.join(' ')} `;
      return 'present';
    }
    return null;
  },
  // A fix as the product exists to check it: the pinned element's own text replaced as a
  // whole (its words and numbers, and the texts of its naming attributes), nothing else.
  'a fix: its text replaced': (target, rand) => (replaceOwnText(target, rand) ? 'present' : null),
  // Deployed in a new build: every class hashed, every id regenerated, another text edited.
  'a fix, in a new build': (target, rand) => {
    if (!replaceOwnText(target, rand)) return null;
    CHANGES['classes hashed by a new build'](target, rand);
    CHANGES['ids regenerated'](target, rand);
    editAnotherText(target);
    return 'present';
  },
  // And an item like its own inserted before it: the text on one side of it is then another,
  // as it is on one side of the new item, reworded too.
  'a fix, with a new deploy': (target, rand) => {
    if (!replaceOwnText(target, rand)) return null;
    return CHANGES['a new deploy (several changes)'](target, rand);
  },
  'a typo fixed': (target) => {
    // One letter of its longest word changed, as a typo's fix does.
    const [node] = ownTextNodes(target);
    if (!node) return null;
    const words = [...node.nodeValue.matchAll(/\p{L}{3,}/gu)].sort((a, b) => b[0].length - a[0].length);
    const word = words[0];
    if (!word) return null;
    const at = word.index + Math.floor(word[0].length / 2);
    const letter = node.nodeValue[at] === 'e' ? 'a' : 'e';
    node.nodeValue = node.nodeValue.slice(0, at) + letter + node.nodeValue.slice(at + 1);
    return 'present';
  },
  'attributes changed': () => {
    for (const el of document.querySelectorAll('[href]')) {
      el.setAttribute('href', `${el.getAttribute('href')}${el.getAttribute('href').includes('?') ? '&' : '?'}ref=nav`);
    }
    for (const el of document.querySelectorAll('[src]')) {
      el.setAttribute('src', el.getAttribute('src').replace(/(\.\w+)$/, '.3f9a2c$1'));
    }
    return 'present';
  },
  're-rendered': () => 'rerender',
  'a new deploy (several changes)': (target, rand) => {
    const item = repeatedItem(target);
    if (item) item.before(newItemLike(item, rand));
    CHANGES['classes hashed by a new build'](target, rand);
    editAnotherText(target);
    return 'present';
  },
  'element removed': (target) => {
    removeNode(target, target);
    return 'removed';
  },
  'its item removed': (target) => {
    const item = repeatedItem(target);
    if (!item || item === target) return null;
    removeNode(item, target);
    return 'removed';
  },
};

/** The XPath of `el` from the root, one step per level (`/html/body/div[2]/p[1]`). */
function absoluteXPath(el) {
  const steps = [];
  for (let node = el; node && node.nodeType === 1; node = node.parentElement) {
    const same = node.parentElement
      ? [...node.parentElement.children].filter((child) => child.localName === node.localName)
      : [node];
    steps.unshift(`${node.localName}[${same.indexOf(node) + 1}]`);
  }
  return `/${steps.join('/')}`;
}

const byXPath = (path) =>
  document.evaluate(path, document, null, XPathResult.FIRST_ORDERED_NODE_TYPE, null).singleNodeValue;

const bySelector = (selector) => {
  try {
    return document.querySelector(selector);
  } catch {
    return null;
  }
};

const brief = (el) =>
  el
    ? `${el[TRUTH] ? '[TRUE] ' : ''}<${el.localName}${el.className && typeof el.className === 'string' ? ` class="${el.className.slice(0, 60)}"` : ''}> "${el.textContent.replace(/\s+/g, ' ').trim().slice(0, 60)}"`
    : 'nothing';

/** The pinned element, where it is now. */
const truthNow = () => [...document.querySelectorAll('*')].find((el) => el[TRUTH]);

/** Whether `el`, not the pinned element, is its exact double: the same markup in an item of the same markup. */
function doubleOfTruth(el) {
  if (!el || el[TRUTH]) return false;
  const truth = truthNow();
  if (!truth || truth.outerHTML !== el.outerHTML) return false;
  const item = (e) => repeatedItem(e) ?? e;
  return item(truth).outerHTML === item(el).outerHTML;
}

/** The 24 characters nearest an element on each side, as twins are told apart by them. */
const quoted = (prefix, suffix) => `${prefix.slice(-24)}|${suffix.slice(0, 24)}`;

/** Why a case went wrong: the anchor, what was found, the text around each, and the ranking. */
function explain(anchor, found) {
  const { selector, x, y, position, ...rest } = anchor;
  const truth = truthNow();
  const ranked = new Resolver(document).ranked(anchor).slice(0, 4);
  return {
    anchor: JSON.stringify({ selector, ...rest }).slice(0, 700),
    found: `${found ? `${found.confidence} ${found.score.toFixed(2)} ` : ''}${brief(found?.element)}`,
    truth: brief(truth),
    // The text just before and after the pinned element, the one found and the right one.
    quotes: [anchor.text, found?.element, truth].map((q) =>
      q instanceof Element
        ? quoted(textAround(q, 'before'), textAround(q, 'after'))
        : q && quoted(q.prefix ?? '', q.suffix ?? ''),
    ),
    ranked: ranked.map(
      (r) =>
        `${r.score.toFixed(2)}/${r.identity.toFixed(2)}/${r.own.toFixed(2)}/${r.around.toFixed(2)}/${r.place.toFixed(2)} ${brief(r.element)}`,
    ),
  };
}

export function prepare({ seed, targets }) {
  const pristine = document.body.cloneNode(true);
  const rand = random(seed);
  const chosen = pickTargets(targets, rand).map((el) => ({
    path: pathOf(el),
    anchor: describeElement(el),
    selector: pathSelector(el),
    xpath: absoluteXPath(el),
  }));
  window.__bench = { pristine, chosen, seed };
  return chosen.length;
}

/** Every change on every chosen element, each found again by the three methods. */
export function runChanges() {
  const { pristine, chosen, seed } = window.__bench;
  // Markup without the blanks between tags, which a reorder leaves where they were.
  const markup = (body) => body.innerHTML.replace(/>\s+</g, '><').trim();
  const pristineMarkup = markup(pristine);
  const results = [];
  let caseNumber = 0;
  for (const target of chosen) {
    for (const [change, apply] of Object.entries(CHANGES)) {
      caseNumber += 1;
      document.body.replaceWith(pristine.cloneNode(true));
      const el = atPath(target.path);
      el[TRUTH] = true;
      removedBesideItsDouble = false;
      let expected = apply(el, random(seed * 7919 + caseNumber));
      if (!expected) continue;
      if (expected === 'rerender') {
        const fresh = document.body.cloneNode(true);
        document.body.replaceWith(fresh);
        atPath(target.path)[TRUTH] = true;
        expected = 'present';
      }
      // Doubles swapped by a reorder or a move: the page reads as before, the pinned element elsewhere.
      const movedAmongDoubles =
        expected === 'present' && markup(document.body) === pristineMarkup && !atPath(target.path)[TRUTH];
      const resolver = new Resolver(document);
      const anchored = resolver.resolve(target.anchor);
      const refusal = resolver.refusal;
      const found = {
        anchor: anchored,
        // The same pin, its comment fixed: the fix may have changed its element.
        fixed: resolver.resolve(target.anchor, { fixed: true }),
        selector: bySelector(target.selector),
        xpath: byXPath(target.xpath),
      };
      const outcome = (element) =>
        element ? (element[TRUTH] ? 'right' : 'another') : expected === 'removed' ? 'right' : 'lost';
      const result = {
        change,
        expected,
        anchor: outcome(found.anchor?.element),
        fixed: outcome(found.fixed?.element),
        doubtful: found.anchor?.confidence === 'doubtful',
        refusal,
        twins: target.anchor.twins ?? 0,
        doubleTaken: doubleOfTruth(found.anchor?.element),
        undecidable: removedBesideItsDouble || movedAmongDoubles,
        selector: outcome(found.selector),
        xpath: outcome(found.xpath),
      };
      if (window.__benchDebug && result.anchor !== 'right')
        result.debug = { refusal, why: refusal && REFUSALS[refusal], ...explain(target.anchor, found.anchor) };
      results.push(result);
    }
  }
  document.body.replaceWith(pristine.cloneNode(true));
  return results;
}

/** The same page at another width: nothing changed but the layout. */
export function runUnchanged(change) {
  const { chosen } = window.__bench;
  return chosen.map((target) => {
    atPath(target.path)[TRUTH] = true;
    const resolver = new Resolver(document);
    const found = resolver.resolve(target.anchor);
    const outcome = (element) => (element ? (element[TRUTH] ? 'right' : 'another') : 'lost');
    const result = {
      change,
      expected: 'present',
      anchor: outcome(found?.element),
      fixed: outcome(resolver.resolve(target.anchor, { fixed: true })?.element),
      doubtful: found?.confidence === 'doubtful',
      selector: outcome(bySelector(target.selector)),
      xpath: outcome(byXPath(target.xpath)),
    };
    atPath(target.path)[TRUTH] = false;
    return result;
  });
}

/** The shortest of `rounds` runs of `run`, in ms. */
function fastest(run, rounds) {
  let min = Infinity;
  for (let i = 0; i < rounds; i += 1) {
    const start = performance.now();
    run();
    min = Math.min(min, performance.now() - start);
  }
  return min;
}

/**
 * Speed: `pins` anchors of this page resolved in one pass, unchanged and after an item was
 * inserted at the top of every list (every structural path shifts), against the old
 * method's querySelector for the same pins in the same run. Times in ms, best of `rounds`.
 */
export function timeResolving({ pins, rounds, seed }) {
  const rand = random(seed);
  const targets = pickTargets(pins, rand);
  const anchors = targets.map((el) => describeElement(el));
  const selectors = targets.map((el) => pathSelector(el));
  const best = (run) => fastest(run, rounds);
  const elements = document.querySelectorAll('*').length;
  const baseline = best(() => selectors.forEach(bySelector));
  const unchanged = best(() => {
    const resolver = new Resolver(document);
    for (const anchor of anchors) resolver.resolve(anchor);
  });
  insertAtTopOfLists(rand);
  const changed = best(() => {
    const resolver = new Resolver(document);
    for (const anchor of anchors) resolver.resolve(anchor);
  });
  return { elements, pins: anchors.length, baseline, unchanged, changed };
}

/**
 * Twins told apart only by the shape around them, all pinned: `items` comments that read the
 * same, each with `filler` elements more beside its text, the first of a class of its own, in
 * one list, which every anchor's shape reaches. Unchanged, then the list reversed.
 */
export function timeTwinsByShape({ items, filler, rounds }) {
  const comment = (i) =>
    `<li><article><p>Author</p><a href="#">Reply</a></article>` +
    `<div><span class="mark-${i}"></span>${'<span class="mark"></span>'.repeat(filler - 1)}</div></li>`;
  document.body.innerHTML = `<ul class="thread">${Array.from({ length: items }, (_, i) => comment(i)).join('')}</ul>`;
  const targets = [...document.querySelectorAll('.thread a')];
  const anchors = targets.map((el) => describeElement(el));
  const selectors = targets.map((el) => pathSelector(el));
  const best = (run) => fastest(run, rounds);
  const resolveAll = () => {
    const resolver = new Resolver(document);
    return anchors.map((anchor) => resolver.resolve(anchor)?.element);
  };
  const baseline = best(() => selectors.forEach(bySelector));
  const unchanged = best(resolveAll);
  const list = document.querySelector('.thread');
  list.append(...[...list.children].reverse());
  const reversed = best(resolveAll);
  const found = resolveAll();
  return {
    elements: document.querySelectorAll('*').length,
    pins: anchors.length,
    shaped: anchors.filter((anchor) => anchor.twinsByShape).length,
    baseline,
    unchanged,
    reversed,
    rightAfterReversal: found.filter((el, i) => el === targets[i]).length,
  };
}

/** An item inserted at the top of every list, as a deploy that adds one would. */
function insertAtTopOfLists(rand) {
  for (const list of document.querySelectorAll('ul, ol, tbody, .row')) {
    if (list.firstElementChild) list.prepend(newItemLike(list.firstElementChild, rand));
  }
}

/** For profiling: describe `pins` elements now, resolve them later with `resolveDescribed` (after `changeLists`, if wanted). */
export function describeSome({ pins, seed }) {
  window.__described = pickTargets(pins, random(seed)).map((el) => describeElement(el));
  return window.__described.length;
}

export function changeLists({ seed }) {
  insertAtTopOfLists(random(seed));
}

export function resolveDescribed() {
  const resolver = new Resolver(document);
  return window.__described.filter((anchor) => resolver.resolve(anchor)).length;
}

/**
 * The cost of keeping pins on a page that never stops changing: `pins` anchors tracked (a
 * quarter of them missing, so the tracker keeps looking), the page changing every `everyMs`
 * for `seconds`; long tasks (over 50 ms) and their total, with the tracker and, as the
 * baseline in the same page, without it.
 */
export async function liveCost({ pins, everyMs, seconds, withTracker, seed }) {
  const rand = random(seed);
  const targets = pickTargets(pins, rand);
  const anchors = new Map(targets.map((el, i) => [`c${i}`, describeElement(el)]));
  const gone = new Set([...anchors.keys()].slice(0, Math.ceil(pins / 4)));
  for (const [id, anchor] of [...anchors].filter(([id]) => gone.has(id))) {
    anchors.set(id, { ...anchor, text: { exact: `gone ${id}` }, selector: `#gone-${id}` });
  }
  const host = document.createElement('div');
  document.body.append(host);
  let placements = 0;
  let last = new Map();
  const tracker = withTracker
    ? new PinTracker(host, (now) => {
        placements += 1;
        last = now;
      })
    : null;
  tracker?.set(anchors);
  const long = [];
  const observer = new PerformanceObserver((list) => long.push(...list.getEntries().map((e) => e.duration)));
  observer.observe({ type: 'longtask' });
  const rows = [...document.querySelectorAll('li, tr, p')];
  await new Promise((resolve) => {
    let n = 0;
    const timer = setInterval(() => {
      // What an app does all the time: a row's text, a class, an element added and one removed.
      const row = rows[n % rows.length];
      if (row) {
        row.classList.toggle('tick');
        row.append(document.createTextNode(''));
      }
      const extra = document.createElement('span');
      extra.textContent = `tick ${n}`;
      document.body.append(extra);
      document.body.querySelector('span.tock')?.remove();
      extra.className = 'tock';
      n += 1;
      if (n * everyMs >= seconds * 1000) {
        clearInterval(timer);
        setTimeout(resolve, 200);
      }
    }, everyMs);
  });
  observer.disconnect();
  // Where the pins ended: those whose element is there, on it; the others listed as not found.
  const ending = {
    present: targets.length - gone.size,
    onTheirElement: targets.filter((el, i) => !gone.has(`c${i}`) && tracker?.element(`c${i}`) === el).length,
    missing: gone.size,
    listedNotFound: [...gone].filter((id) => last.get(id) === null).length,
  };
  tracker?.destroy();
  host.remove();
  return {
    elements: document.querySelectorAll('*').length,
    longTasks: long.length,
    longest: Math.max(0, ...long),
    placements,
    ...ending,
  };
}
