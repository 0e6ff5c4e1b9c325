import type { Actor } from '../../actor.js';
import type { AppContext } from '../../context.js';
import { nowIso } from '../../ids.js';
import { authorize } from '../../policy.js';
import { listProjects } from '../projects/repo.js';
import { getProject } from '../projects/service.js';
import * as repo from './repo.js';

type Deps = Pick<AppContext, 'db' | 'clock'>;

/** Every project the caller can see, and whether they follow it. */
export async function listFollowing({ db }: Pick<AppContext, 'db'>, actor: Actor) {
  authorize(actor, 'projects.follow');
  const [projects, followed] = await Promise.all([
    listProjects(db, { workspaceId: actor.workspaceId, projectId: actor.projectId }),
    repo.followedProjectIds(db, actor),
  ]);
  const following = new Set(followed);
  return projects.map((project) => ({ projectKey: project.key, following: following.has(project.id) }));
}

/** Follows or leaves the project (by key, 404 outside the caller's scope): the caller's choice from now on. */
export async function setFollowing(deps: Deps, actor: Actor, projectKey: string, following: boolean) {
  authorize(actor, 'projects.follow');
  const project = await getProject(deps, actor, projectKey);
  await repo.chooseFollowing(deps.db, actor, project.id, following, nowIso(deps.clock));
  return { projectKey: project.key, following };
}
