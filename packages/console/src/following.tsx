// Which projects the person follows (is told of the new comments of), and the control that
// follows or leaves one: on the projects page, and on an inbox item of new comments.
import { api } from './api.js';
import { t } from './i18n.js';
import { useAction, useLoad } from './loading.js';

/** The caller's projects by key, each followed or not; `set` follows or leaves one. */
export function useFollowing() {
  const list = useLoad(() => api.call('GET /api/me/following', {}), []);
  const following = new Map((list.data?.items ?? []).map((item) => [item.projectKey, item.following]));
  const action = useAction();
  return {
    /** Undefined until loaded (the control waits for it). */
    of: (projectKey: string) => (list.data ? (following.get(projectKey) ?? false) : undefined),
    pending: action.pending,
    error: action.error,
    async set(projectKey: string, follow: boolean) {
      const answer = await action.run(() =>
        api.call('PUT /api/projects/{key}/following', { params: { key: projectKey }, body: { following: follow } }),
      );
      if (answer) list.reload();
      return answer !== null;
    },
  };
}

/** Follow or unfollow a project: the button says what it does, the project's name for screen readers. */
export function FollowButton({
  project,
  follows,
}: {
  project: { key: string; name: string };
  follows: ReturnType<typeof useFollowing>;
}) {
  const following = follows.of(project.key);
  if (following === undefined) return null;
  return (
    <button type="button" disabled={follows.pending} onClick={() => follows.set(project.key, !following)}>
      {t(following ? 'following.unfollow' : 'following.follow')}
      <span class="skip"> {project.name}</span>
    </button>
  );
}
