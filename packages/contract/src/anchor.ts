// Where a comment is pinned: enough of a description of the element that it can be found again
// after the page changed (a deploy, a re-render, another screen size), and told apart from its
// neighbours. Only `selector`, `x` and `y` are required: anchors written before the richer
// description, and by API callers, carry just a selector. Every part is bounded.
import { type Static, Type } from 'typebox';
import { Line, Offset } from './common.js';

const Words = (maxLength: number, description?: string) => Line({ maxLength, ...(description ? { description } : {}) });

export const ANCHOR_TEXT_MAX = 200;
export const ANCHOR_QUOTE_CONTEXT_MAX = 64;
export const ANCHOR_CONTEXT_MAX = 120;
export const ANCHOR_ATTRIBUTE_MAX = 300;
export const ANCHOR_CONTENT_MAX = 200;

/** The element's stable attributes (generated-looking ids are left out when described). */
export const AnchorAttributes = Type.Object(
  {
    id: Type.Optional(Words(ANCHOR_ATTRIBUTE_MAX)),
    testId: Type.Optional(Words(ANCHOR_ATTRIBUTE_MAX, 'data-testid, data-test, data-cy or data-qa')),
    name: Type.Optional(Words(ANCHOR_ATTRIBUTE_MAX)),
    type: Type.Optional(Words(40)),
    href: Type.Optional(Words(ANCHOR_ATTRIBUTE_MAX)),
    src: Type.Optional(Words(ANCHOR_ATTRIBUTE_MAX)),
    alt: Type.Optional(Words(ANCHOR_ATTRIBUTE_MAX)),
    ariaLabel: Type.Optional(Words(ANCHOR_ATTRIBUTE_MAX)),
    placeholder: Type.Optional(Words(ANCHOR_ATTRIBUTE_MAX)),
    title: Type.Optional(Words(ANCHOR_ATTRIBUTE_MAX)),
  },
  { additionalProperties: false },
);
export type AnchorAttributes = Static<typeof AnchorAttributes>;

/** A step of the way to an element inside a shadow root or a same-origin iframe: the host, found by its selector. */
export const AnchorFrame = Type.Object(
  {
    kind: Type.Union([Type.Literal('shadow'), Type.Literal('frame')]),
    selector: Line({ minLength: 1, maxLength: 1000 }),
  },
  { additionalProperties: false },
);
export type AnchorFrame = Static<typeof AnchorFrame>;

/**
 * Where in the app's code the element comes from, as a development build tells it (React,
 * Vue, Svelte); never known in a production build.
 */
export const AnchorSource = Type.Object(
  {
    component: Type.Optional(Words(200, 'The components it is rendered by, innermost first ("Row < Feed < App")')),
    file: Type.Optional(Words(ANCHOR_ATTRIBUTE_MAX, 'The file, as the development server serves it')),
    line: Type.Optional(Type.Integer({ minimum: 1, maximum: 10_000_000 })),
    column: Type.Optional(Type.Integer({ minimum: 1, maximum: 1_000_000 })),
  },
  { additionalProperties: false },
);
export type AnchorSource = Static<typeof AnchorSource>;

