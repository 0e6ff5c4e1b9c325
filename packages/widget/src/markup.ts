// The markup chunk: loaded by the panel (a script of its own) only when a reviewer starts
// marking up a screenshot, so that neither the widget's first load nor the panel carries it.
// A dialog over the page shows the screenshot on a canvas; the reviewer draws boxes, arrows,
// freehand lines and short texts, and hides regions, by mouse, touch or keyboard, with undo
// and redo. What is hidden is painted over in the image sent: its pixels never leave the
// browser. The marks are kept in the image's own pixels, whatever size the dialog shows it at.
import { encodedUnder, type WindowBox } from '@svc/contract/image-encoding';
import { adoptStyles, h } from './dom.js';
import { HIDDEN_FILL } from './hidden-regions.js';
import type { Words } from './i18n.js';

type Tool = 'box' | 'arrow' | 'pen' | 'text' | 'redact';
type Point = [number, number];
interface Mark {
  tool: Tool;
  colour: string;
  points: Point[];
  text?: string;
}

export interface MarkupOptions {
  image: Blob;
  /** How wide the window the image shows was, in CSS pixels: the hidden regions are said in those. */
  windowWidth: number;
  /** Where the dialog is shown: the widget's shadow root. */
  root: ShadowRoot;
  words: Words;
}

/**
 * The marked-up image (encoded for upload) and the regions hidden on it, in the window's CSS
 * pixels (kept with the comment, see hidden-regions.ts); null when the reviewer cancelled.
 */
export type MarkUp = (options: MarkupOptions) => Promise<{ image: Blob; hidden: WindowBox[] } | null>;

const TOOLS: Tool[] = ['box', 'arrow', 'pen', 'text', 'redact'];
const COLOURS = { red: '#dc2626', yellow: '#facc15' } as const;
/** The upload's largest size: a screenshot's limit is 512 KB, this leaves room. */
const MAX_BYTES = 300 * 1024;

const css = `
.markup{position:fixed;inset:0;z-index:2147483647;background:rgba(15,23,42,.85);display:flex;flex-direction:column;font:14px/1.4 system-ui,sans-serif;color:#111827}
.markup .bar{display:flex;flex-wrap:wrap;gap:6px;align-items:center;padding:8px;background:#fff;border-bottom:1px solid #e5e7eb}
.markup .bar button{border:1px solid #d1d5db;background:#fff;border-radius:6px;padding:5px 10px;font:inherit;cursor:pointer;min-height:32px}
.markup .bar button[aria-pressed=true]{background:#1e1b4b;border-color:#1e1b4b;color:#fff}
.markup .bar .done{background:#4f46e5;border-color:#4f46e5;color:#fff;font-weight:600}
.markup .bar input{border:1px solid #d1d5db;border-radius:6px;padding:5px 8px;font:inherit;width:12em;max-width:100%}
.markup .swatch{width:14px;height:14px;border-radius:50%;display:inline-block;vertical-align:-2px;margin-inline-end:4px;border:1px solid rgba(0,0,0,.3)}
.markup .grow{flex:1}
.markup .stage{flex:1;min-height:0;display:flex;align-items:center;justify-content:center;padding:8px;overflow:auto}
.markup canvas{max-width:100%;max-height:100%;touch-action:none;cursor:crosshair;background:#fff;box-shadow:0 4px 24px rgba(0,0,0,.4)}
.markup canvas:focus-visible{outline:3px solid #facc15;outline-offset:2px}
.markup .sr-only{position:absolute;width:1px;height:1px;overflow:hidden;clip-path:inset(50%);white-space:nowrap}
`;

