// The long poll of GET /api/comments/changes: the comments changed since a cursor, and when
// none has yet, a wait for the next change the caller may see, up to the seconds it asked for.
// Agents (wait_for_feedback) and scripts hold it open instead of polling.
import type { CommentChangesQuery } from '@svc/contract';
import type { FastifyReply } from 'fastify';
import type { Actor } from '../../actor.js';
import type { AppContext } from '../../context.js';
import { changesSince } from './service.js';

type Changes = Awaited<ReturnType<typeof changesSince>>;

/**
 * The changes since the query's cursor; with none yet (and a cursor and a wait given), waits
 * until one of the project (of any project, without `project`) changes, the wait runs out, the
 * client goes away or the server closes.
 */
export async function waitForChanges(
  ctx: Pick<AppContext, 'db' | 'watch'>,
  actor: Actor,
  query: CommentChangesQuery,
  reply: FastifyReply,
): Promise<Changes> {
  const { watch } = ctx;
  let page = await changesSince(ctx, actor, query);
  if (page.rows.length > 0 || query.cursor === undefined || (query.wait ?? 0) <= 0) return page;
  // Stop waiting when the client goes away (the response closes before it is sent).
  const gone = new AbortController();
  const onClose = () => gone.abort();
  reply.raw.once('close', onClose);
  const projectId = query.project === undefined ? null : page.projectId;
  const until = Date.now() + (query.wait ?? 0) * 1000;
  // Woken with nothing new to show (the late notice of a write from before the wait, a
  // comment deleted since), it waits out the rest of its time: an empty answer means none came.
  while (page.rows.length === 0 && !watch.closed && !gone.signal.aborted && Date.now() < until) {
    await watch.wait(
      { workspaceId: actor.workspaceId, projectId },
      { userId: actor.id, credentialId: actor.credential.id },
      until - Date.now(),
      gone.signal,
    );
    page = await changesSince(ctx, actor, query);
  }
  reply.raw.off('close', onClose);
  // Answered because the server is closing: the connection must not linger as keep-alive.
  if (watch.closed) reply.header('connection', 'close');
  return page;
}