export const Anchor = Type.Object(
  {
    selector: Line({ minLength: 1, maxLength: 1000, description: 'CSS selector of the pinned element' }),
    x: Offset('Click offset within the element, in CSS pixels (at most ±1,000,000)'),
    y: Offset(),
    tag: Type.Optional(Line({ maxLength: 60, description: 'Its tag name, lower case' })),
    role: Type.Optional(Words(40, 'Its ARIA role, explicit or implied by the tag')),
    name: Type.Optional(Words(ANCHOR_TEXT_MAX, 'Its accessible name')),
    text: Type.Optional(
      Type.Object(
        {
          exact: Words(ANCHOR_TEXT_MAX, 'Its text, white space collapsed (the start of it when longer)'),
          prefix: Type.Optional(Words(ANCHOR_QUOTE_CONTEXT_MAX, 'The text just before it on the page')),
          suffix: Type.Optional(Words(ANCHOR_QUOTE_CONTEXT_MAX, 'The text just after it on the page')),
        },
        { additionalProperties: false },
      ),
    ),
    attributes: Type.Optional(AnchorAttributes),
    classes: Type.Optional(Type.Array(Words(100), { maxItems: 12, description: 'Classes that do not look generated' })),
    label: Type.Optional(Words(ANCHOR_TEXT_MAX, 'The text of its <label>')),
    content: Type.Optional(
      Words(
        ANCHOR_CONTENT_MAX,
        'What an element without text holds: the tags, classes and naming attributes of the first elements inside it, or the value of a checkbox or radio button',
      ),
    ),
    context: Type.Optional(
      Type.Object(
        {
          parent: Type.Optional(Words(ANCHOR_CONTEXT_MAX, 'The start of the text around it')),
          previous: Type.Optional(Words(ANCHOR_CONTEXT_MAX, 'The text of the sibling before it')),
          next: Type.Optional(Words(ANCHOR_CONTEXT_MAX, 'The text of the sibling after it')),
        },
        { additionalProperties: false },
      ),
    ),
    twins: Type.Optional(
      Type.Integer({
        minimum: 0,
        maximum: 1000,
        description:
          'How many other elements of the page had the same tag, text, classes and attributes, and the same text around them, when it was pinned',
      }),
    ),
    twinsBefore: Type.Optional(
      Type.Integer({
        minimum: 0,
        maximum: 1000,
        description: 'How many of those came before it in the page',
      }),
    ),
    twinsByQuote: Type.Optional(
      Type.Union([Type.Literal('before'), Type.Literal('after'), Type.Literal('both')], {
        description:
          'On which side the text just before or after it (its prefix, its suffix, or both) was its own among those: then that, not their order, tells it from them',
      }),
    ),
    twinsByItem: Type.Optional(
      Type.Object(
        {
          up: Type.Integer({ minimum: 1, maximum: 8, description: 'How many levels above it' }),
          text: Words(ANCHOR_CONTEXT_MAX, 'The start of its text'),
          holds: Type.Optional(
            Type.Integer({
              minimum: 2,
              maximum: 1000,
              description: 'How many of those, itself included, it held, when more than itself',
            }),
          ),
          before: Type.Optional(
            Type.Integer({ minimum: 0, maximum: 1000, description: 'How many of those it held came before it' }),
          ),
        },
        {
          additionalProperties: false,
          description:
            'The closest element around it whose text was its own among the elements as far above those (its table row, its card, its code sample): it moves with it',
        },
      ),
    ),
    twinsByShape: Type.Optional(
      Type.Object(
        {
          up: Type.Integer({ minimum: 0, maximum: 12, description: 'How many levels above it' }),
          shape: Type.String({
            pattern: '^[0-9a-z]{1,8}$',
            description: 'A hash of their tags, classes and lasting attributes',
          }),
        },
        {
          additionalProperties: false,
          description:
            'The shape of it and of what is around it up to what held all those, that included, where none of them had it (a reply beside comments without replies, an article with another picture): the tags, classes and lasting attributes they hold, whatever their order',
        },
      ),
    ),
    alikes: Type.Optional(
      Type.Integer({
        minimum: 0,
        maximum: 1000,
        description:
          'How many other elements of the page had the same tag, text, classes and attributes when it was pinned, whatever the text around them',
      }),
    ),
    alikesBefore: Type.Optional(
      Type.Integer({
        minimum: 0,
        maximum: 1000,
        description: 'How many of those came before it in the page',
      }),
    ),
    kin: Type.Optional(
      Type.Integer({
        minimum: 1,
        maximum: 1000,
        description:
          'How many elements of the page had its tag and at least its classes when it was pinned (itself included), whatever their text',
      }),
    ),
    textCount: Type.Optional(
      Type.Integer({
        minimum: 1,
        maximum: 1000,
        description: 'How many elements of the page showed its text when it was pinned (itself included)',
      }),
    ),
    selectors: Type.Optional(
      Type.Array(Line({ minLength: 1, maxLength: 1000 }), {
        maxItems: 4,
        description: 'Other selectors of different kinds (by id, attributes, classes)',
      }),
    ),
    position: Type.Optional(
      Type.Object(
        {
          left: Offset('Its box in the document when pinned, in CSS pixels'),
          top: Offset(),
          width: Type.Number({ minimum: 0, maximum: 1_000_000 }),
          height: Type.Number({ minimum: 0, maximum: 1_000_000 }),
          viewportWidth: Type.Integer({ minimum: 0, maximum: 100_000 }),
          viewportHeight: Type.Integer({ minimum: 0, maximum: 100_000 }),
        },
        { additionalProperties: false },
      ),
    ),
    frames: Type.Optional(
      Type.Array(AnchorFrame, {
        maxItems: 8,
        description: 'The shadow roots and iframes it is inside, outermost first',
      }),
    ),
    source: Type.Optional(AnchorSource),
  },
  { additionalProperties: false },
);
export type Anchor = Static<typeof Anchor>;