/** One mark on the picture, its lines `line` pixels wide. */
function drawMark(drawing: CanvasRenderingContext2D, mark: Mark, line: number) {
  const [start, ...rest] = mark.points;
  const end = rest[rest.length - 1] ?? start;
  if (!start || !end) return;
  drawing.strokeStyle = mark.colour;
  drawing.fillStyle = mark.colour;
  drawing.lineWidth = line;
  drawing.lineCap = 'round';
  drawing.lineJoin = 'round';
  const [x, y, w, hgt] = [
    Math.min(start[0], end[0]),
    Math.min(start[1], end[1]),
    Math.abs(end[0] - start[0]),
    Math.abs(end[1] - start[1]),
  ];
  if (mark.tool === 'redact') {
    // Opaque: the pixels under it are replaced, in what is shown and in what is sent.
    drawing.fillStyle = HIDDEN_FILL;
    drawing.fillRect(x, y, w, hgt);
  } else if (mark.tool === 'box') drawing.strokeRect(x, y, w, hgt);
  else if (mark.tool === 'pen') {
    drawing.beginPath();
    drawing.moveTo(...start);
    for (const point of rest) drawing.lineTo(...point);
    drawing.stroke();
  } else if (mark.tool === 'arrow') {
    const angle = Math.atan2(end[1] - start[1], end[0] - start[0]);
    const head = line * 4;
    drawing.beginPath();
    drawing.moveTo(...start);
    drawing.lineTo(...end);
    drawing.moveTo(end[0] - head * Math.cos(angle - 0.5), end[1] - head * Math.sin(angle - 0.5));
    drawing.lineTo(...end);
    drawing.lineTo(end[0] - head * Math.cos(angle + 0.5), end[1] - head * Math.sin(angle + 0.5));
    drawing.stroke();
  } else if (mark.tool === 'text' && mark.text) {
    drawing.font = `bold ${line * 6}px system-ui, sans-serif`;
    drawing.textBaseline = 'top';
    drawing.lineWidth = line;
    drawing.strokeStyle = '#fff';
    drawing.strokeText(mark.text, ...start);
    drawing.fillText(mark.text, ...start);
  }
}

/** Buttons of which one is chosen (`aria-pressed`): `choose` hears each choice. */
function choices<T extends string>(options: [T, (Node | string)[] | string][], chosen: T, choose: (value: T) => void) {
  const buttons = options.map(([value, label]) =>
    h('button', { type: 'button', 'aria-pressed': String(value === chosen) }, label),
  );
  buttons.forEach((button, i) => {
    button.addEventListener('click', () => {
      for (const other of buttons) other.setAttribute('aria-pressed', String(other === button));
      choose((options[i] as [T, unknown])[0]);
    });
  });
  return buttons;
}

/** A mark's box, within the picture: its extent, for a hidden region. */
function boxOf(mark: Mark, width: number, height: number) {
  const xs = mark.points.map((p) => Math.min(width, Math.max(0, p[0])));
  const ys = mark.points.map((p) => Math.min(height, Math.max(0, p[1])));
  const [x, y] = [Math.min(...xs), Math.min(...ys)];
  return { x, y, width: Math.max(...xs) - x, height: Math.max(...ys) - y };
}

