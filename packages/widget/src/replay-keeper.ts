// The panel's side of the replay (see replay.ts, the recorder's own chunk): it loads the recorder
// once the page has loaded and the browser is idle, only for a signed-in reviewer whose project
// keeps replays, read from the project as the server
// says it now (an admin's switch takes effect at the next page load, no deploy), and unless the
// reviewer turned replays off on this browser. A comment sends what it holds, unless its
// reviewer unticks it. Signing out stops it and forgets what it held.
import type { ReplayRecorder } from './replay.js';
import type { Store } from './store.js';

/** The reviewer's own choice, on this browser: replays off. */
const OFF_KEY = 'svc-replay-off';

const offHere = () => {
  try {
    return localStorage.getItem(OFF_KEY) === '1';
  } catch {
    return false;
  }
};

/**
 * Resolves once the page has loaded and the browser is idle: the recorder's chunk and its first
 * full picture (a tenth of a second or more on a large page) then cost the page's load nothing.
 * What happened before it is not in the replay; a comment written that early has none.
 */
function pageSettled(): Promise<void> {
  const loaded =
    document.readyState === 'complete'
      ? Promise.resolve()
      : new Promise<void>((done) => addEventListener('load', () => done(), { once: true }));
  // Safari has no idle callback: a timer then, out of the load's own tasks.
  return loaded.then(
    () =>
      new Promise<void>((done) => {
        if ('requestIdleCallback' in window) requestIdleCallback(() => done(), { timeout: 5000 });
        else setTimeout(done, 500);
      }),
  );
}

export interface ReplayState {
  /** Keeping the last `seconds` now. */
  kept: boolean;
  /** The project keeps replays, and this reviewer turned them off here. */
  offForYou: boolean;
  seconds: number;
}

export function replayKeeper(store: Store, load: () => Promise<ReplayRecorder>) {
  let recorder: ReplayRecorder | null = null;
  let project: { on: boolean; seconds: number; maskAllText: boolean } | null = null;
  const changed = () => store.view.set({});
  return {
    state: (): ReplayState => ({
      kept: !!recorder?.running(),
      offForYou: !!project?.on && offHere(),
      seconds: project?.seconds ?? 0,
    }),
    /** Starts keeping, when the reviewer is signed in, their project keeps replays and they did not turn it off. */
    async keep(): Promise<void> {
      if (!store.session.api.token || recorder?.running()) return;
      const answer = await store.api
        .call('GET /api/projects/{key}', { params: { key: store.projectKey } })
        .catch(() => null);
      project = answer?.ok ? answer.data.replay : null;
      if (!project?.on || offHere() || !store.session.api.token) return changed();
      await pageSettled();
      if (offHere() || !store.session.api.token || recorder?.running()) return changed();
      recorder = await load().catch(() => null);
      recorder?.start({ seconds: project.seconds, maskAllText: project.maskAllText });
      changed();
    },
    /** Stops; `forYou`: and keeps none on this browser until the reviewer asks again. */
    stop(forYou: boolean): void {
      try {
        if (forYou) localStorage.setItem(OFF_KEY, '1');
      } catch {
        // Private browsing without storage: off for this page only.
      }
      recorder?.stop();
      changed();
    },
    /** The reviewer asks for replays again on this browser. */
    again(): Promise<void> {
      try {
        localStorage.removeItem(OFF_KEY);
      } catch {
        // Nothing was kept: nothing to remove.
      }
      return this.keep();
    },
    /** Sends what it holds with comment `id`, the pin marked at its end; false when it could not be sent. */
    async send(id: string, selector: string | null): Promise<boolean> {
      const replay = recorder?.running() ? await recorder.take({ selector }).catch(() => null) : null;
      if (!replay) return false;
      const answer = await store.api
        .call('PUT /api/comments/{id}/replay', { params: { id }, body: replay })
        .catch(() => null);
      return !!answer?.ok;
    },
  };
}

export type ReplayKeeper = ReturnType<typeof replayKeeper>;
