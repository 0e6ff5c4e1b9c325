import type { CreateProjectBody, UpdateProjectBody } from '@svc/contract';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/dialect/index.js';
import type { Db, ProjectTable, Tables } from '../../db/schema.js';
import { inTransaction } from '../../db/transaction.js';
import { AppError, invalidField, notFound } from '../../errors.js';
import { requireText } from '../../http/validation.js';
import { newId, nowIso } from '../../ids.js';
import { type Actor, scopeOf } from '../auth/actor.js';
import { authorize } from '../auth/policy.js';
import { credentialHashesOf } from '../auth/repo.js';
import * as repo from './repo.js';

interface Deps {
  db: Kysely<Tables>;
  database: Database;
}

/** An http(s) URL, or null when the text is not one. */
export function parseHttpUrl(text: string): URL | null {
  try {
    const url = new URL(text);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url : null;
  } catch {
    return null;
  }
}

/** `https://app.example.com` as a browser sends it in `Origin`: scheme, host and port only. */
function normaliseOrigin(text: string, path: string): string {
  const url = parseHttpUrl(text.trim());
  if (!url || (url.pathname !== '/' && url.pathname !== '') || url.search || url.hash || url.username) {
    throw invalidField(path, 'must be an origin such as https://app.example.com (no path)');
  }
  return url.origin;
}

/** An http(s) URL without its trailing slashes, or null for null. */
function normaliseUrl(text: string | null, path: string): string | null {
  if (text === null) return null;
  const url = parseHttpUrl(text.trim());
  if (!url || url.username || url.password) throw invalidField(path, 'must be an http(s) URL');
  return url.href.replace(/\/+$/, '');
}

const normaliseOrigins = (origins: readonly string[]) =>
  JSON.stringify([...new Set(origins.map((o, i) => normaliseOrigin(o, `/allowedOrigins/${i}`)))]);

/** Tells every server process (this one at once, others at commit) that the CORS origins changed. */
const originsChanged = (deps: Deps, trx: Db) => deps.database.changes.publish(trx, { kind: 'origins', key: '' });

export async function createProject(deps: Deps, actor: Actor, input: CreateProjectBody) {
  authorize(actor, 'projects.manage');
  const row: ProjectTable = {
    id: newId('prj'),
    workspace_id: actor.workspaceId,
    key: input.key,
    name: requireText(input.name, '/name'),
    repo_url: normaliseUrl(input.repoUrl ?? null, '/repoUrl'),
    app_url: normaliseUrl(input.appUrl ?? null, '/appUrl'),
    allowed_origins: normaliseOrigins(input.allowedOrigins ?? []),
    created_at: nowIso(),
  };
  try {
    await inTransaction(deps.db, async (trx) => {
      await repo.insertProject(trx, row);
      await originsChanged(deps, trx);
    });
  } catch (error) {
    if (deps.database.isUniqueViolation(error)) {
      throw new AppError('conflict', `A project with key "${input.key}" already exists.`, [
        { path: '/key', message: 'is already used by another project' },
      ]);
    }
    throw error;
  }
  return row;
}

/** Changes what the input names; the key stays (CLI configs and CI name it). */
export async function updateProject(deps: Deps, actor: Actor, key: string, input: UpdateProjectBody) {
  authorize(actor, 'projects.manage');
  if ('key' in input) {
    throw invalidField('/key', 'cannot change: CLI configurations and CI name the project by it');
  }
  const changes: Partial<ProjectTable> = {};
  if (input.name !== undefined) changes.name = requireText(input.name, '/name');
  if (input.repoUrl !== undefined) changes.repo_url = normaliseUrl(input.repoUrl, '/repoUrl');
  if (input.appUrl !== undefined) changes.app_url = normaliseUrl(input.appUrl, '/appUrl');
  if (input.allowedOrigins !== undefined) changes.allowed_origins = normaliseOrigins(input.allowedOrigins);
  return inTransaction(deps.db, async (trx) => {
    const project = await getProject(trx, actor, key);
    await repo.updateProject(trx, project.id, changes);
    if (changes.allowed_origins !== undefined) await originsChanged(deps, trx);
    return { ...project, ...changes };
  });
}

/**
 * Removes the project with everything in it (comments, replies, notifications, builds, and
 * the quick-access accounts limited to it) in one transaction. Unread counts of whoever had
 * notifications of it, and the sessions of those accounts, are dropped in every process.
 */
export async function deleteProject(deps: Deps, actor: Actor, key: string): Promise<void> {
  authorize(actor, 'projects.manage');
  await inTransaction(deps.db, async (trx) => {
    const project = await getProject(trx, actor, key);
    const recipients = await repo.unreadRecipientsOfProject(trx, project.id);
    const credentials = await credentialHashesOf(
      trx,
      actor.workspaceId,
      await repo.accountsLimitedToProject(trx, project.id),
    );
    await repo.deleteProject(trx, project.id);
    for (const userId of recipients) await deps.database.changes.publish(trx, { kind: 'unread', key: userId });
    for (const hash of credentials) await deps.database.changes.publish(trx, { kind: 'credential', key: hash });
    await originsChanged(deps, trx);
  });
}

export async function getProject(db: Db, actor: Actor, key: string) {
  const project = await repo.findProjectByKey(db, scopeOf(actor), key);
  if (!project) throw notFound(`Project "${key}"`);
  return project;
}
