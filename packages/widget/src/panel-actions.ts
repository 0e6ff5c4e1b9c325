// What the panel's views ask for (see views/actions.ts): each changes the state through the
// store, whose announcements redraw the panel, then puts focus where the person expects it.
// A new comment's are in draft-actions.ts.
import type { Answer, Endpoint } from '@svc/contract/endpoints';
import { croppedAround } from '@svc/contract/image-encoding';
import { draftActions } from './draft-actions.js';
import { coversNow } from './hidden-regions.js';
import { Images } from './images.js';
import { Lists } from './lists.js';
import { byId, card, type PanelHost, windowNow } from './panel-host.js';
import { replayKeeper } from './replay-keeper.js';
import { signInWithSso } from './sso-popup.js';
import type { Store } from './store.js';
import type { Actions } from './views/actions.js';
import { isUncovered, nowShown, uncover } from './views/before-after.js';
import { submit } from './views/form.js';
import { imagesToSend, sendImages } from './views/image-attach.js';
import { rememberWelcomed } from './views/welcome.js';

/** What a card says once the team's triage is done. */
const TRIAGED = { archive: 'triage.archived', reopen: 'triage.reopened', claim: 'triage.claimed' } as const;

export function panelActions(host: PanelHost): Actions {
  const { store, focus } = host;
  const { view, session } = store;
  store.withPanelParts((announce) => ({
    images: new Images(session),
    lists: new Lists(session, store.projectKey, announce),
  }));
  const t = (...args: Parameters<Store['i18n']['t']>) => store.i18n.t(...args);
  /** A form's request (see `submit`), its field cleared before the panel is drawn again. */
  const submitting = <E extends Endpoint>(form: HTMLFormElement | null, request: () => Promise<Answer<E>>) =>
    host.batch(() => submit(form, request, store.i18n, () => session.refusedOrigin()));
  /**
   * Asks on comment `id`'s card (a deletion to confirm, a note to write), focus on `inside`;
   * with null, stops asking, focus back on the button that asked (`opener`).
   */
  const askOnCard = (which: 'deleting' | 'rejecting', id: string | null, inside: string, opener: string) => {
    const was = view[which];
    view.set({ [which]: id });
    if (id) focus(byId(inside, id));
    else if (was) focus(byId(opener, was));
  };
  /**
   * A picture of the page for comment `id`, `element` outlined. Every picture of an existing
   * comment is taken here: what its reviewer hid is painted over, unless its author chose to
   * show it in this one (see hidden-regions.ts).
   */
  const pictureOf = (id: string, element: Element | null) => {
    const c = store.comment(id);
    const { box, scroll } = windowNow(element);
    return host.screenshot(element, c && !isUncovered(store, c) ? coversNow(c.context, box, scroll) : []);
  };
  const takeNow = async (id: string) => {
    const element = host.elementOf(id);
    if (!element) {
      // A comment about the whole page (on it): the window as it is now.
      const c = store.comment(id);
      const wholePage = c && !c.anchor && c.pageUrl === store.page();
      return wholePage ? pictureOf(id, null).catch(() => null) : null;
    }
    const box = element.getBoundingClientRect();
    const shot = await pictureOf(id, element).catch(() => null);
    return shot && croppedAround(shot, box, innerWidth);
  };
  // The replay of the last moments, where the project keeps them (see replay-keeper.ts): from a
  // kept session on, or once the reviewer signs in here.
  const replay = replayKeeper(store, () => host.chunk('__svcReplay'));
  void replay.keep();
  const enterPanel = async () => {
    await host.enterPanel();
    void replay.keep();
  };
  return {
    replayState: () => replay.state(),
    stopReplay: () => {
      replay.stop(true);
      focus('#svc-replay-again');
    },
    keepReplayAgain: async () => {
      await replay.again();
      focus('#svc-replay-stop');
    },
    close: () => host.close(),
    startPicking: () => void host.pick(),
    welcomed: (pin) => {
      rememberWelcomed(store);
      view.set({});
      // Dismissed: focus goes back to the launcher beside it.
      if (pin) void host.pick();
      else host.close();
    },
    repin: (id) => {
      view.set({ repinning: id });
      void host.pick();
    },
    switchTab: (tab) => {
      view.set({ tab });
      focus('[aria-selected=true]');
      void (tab === 'updates' ? store.updates.load() : store.loadComments());
    },
    signIn: async (form, email, password) => {
      // A sign-in from the panel opens on the comments.
      view.set({ tab: 'comments' });
      const answer = await submitting(form, () => session.signIn(email, password));
      if (!answer?.ok) return;
      // Not signed in yet: a second factor to answer, or one to set up elsewhere.
      if (!session.user) focus('input');
      else await enterPanel();
    },
    continueWithSso: async () => {
      const popup = window.open('', 'svc-sso', 'popup,width=520,height=700');
      if (!popup) return session.tell(t('signIn.popupBlocked'));
      view.set({ tab: 'comments' });
      const refused = await signInWithSso(session, popup).catch(() => t('request.unreachable'));
      if (refused || !session.user) session.tell(refused ?? '');
      else await enterPanel();
    },
    answerSecondFactor: async (form, code) => {
      await submitting(form, () => session.answerSecondFactor(code));
      if (session.user) await enterPanel();
    },
    signOut: async () => {
      replay.stop(false);
      await store.signOut();
      host.signedOut();
      focus('input');
    },
    openComment: async (id, pageUrl) => {
      await host.batch(async () => {
        view.set({ tab: 'comments', highlighted: id, expanded: new Set([...view.expanded, id]) });
        await store.filter({ allPages: pageUrl !== store.page() });
        await store.loadThread(id);
        host.showPanel();
      });
      focus(card(id))?.scrollIntoView({ block: 'nearest' });
      const element = pageUrl === store.page() ? host.elementOf(id) : null;
      if (element) host.flash(element);
    },
    setStatus: (status) => void store.filter({ status }),
    setAllPages: (allPages) => void store.filter({ allPages }),
    showMore: () => void store.loadComments(true),
    setAssignee: (assignee) => void store.filter({ assignee }),
    triage: async (id, action) => {
      const request = () => store.api.call(`POST /api/comments/{id}/${action}`, { params: { id } });
      const answer = await store.act(id, request, t(TRIAGED[action])).catch(() => null);
      if (answer?.ok) focus(card(id));
    },
    setPriority: async (id, priority) => {
      const request = () => store.api.call('PUT /api/comments/{id}/priority', { params: { id }, body: { priority } });
      await store.act(id, request, t('triage.prioritySet')).catch(() => null);
      focus(byId('svc-priority-', id));
    },
    setLabels: async (id, labelIds) => {
      const request = () => store.api.call('PUT /api/comments/{id}/labels', { params: { id }, body: { labelIds } });
      await store.act(id, request, t('triage.labelsSet')).catch(() => null);
      focus(byId('svc-label-', id)) ?? focus(card(id));
    },
    setDeleting: (id) => askOnCard('deleting', id, 'svc-keep-', 'svc-delete-'),
    remove: async (id) => {
      await store.remove(id).catch(() => null);
      view.set({ deleting: null });
      focus('[aria-selected=true]');
    },
    toggleDetails: (id) => void view.toggle('details', id),
    toggleReplies: async (id) => {
      if (view.toggle('expanded', id)) await store.loadThread(id);
    },
    reply: async (form, id, body) => {
      const answer = await submitting(form, async () => {
        const answer = await store.reply(id, body);
        if (answer.ok && imagesToSend(store, `reply-${id}`).length) {
          const failed = await sendImages(store, `reply-${id}`, id, answer.data.id);
          if (failed) store.confirm(id, t('images.notStored', { count: failed }), { refused: true });
          await store.loadThread(id);
        }
        return answer;
      });
      if (answer?.ok) focus(byId('svc-reply-', id));
    },
    verify: async (form, id, body) => {
      const answer = await submitting(form, async () => {
        const answer = await store.verify(id, body);
        if (answer.ok) view.set({ rejecting: null });
        return answer;
      });
      if (!answer?.ok) return;
      focus(card(id));
      // The element as it is at the verdict, kept with it: taken again now (the page may have
      // changed since the card showed it), else the picture the card showed.
      const shown = store.comment(id);
      const now = (await takeNow(id)) ?? (shown ? await nowShown(store, shown) : null);
      if (now) await store.images.keep(id, 'verdict', now);
    },
    pictureNow: async (id) => {
      const shot = await takeNow(id);
      // The author's is kept on the server while the fix waits: the team sees what they see.
      if (shot && store.comment(id)?.author.id === store.session.user?.id) void store.images.keep(id, 'now', shot);
      return shot;
    },
    uncover: (id, shown) => {
      const c = store.comment(id);
      if (!c) return;
      uncover(store, c, shown);
      focus(byId('svc-uncover-', id));
    },
    setRejecting: (id) => askOnCard('rejecting', id, 'svc-note-', 'svc-not-fixed-'),
    retryScreenshot: async (id) => {
      store.confirm(id, t('screenshot.taking'));
      const attached = await store.attachScreenshot(id, () => pictureOf(id, host.elementOf(id)));
      if (attached) store.confirm(id, t('screenshot.attached'));
      await store.loadComments();
      focus(attached ? card(id) : byId('svc-shoot-', id));
    },
    setLanguage: async (locale) => {
      await session.setLocale(locale).catch(() => null);
      await host.speak();
      focus('#svc-language');
    },
    ...draftActions(host, submitting, replay),
  };
}
