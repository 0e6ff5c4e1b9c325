import type { MentionablePerson } from '@svc/contract';
import { encodeMentions, insertMention, mentionQueryAt, suggestedPeople, suggestionName } from '@svc/contract/mentions';
import { h } from '../dom.js';
import type { Store } from '../store.js';

// Mentions when writing: `@` in a comment or a reply suggests the people who can read it (a
// combobox: the textarea keeps focus and names the option the arrow keys are on). Who was
// chosen is kept per field, so that their `@Name` is sent as a mention (see encodeMentions).

/** The people chosen in each field, by the field's id: kept across redraws. */
const chosen = new Map<string, MentionablePerson[]>();

/** What a mentioning field of `form` sends: its text, trimmed, with the chosen people's mentions. */
export function mentioningText(form: HTMLFormElement, name = 'body'): string {
  const field = form.elements.namedItem(name) as HTMLTextAreaElement;
  return encodeMentions(field.value.trim(), chosen.get(field.id) ?? []);
}

/**
 * `textarea` with the suggestions under it: typed `@` and a name, the people it matches are
 * listed; arrow keys move, Enter or Tab chooses, Escape closes (the panel stays open), a
 * pointer chooses too. A screen reader hears how many match.
 */
export function mentionField(store: Store, textarea: HTMLTextAreaElement): HTMLElement {
  const { t } = store.i18n;
  const listId = `${textarea.id}-people`;
  const list = h('ul', {
    id: listId,
    role: 'listbox',
    class: 'people',
    'aria-label': t('mention.people'),
    hidden: true,
  });
  const status = h('p', { class: 'sr-only', role: 'status' });
  textarea.setAttribute('aria-autocomplete', 'list');
  textarea.setAttribute('aria-controls', listId);
  let options: MentionablePerson[] = [];
  let active = 0;
  let typed: { start: number; query: string } | null = null;

  const close = () => {
    options = [];
    typed = null;
    list.hidden = true;
    list.replaceChildren();
    textarea.removeAttribute('aria-activedescendant');
  };
  const named = (person: MentionablePerson) => suggestionName(person, t);
  const show = () => {
    list.replaceChildren(
      ...options.map((person, i) =>
        h(
          'li',
          {
            id: `${listId}-${i}`,
            role: 'option',
            'aria-selected': String(i === active),
            // Chosen on press, before the textarea would lose focus to the list.
            onPointerdown: (event: Event) => {
              event.preventDefault();
              choose(i);
            },
          },
          named(person),
        ),
      ),
    );
    list.hidden = options.length === 0;
    if (options.length) textarea.setAttribute('aria-activedescendant', `${listId}-${active}`);
    else textarea.removeAttribute('aria-activedescendant');
    list.querySelector('[aria-selected=true]')?.scrollIntoView({ block: 'nearest' });
  };
  const choose = (i: number) => {
    const person = options[i];
    if (!person || !typed) return;
    const { text, caret } = insertMention(textarea.value, typed.start, textarea.selectionStart, person);
    textarea.value = text;
    textarea.setSelectionRange(caret, caret);
    chosen.set(textarea.id, [...(chosen.get(textarea.id) ?? []), person]);
    close();
    status.textContent = t('mention.chosen', { name: person.name });
  };
  const suggest = async () => {
    const caret = textarea.selectionStart;
    const asked = caret === textarea.selectionEnd ? mentionQueryAt(textarea.value, caret) : null;
    typed = asked;
    if (!asked) return close();
    const people = await store.lists.people().catch(() => [] as MentionablePerson[]);
    // Typed on meanwhile: the later keystroke's suggestions win.
    if (typed !== asked) return;
    const count = options.length;
    options = suggestedPeople(people, asked.query);
    active = 0;
    show();
    if (options.length !== count || options.length === 0)
      status.textContent = t('mention.found', { count: options.length });
  };

  textarea.addEventListener('input', () => void suggest());
  textarea.addEventListener('focus', () => {
    if (!textarea.value) chosen.delete(textarea.id);
  });
  textarea.addEventListener('blur', close);
  textarea.addEventListener('keydown', (event) => {
    if (list.hidden) return;
    const n = options.length;
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      active = (active + (event.key === 'ArrowDown' ? 1 : n - 1)) % n;
      show();
    } else if (event.key === 'Enter' || event.key === 'Tab') choose(active);
    else if (event.key === 'Escape') close();
    else return;
    // The list's key: not the form's (a new line, leaving the field, closing the panel).
    event.preventDefault();
    event.stopPropagation();
  });
  return h('div', { class: 'mentioning' }, textarea, list, status);
}