const markUp: MarkUp = async ({ image, windowWidth, root, words }) => {
  const { t } = words;
  const bitmap = await createImageBitmap(image);
  const canvas = h('canvas', {
    tabindex: '0',
    role: 'img',
    'aria-label': t('markup.canvas'),
  });
  canvas.width = bitmap.width;
  canvas.height = bitmap.height;
  const drawing = canvas.getContext('2d') as CanvasRenderingContext2D;
  const line = Math.max(3, Math.round(bitmap.width / 320));
  const marks: Mark[] = [];
  const undone: Mark[] = [];
  let current: Mark | null = null;
  let tool: Tool = 'box';
  let colour: string = COLOURS.red;
  let cursor: Point | null = null;
  const said = h('p', { class: 'sr-only', role: 'status' });
  const say = (text: string) => {
    said.textContent = text;
  };

  /** The image and its marks; with the cursor of the keyboard when drawing by it. */
  function render(withCursor = true) {
    drawing.drawImage(bitmap, 0, 0);
    for (const mark of marks) drawMark(drawing, mark, line);
    if (current) drawMark(drawing, current, line);
    if (withCursor && cursor && root.activeElement === canvas) {
      const [cx, cy] = cursor;
      drawing.strokeStyle = '#4f46e5';
      drawing.lineWidth = Math.max(2, line / 2);
      drawing.strokeRect(cx - line * 3, cy - line * 3, line * 6, line * 6);
    }
  }

  const toolName = (which: Tool) => t(`markup.${which}`);
  const textField = h('input', { type: 'text', 'aria-label': t('markup.textField'), maxlength: '80', hidden: true });
  const toolButtons = choices(
    TOOLS.map((which) => [which, toolName(which)]),
    tool,
    (which) => {
      tool = which;
      textField.hidden = tool !== 'text';
      if (tool === 'text') textField.focus();
    },
  );
  const colourButtons = choices(
    Object.entries(COLOURS).map(([name, value]) => [
      value,
      [
        h('span', { class: 'swatch', style: { background: value }, 'aria-hidden': 'true' }),
        t(`markup.${name as keyof typeof COLOURS}`),
      ],
    ]),
    colour,
    (value) => {
      colour = value;
    },
  );
  const undo = () => {
    const mark = marks.pop();
    if (!mark) return;
    undone.push(mark);
    render();
    say(t('markup.undone'));
  };
  const redo = () => {
    const mark = undone.pop();
    if (!mark) return;
    marks.push(mark);
    render();
    say(t('markup.added', { tool: toolName(mark.tool) }));
  };

  /** Starts a mark at `point`; a text is placed at once (its words from the field). */
  function begin(point: Point): boolean {
    if (tool === 'text') {
      const text = textField.value.trim();
      if (!text) {
        say(t('markup.typeFirst'));
        textField.hidden = false;
        textField.focus();
        return false;
      }
      current = { tool, colour, points: [point], text };
      finish();
      return false;
    }
    current = { tool, colour, points: [point, point] };
    return true;
  }
  function extend(point: Point) {
    if (!current) return;
    if (current.tool === 'pen') current.points.push(point);
    else current.points[1] = point;
    render();
  }
  function finish() {
    if (!current) return;
    const [start, end] = [current.points[0], current.points[current.points.length - 1]];
    // A click without a drag makes no box, arrow or hidden region.
    const moved = start && end && Math.hypot(end[0] - start[0], end[1] - start[1]) >= line;
    if (current.tool === 'text' || moved) {
      marks.push(current);
      undone.length = 0;
      say(t('markup.added', { tool: toolName(current.tool) }));
    }
    current = null;
    render();
  }

  // Pointer: mouse, pen and touch alike, in the image's pixels.
  const at = (event: PointerEvent): Point => {
    const box = canvas.getBoundingClientRect();
    return [
      Math.round(((event.clientX - box.left) / box.width) * canvas.width),
      Math.round(((event.clientY - box.top) / box.height) * canvas.height),
    ];
  };
  canvas.addEventListener('pointerdown', (event) => {
    event.preventDefault();
    canvas.focus({ preventScroll: true });
    if (begin(at(event))) canvas.setPointerCapture(event.pointerId);
  });
  canvas.addEventListener('pointermove', (event) => {
    if (current) extend(at(event));
  });
  canvas.addEventListener('pointerup', (event) => {
    if (!current) return;
    extend(at(event));
    finish();
  });
  canvas.addEventListener('pointercancel', () => {
    current = null;
    render();
  });
  canvas.addEventListener('focus', () => {
    cursor ??= [Math.round(canvas.width / 2), Math.round(canvas.height / 2)];
    render();
  });
  canvas.addEventListener('blur', () => render(false));

  const dialog = h(
    'div',
    { class: 'markup', role: 'dialog', 'aria-modal': 'true', 'aria-label': t('markup.title') },
    h(
      'div',
      { class: 'bar', role: 'toolbar', 'aria-label': t('markup.tools') },
      toolButtons,
      textField,
      colourButtons,
      h('button', { type: 'button', 'data-act': 'undo', onClick: undo }, t('markup.undo')),
      h('button', { type: 'button', 'data-act': 'redo', onClick: redo }, t('markup.redo')),
      h('span', { class: 'grow' }),
      h('button', { type: 'button', 'data-act': 'cancel' }, t('markup.cancel')),
      h('button', { type: 'button', class: 'done', 'data-act': 'done' }, t('markup.done')),
    ),
    h('div', { class: 'stage' }, canvas),
    said,
  );
  // The nonce of the widget's own styles, where a page's policy asks for one.
  adoptStyles(root, css, root.querySelector('style')?.nonce ?? '');
  const focusedBefore = root.activeElement as HTMLElement | null;
  root.append(dialog);
  render(false);
  toolButtons[0]?.focus();

  /** The regions hidden, in the window's CSS pixels. */
  const hidden = () => {
    const k = windowWidth / canvas.width;
    return marks
      .filter((mark) => mark.tool === 'redact')
      .map((mark) => boxOf(mark, canvas.width, canvas.height))
      .filter((box) => box.width > 0 && box.height > 0)
      .map((box) => ({ x: box.x * k, y: box.y * k, width: box.width * k, height: box.height * k }));
  };

  return new Promise<{ image: Blob; hidden: WindowBox[] } | null>((resolve) => {
    const close = (result: { image: Blob; hidden: WindowBox[] } | null) => {
      dialog.remove();
      bitmap.close();
      focusedBefore?.focus();
      resolve(result);
    };
    dialog.addEventListener('click', (event) => {
      const act = (event.target as HTMLElement).closest<HTMLElement>('[data-act]')?.dataset.act;
      if (act === 'cancel') close(null);
      else if (act === 'done') {
        current = null;
        render(false);
        void encodedUnder(canvas, MAX_BYTES).then((marked) => close(marked && { image: marked, hidden: hidden() }));
      }
    });
    // Keys stay in the dialog: the panel's own (Escape closes it, Tab stays in it) do not apply here.
    dialog.addEventListener('keydown', (event) => {
      event.stopPropagation();
      const key = event.key;
      const mod = event.ctrlKey || event.metaKey;
      if (mod && key.toLowerCase() === 'z') {
        event.preventDefault();
        if (event.shiftKey) redo();
        else undo();
      } else if (mod && key.toLowerCase() === 'y') {
        event.preventDefault();
        redo();
      } else if (key === 'Tab') keepFocusIn(dialog, event);
      else if (event.target === canvas) drawByKeys(event);
      else if (key === 'Escape') close(null);
    });
  });

  /** The keyboard's way of drawing: arrows move the cursor (Shift: further), Enter starts and ends a mark, Escape cancels it. */
  function drawByKeys(event: KeyboardEvent) {
    const step = event.shiftKey ? 50 : 10;
    const moves: Record<string, Point> = {
      ArrowLeft: [-step, 0],
      ArrowRight: [step, 0],
      ArrowUp: [0, -step],
      ArrowDown: [0, step],
    };
    const move = moves[event.key];
    if (move && cursor) {
      event.preventDefault();
      cursor = [
        Math.min(canvas.width, Math.max(0, cursor[0] + move[0])),
        Math.min(canvas.height, Math.max(0, cursor[1] + move[1])),
      ];
      if (current) extend(cursor);
      else render();
    } else if ((event.key === 'Enter' || event.key === ' ') && cursor) {
      event.preventDefault();
      if (current) finish();
      else if (begin([...cursor])) say(t('markup.started'));
    } else if (event.key === 'Escape') {
      event.preventDefault();
      if (current) {
        current = null;
        render();
      } else (dialog.querySelector('[data-act=cancel]') as HTMLButtonElement).click();
    }
  }
};

function keepFocusIn(dialog: HTMLElement, event: KeyboardEvent) {
  const focusable = [...dialog.querySelectorAll<HTMLElement>('button, input:not([hidden]), canvas')];
  const [first, last] = [focusable[0], focusable[focusable.length - 1]];
  const active = (dialog.getRootNode() as ShadowRoot).activeElement;
  if (event.shiftKey && active === first) {
    event.preventDefault();
    last?.focus();
  } else if (!event.shiftKey && active === last) {
    event.preventDefault();
    first?.focus();
  }
}

(window as unknown as { __svcMarkup: MarkUp }).__svcMarkup = markUp;
