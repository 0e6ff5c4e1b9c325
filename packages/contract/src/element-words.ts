// The pinned element in a reviewer's words ("the “Choose Team” button"), from its anchor: the
// same phrase in the widget, the console, the CLI and the agents' tools, whether or not the
// element is on the page at hand. Free of schema code, so bundles stay small.
import type { Anchor } from './anchor.js';

/**
 * Words for roles and tags, one table: "name=words" pairs, a role's name first where a tag
 * has the same (the role decides when an element has both). Written as one string because
 * it travels in the widget.
 */
const WORDS = new Map(
  (
    'button=button,link=link,a=link,img=image,image=image,svg=image,textbox=field,input=field,searchbox=search field,' +
    'checkbox=checkbox,radio=radio button,switch=switch,combobox=menu,select=menu,listbox=list,option=option,' +
    'slider=slider,heading=heading,list=list,listitem=list item,li=list item,table=table,row=table row,' +
    'cell=table cell,gridcell=table cell,td=table cell,columnheader=column heading,th=table heading,' +
    'rowheader=row heading,navigation=navigation,nav=navigation,form=form,tab=tab,tablist=tab list,menu=menu,' +
    'menuitem=menu item,dialog=dialog,alert=alert,banner=page header,contentinfo=page footer,main=main content,' +
    'region=section,section=section,article=article,complementary=sidebar,aside=sidebar,paragraph=paragraph,' +
    'p=paragraph,progressbar=progress bar,figure=figure,textarea=text box,label=label,video=video,header=header,' +
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
export function elementKind(anchor: Pick<Anchor, 'role' | 'tag' | 'selector'>): string {
  const tag = anchor.tag ?? lastTagOf(anchor.selector);
  if (tag && HEADINGS.test(tag)) return 'heading';
  return (anchor.role && WORDS.get(anchor.role)) || (tag && WORDS.get(tag)) || 'part of the page';
}

/**
 * The element in words. With a described anchor: its kind and name ("the “Choose Team”
 * button", "an image"); with a selector alone (anchors from before descriptions, or from the
 * API): what the selector says ("list item 3 in #plans").
 */
export function elementInWords(anchor: Anchor): string {
  if (anchor.tag === undefined) return selectorInWords(anchor.selector);
  const kind = elementKind(anchor);
  const name = quoted(
    anchor.name || anchor.label || anchor.attributes?.ariaLabel || anchor.attributes?.alt || anchor.text?.exact || '',
  );
  if (name) return `the “${name}” ${kind}`;
  return `${/^[aeiou]/.test(kind) ? 'an' : 'a'} ${kind}`;
}

function lastTagOf(selector: string): string | undefined {
  const last = selector.split('>').pop()?.trim() ?? '';
  return /^[a-z][a-z0-9-]*/.exec(last)?.[0];
}

/** A selector read aloud: "button in #plans", "list item 3". */
export function selectorInWords(selector: string): string {
  const steps = selector.split('>').map((step) => step.trim());
  const last = steps.pop() ?? '';
  const name = (step: string) => {
    const id = /^#([\w-]+)/.exec(step)?.[1];
    if (id) return `#${id}`;
    const testId = /data-testid="([^"]+)"/.exec(step)?.[1];
    if (testId) return `“${testId}”`;
    const tag = /^[a-z][a-z0-9]*/.exec(step)?.[0] ?? '';
    const nth = /nth-of-type\((\d+)\)/.exec(step)?.[1];
    const word = HEADINGS.test(tag) ? 'heading' : (WORDS.get(tag) ?? (tag ? `<${tag}>` : 'element'));
    return nth ? `${word} ${nth}` : word;
  };
  const where = [...steps].reverse().find((step) => step.startsWith('#') || step.includes('data-testid'));
  const what = name(last);
  return where ? `${what} in ${name(where)}` : what;
}
