// The panel chunk: what a signed-in person sees in the panel (tabs, comments, updates, the
// new-comment form). Loaded by the widget once someone is signed in, so a page whose visitors
// never sign in loads only the launcher, the sign-in and the badge.
import { signedInView } from './views/signed-in.js';

(window as unknown as { __svcPanel: { signedInView: typeof signedInView } }).__svcPanel = { signedInView };
