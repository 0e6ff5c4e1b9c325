// The panel chunk: what the panel shows (the sign-in; once signed in, the tabs, comments,
// updates and the new-comment form) and the welcome beside the launcher, with their English
// words, and what their actions do. Loaded by the widget once someone is signed in or opens the
// panel, so a page whose visitors never do loads only the launcher, the badge and the pins.
import { enVocabulary } from '@svc/contract/locales/en';
import type { Chunks } from './chunks.js';
import { enPanel } from './locales/en.js';
import { panelActions } from './panel-actions.js';
import { panelStyles } from './styles.js';
import { signInView } from './views/sign-in.js';
import { signedInView } from './views/signed-in.js';
import { welcomeView } from './views/welcome.js';

(window as unknown as Chunks).__svcPanel = {
  panelActions,
  signInView,
  signedInView,
  welcomeView,
  english: { ...enPanel, ...enVocabulary },
  styles: panelStyles,
};
