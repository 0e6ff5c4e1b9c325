// The widget's state changes only through methods that announce what changed; the widget
// redraws what shows it, once per announcement (see `Widget.changed`).

/** What changed: the session, the words spoken, the unread count, the updates, the comments, the view, or only where the pins are. */
export type Change = 'session' | 'language' | 'count' | 'updates' | 'comments' | 'view' | 'pins';

export type Announce = (change: Change) => void;

/** A state's fields (its methods left out): what its `set` may change. */
export type FieldsOf<T> = { [K in keyof T as T[K] extends (...args: never[]) => unknown ? never : K]: T[K] };
