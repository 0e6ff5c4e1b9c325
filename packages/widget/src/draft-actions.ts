// A new comment's actions (see panel-actions.ts): its screenshot marked up, sent with its
// context, the reviewer's steps, its images and its replay, or the draft cancelled.
import type { Answer, Endpoint } from '@svc/contract/endpoints';
import { keptRegions } from './hidden-regions.js';
import { maskedContext } from './mask.js';
import { card, type PanelHost, windowNow } from './panel-host.js';
import type { replayKeeper } from './replay-keeper.js';
import type { StepsRecorder } from './steps.js';
import type { Actions } from './views/actions.js';
import { formError, formStatus } from './views/form.js';
import { forgetImages, sendImages } from './views/image-attach.js';

/** A signed-in reviewer's last actions and the page's last requests, when their recorder runs (steps.ts). */
function recentSteps() {
  const steps = (window as { __svcSteps?: StepsRecorder }).__svcSteps;
  return steps ? { actions: steps.recentActions(), requests: steps.recentRequests() } : {};
}

type Submitting = <E extends Endpoint>(
  form: HTMLFormElement | null,
  request: () => Promise<Answer<E>>,
) => Promise<Answer<E> | null>;

export function draftActions(
  host: PanelHost,
  submitting: Submitting,
  replay: ReturnType<typeof replayKeeper>,
): Pick<Actions, 'sendComment' | 'markUp' | 'cancelDraft'> {
  const { store, focus } = host;
  const { view } = store;
  const t = (...args: Parameters<typeof store.i18n.t>) => store.i18n.t(...args);
  return {
    sendComment: async (form, body, attach) => {
      const marked = view.draft?.marked;
      const shoot = (element: Element | null) => {
        if (marked) return Promise.resolve(marked.blob);
        formStatus(form, t('screenshot.sentTaking'));
        return host.screenshot(element, []);
      };
      // Where the element is in the window when the screenshot is taken (marked up: was), for
      // its crop on a card (before and after); and what was hidden on it, hidden again in every
      // later picture of the comment (sent attached or not).
      const taken = marked?.taken ?? windowNow(view.draft?.element?.isConnected ? view.draft.element : null);
      const hidden = marked?.hidden.length
        ? { hidden: { regions: keptRegions(marked.hidden), scroll: taken.scroll } }
        : {};
      const context = { ...(taken.box ? { pinnedBox: taken.box } : {}), ...hidden };
      const pinned = view.draft?.anchor?.selector ?? null;
      const answer = await submitting(form, async () => {
        const answer = await store.createComment(
          view.draft && { ...view.draft, context },
          body,
          attach ? shoot : null,
          (captured) => maskedContext({ ...captured, ...recentSteps() }),
        );
        if (answer.ok) {
          // Left out when the reviewer unticked it: it never leaves the browser then.
          if ((form.elements.namedItem('replay') as HTMLInputElement | null)?.checked)
            await replay.send(answer.data.id, pinned);
          if (marked) URL.revokeObjectURL(marked.url);
          const failed = await sendImages(store, 'new', answer.data.id);
          if (failed) store.confirm(answer.data.id, t('images.notStored', { count: failed }), { refused: true });
          view.set({ draft: null, highlighted: answer.data.id });
        }
        return answer;
      });
      if (answer?.ok) focus(card(answer.data.id));
    },
    markUp: async () => {
      const draft = view.draft;
      if (!draft) return;
      const form = focus('#svc-markup')?.closest('form') ?? null;
      if (form) formStatus(form, t('markup.taking'));
      // Marked again: the marks drawn before stay in the picture, taken when it was.
      const element = draft.element?.isConnected ? draft.element : null;
      const taken = draft.marked?.taken ?? windowNow(element);
      const image = await (draft.marked ? Promise.resolve(draft.marked.blob) : host.screenshot(element, [])).catch(
        () => null,
      );
      form?.querySelector('.status')?.remove();
      if (!image) {
        if (form) formError(form, t('markup.failed'));
        return;
      }
      const root = form?.getRootNode();
      if (!(root instanceof ShadowRoot)) return;
      const markUp = await host.chunk('__svcMarkup').catch(() => null);
      const marked = await markUp?.({ image, windowWidth: taken.width, root, words: store.i18n }).catch(() => null);
      // Kept with the draft, unless it was cancelled meanwhile.
      if (marked && view.draft) {
        const was = view.draft.marked;
        if (was) URL.revokeObjectURL(was.url);
        const hidden = [...(was?.hidden ?? []), ...marked.hidden];
        const url = URL.createObjectURL(marked.image);
        view.set({ draft: { ...view.draft, marked: { blob: marked.image, url, taken, hidden } } });
      }
      focus('#svc-markup');
    },
    cancelDraft: () => {
      const marked = view.draft?.marked;
      if (marked) URL.revokeObjectURL(marked.url);
      forgetImages(store, 'new');
      view.set({ draft: null });
      focus('[data-new]');
    },
  };
}
