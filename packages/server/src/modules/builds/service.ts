import { type BuildReportBody, normalizeSha } from '@svc/contract';
import type { Actor } from '../../actor.js';
import type { AppContext } from '../../context.js';
import { inTransaction, unlessGone } from '../../db/transaction.js';
import { invalidField, notFound } from '../../errors.js';
import { pageRequest } from '../../http/pagination.js';
import { newId, nowIso } from '../../ids.js';
import { consumeRateLimit } from '../../limits/rate-limit.js';
import { authorize } from '../../policy.js';
import { deployedByBuild } from '../comments/lifecycle.js';
import { getProject } from '../projects/service.js';
import * as repo from './repo.js';

export type BuildDeps = Pick<AppContext, 'db' | 'database' | 'events' | 'rules' | 'clock'>;

function requireSha(value: string, path: string): string {
  const sha = normalizeSha(value);
  if (!sha) throw invalidField(path, 'must be 7-40 hexadecimal characters');
  return sha;
}

/**
 * A deployed build: every pending comment of the project whose commit is the build's
 * commit or one it contains goes Live, once. A sha already reported changes nothing.
 */
export async function reportBuild(deps: BuildDeps, actor: Actor, projectKey: string, input: BuildReportBody) {
  authorize(actor, 'builds.report');
  const project = await getProject(deps, actor, projectKey);
  // One malformed entry fails the whole report, before anything is written.
  const sha = requireSha(input.sha, '/sha');
  const contained = (input.containsCommitShas ?? []).map((entry, i) => requireSha(entry, `/containsCommitShas/${i}`));
  await consumeRateLimit(deps.db, deps.rules.buildReports, actor.id, deps.clock.now());

  // The comments it makes Live first, then the build's row, which refers to the project: the
  // order of every change in a project (see `Database.lockRows`), so that the project's
  // deletion meanwhile waits for this report, or this one for it, never both for each other.
  // A build reported already undoes what this one stamped: its comments are those it stamped.
  const write = () =>
    inTransaction(deps.db, async (trx) => {
      const buildId = newId('bld');
      const at = nowIso(deps.clock);
      const deployedCommentIds = await deployedByBuild(
        trx,
        deps,
        { workspaceId: actor.workspaceId, projectId: project.id, buildSha: sha, at },
        [...new Set([sha, ...contained])],
        actor,
      );
      const firstSeen = await repo.insertBuildOnce(trx, {
        id: buildId,
        workspace_id: actor.workspaceId,
        project_id: project.id,
        sha,
        reported_by_id: actor.id,
        created_at: at,
      });
      if (!firstSeen) throw new ReportedAlready();
      await repo.recordDeployments(trx, actor.workspaceId, buildId, deployedCommentIds);
      return { sha, firstSeen, deployedCommentIds };
    });
  try {
    // The project deleted meanwhile: refused as it would be a moment later.
    return await unlessGone(deps.database, write, () => notFound(`Project "${projectKey}"`));
  } catch (error) {
    if (error instanceof ReportedAlready) return { sha, firstSeen: false, deployedCommentIds: [] as string[] };
    throw error;
  }
}

/** Rolls back a report of a build the project has already. */
class ReportedAlready extends Error {}

export async function listPendingDeploy(
  { db }: Pick<AppContext, 'db'>,
  actor: Actor,
  projectKey: string,
  query: { limit?: number; cursor?: string },
) {
  const project = await getProject({ db }, actor, projectKey);
  const { limit, after, fetch } = pageRequest(query);
  return { rows: await repo.listPendingDeploy(db, actor.workspaceId, project.id, after, fetch), limit };
}

export async function listBuilds(
  { db }: Pick<AppContext, 'db'>,
  actor: Actor,
  projectKey: string,
  query: { limit?: number; cursor?: string },
) {
  const project = await getProject({ db }, actor, projectKey);
  const { limit, after, fetch } = pageRequest(query);
  const rows = await repo.listBuilds(db, actor.workspaceId, project.id, after, fetch);
  const deployments = await repo.deploymentsOf(
    db,
    actor.workspaceId,
    rows.slice(0, limit).map((row) => row.id),
  );
  return { rows, limit, deployments };
}
