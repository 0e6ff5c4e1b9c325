// Mentions when writing a reply: `@` and a name suggests the people who can read the comment (a
// combobox: the textarea keeps focus and names the option the arrow keys are on). The people
// chosen are the parent's to keep, so that their `@Name` is sent as a mention (encodeMentions).

import type { MentionablePerson } from '@svc/contract';
import { insertMention, mentionQueryAt, suggestedPeople, suggestionName } from '@svc/contract/mentions';
import { useEffect, useId, useRef, useState } from 'preact/hooks';
import { api } from './api.js';
import { t } from './i18n.js';

interface MentionFieldProps {
  label: string;
  /** The project whose people may be mentioned. */
  projectKey: string;
  value: string;
  onValue: (value: string) => void;
  /** Someone was chosen from the suggestions. */
  onChosen: (person: MentionablePerson) => void;
  rows?: number;
  maxLength?: number;
  required?: boolean;
}

const named = (person: MentionablePerson) => suggestionName(person, t);

/** A labelled textarea in which `@` suggests the people of the project: arrows, Enter or Tab, Escape, or a pointer. */
export function MentionField({ label, projectKey, value, onValue, onChosen, rows = 3, ...input }: MentionFieldProps) {
  const id = useId();
  const listId = `${id}-people`;
  const field = useRef<HTMLTextAreaElement>(null);
  const [people, setPeople] = useState<MentionablePerson[] | null>(null);
  const [typed, setTyped] = useState<{ start: number; query: string } | null>(null);
  const [active, setActive] = useState(0);
  const [said, setSaid] = useState('');
  const options = typed && people ? suggestedPeople(people, typed.query) : [];
  const open = options.length > 0;
  const count = typed && people ? options.length : null;
  // How many match, said when it changes (a screen reader hears it).
  useEffect(() => {
    if (count !== null) setSaid(t('mention.found', { count }));
  }, [count]);

  const suggest = (el: HTMLTextAreaElement) => {
    const at = el.selectionStart === el.selectionEnd ? mentionQueryAt(el.value, el.selectionStart) : null;
    setTyped(at);
    setActive(0);
    if (at && people === null) {
      void api
        .call('GET /api/projects/{key}/people', { params: { key: projectKey } })
        .then((answer) => answer.ok && setPeople(answer.data.items));
    }
  };
  const choose = (i: number) => {
    const person = options[i];
    const el = field.current;
    if (!person || !typed || !el) return;
    const { text, caret } = insertMention(el.value, typed.start, el.selectionStart, person);
    // The field and its caret change now, not at the next render or frame: keys typed at once
    // after the choice go after the name (the render finds the value already there and keeps the caret).
    el.value = text;
    el.setSelectionRange(caret, caret);
    onValue(text);
    onChosen(person);
    setTyped(null);
    setSaid(t('mention.chosen', { name: person.name }));
  };
  const onKeyDown = (event: KeyboardEvent) => {
    if (!open) return;
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      setActive((active + (event.key === 'ArrowDown' ? 1 : options.length - 1)) % options.length);
    } else if (event.key === 'Enter' || event.key === 'Tab') choose(active);
    else if (event.key === 'Escape') setTyped(null);
    else return;
    event.preventDefault();
    event.stopPropagation();
  };

  return (
    <div class="field mentioning">
      <label for={id}>{label}</label>
      <textarea
        {...input}
        id={id}
        ref={field}
        rows={rows}
        value={value}
        aria-autocomplete="list"
        aria-controls={listId}
        aria-activedescendant={open ? `${listId}-${active}` : undefined}
        onInput={(event) => {
          const el = event.currentTarget;
          onValue(el.value);
          suggest(el);
        }}
        onKeyDown={onKeyDown}
        onBlur={() => setTyped(null)}
      />
      <div id={listId} role="listbox" aria-label={t('mention.people')} class="people" hidden={!open}>
        {options.map((person, i) => (
          <div
            key={person.id}
            id={`${listId}-${i}`}
            role="option"
            tabIndex={-1}
            aria-selected={i === active}
            // Chosen on press, before the textarea would lose focus to the list.
            onPointerDown={(event) => {
              event.preventDefault();
              choose(i);
            }}
          >
            {named(person)}
          </div>
        ))}
      </div>
      <p class="sr-only" role="status">
        {said}
      </p>
    </div>
  );
}
