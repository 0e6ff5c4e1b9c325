// The pinned element in a reviewer's words ("the “Choose Team” button"), from its anchor: the
// same phrase in the widget, the console, the CLI and the agents' tools, whether or not the
// element is on the page at hand. Free of schema code, so bundles stay small.
import type { Anchor, AnchorSource } from './anchor.js';
import type { Translate } from './i18n.js';

/**
 * The kind of element for each role and tag, one table: "name=kind" pairs (the kind is a
 * message of the shared catalogue, `element.<kind>`), a role's name first where a tag has the
 * same (the role decides when an element has both). Written as one string because it travels
 * in the widget.
 */
const KINDS = new Map(
  (
    'button=button,link=link,a=link,img=image,image=image,svg=image,textbox=field,input=field,searchbox=searchField,' +
    'checkbox=checkbox,radio=radio,switch=switch,combobox=menu,select=menu,listbox=list,option=option,' +
    'slider=slider,heading=heading,list=list,listitem=listItem,li=listItem,table=table,row=row,' +
    'cell=cell,gridcell=cell,td=cell,columnheader=columnHeading,th=tableHeading,' +
    'rowheader=rowHeading,navigation=navigation,nav=navigation,form=form,tab=tab,tablist=tabList,menu=menu,' +
    'menuitem=menuItem,dialog=dialog,alert=alert,banner=pageHeader,contentinfo=pageFooter,main=main,' +
    'region=section,section=section,article=article,complementary=sidebar,aside=sidebar,paragraph=paragraph,' +
    'p=paragraph,progressbar=progress,figure=figure,textarea=textBox,label=label,video=video,header=header,' +
    'footer=footer'
  )
    .split(',')
    .map((pair) => pair.split('=') as [string, string]),
);

const HEADINGS = /^h[1-6]$/;
const NAME_MAX = 40;

const quoted = (words: string) => {
  const text = words.replace(/\s+/g, ' ').trim();
  return text.length > NAME_MAX ? `${text.slice(0, NAME_MAX - 1)}…` : text;
};

/** What kind of element it is, in words: "button", "table cell", "part of the page". */
export function elementKind(anchor: Pick<Anchor, 'role' | 'tag' | 'selector'>, t: Translate): string {
  const tag = anchor.tag ?? lastTagOf(anchor.selector);
  if (tag && HEADINGS.test(tag)) return t('element.heading');
  return t(`element.${(anchor.role && KINDS.get(anchor.role)) || (tag && KINDS.get(tag)) || 'part'}`);
}

/**
 * The element in words. With a described anchor: its kind and name ("the “Choose Team”
 * button", "an image"); with a selector alone (anchors from before descriptions, or from the
 * API): what the selector says ("list item 3 in #plans").
 */
export function elementInWords(anchor: Anchor, t: Translate): string {
  if (anchor.tag === undefined) return selectorInWords(anchor.selector, t);
  const kind = elementKind(anchor, t);
  const name = quoted(
    anchor.name || anchor.label || anchor.attributes?.ariaLabel || anchor.attributes?.alt || anchor.text?.exact || '',
  );
  if (name) return t('element.named', { name, kind });
  return t('element.unnamed', { kind, vowel: /^[aeiou]/.test(kind) ? 'yes' : 'no' });
}

function lastTagOf(selector: string): string | undefined {
  const last = selector.split('>').pop()?.trim() ?? '';
  return /^[a-z][a-z0-9-]*/.exec(last)?.[0];
}

/** A selector read aloud: "button in #plans", "list item 3". */
export function selectorInWords(selector: string, t: Translate): string {
  const steps = selector.split('>').map((step) => step.trim());
  const last = steps.pop() ?? '';
  const name = (step: string) => {
    const id = /^#([\w-]+)/.exec(step)?.[1];
    if (id) return `#${id}`;
    const testId = /data-testid="([^"]+)"/.exec(step)?.[1];
    if (testId) return `“${testId}”`;
    const tag = /^[a-z][a-z0-9]*/.exec(step)?.[0] ?? '';
    const nth = /nth-of-type\((\d+)\)/.exec(step)?.[1];
    const kind = HEADINGS.test(tag) ? 'heading' : KINDS.get(tag);
    const word = kind ? t(`element.${kind}`) : tag ? `<${tag}>` : t('element.element');
    return nth ? t('element.nth', { kind: word, n: nth }) : word;
  };
  const where = [...steps].reverse().find((step) => step.startsWith('#') || step.includes('data-testid'));
  const what = name(last);
  return where ? t('element.inside', { what, where: name(where) }) : what;
}

/** Where in the code a pinned element comes from, in one line: `Feed < App · src/Feed.tsx:52:7`. */
export function sourceText(source: AnchorSource): string {
  const place = source.file ? [source.file, source.line, source.column].filter(Boolean).join(':') : '';
  return [source.component, place].filter(Boolean).join(' · ');
}
