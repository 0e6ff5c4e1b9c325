import { CreateProjectBody, REPLAY_SECONDS, type ReplaySettings, type UpdateProjectBody } from '@svc/contract';
import { type Actor, scopeOf } from '../../actor.js';
import type { AppContext } from '../../context.js';
import type { Db, ProjectTable } from '../../db/schema.js';
import { inTransaction } from '../../db/transaction.js';
import { AppError, invalidField, notFound } from '../../errors.js';
import { requireName, requireStoredLength } from '../../http/validation.js';
import { newId, nowIso } from '../../ids.js';
import { authorize } from '../../policy.js';
import { auditBy, recordAudit } from '../audit/audit.js';
import { credentialHashesOf } from '../auth/repo.js';
import { lockStoredCount } from '../storage/uploads.js';
import * as repo from './repo.js';

type Deps = Pick<AppContext, 'db' | 'database' | 'clock'>;

/** An http(s) URL, or null when the text is not one. */
export function parseHttpUrl(text: string): URL | null {
  try {
    const url = new URL(text);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url : null;
  } catch {
    return null;
  }
}

/** The longest origin, and repository or app URL, as stored: as the API takes them (and an import). */
const ORIGIN_FIELD = CreateProjectBody.properties.allowedOrigins.items;
const URL_FIELD = CreateProjectBody.properties.repoUrl;

/** `https://app.example.com` as a browser sends it in `Origin`: scheme, host and port only. */
function normaliseOrigin(text: string, path: string): string {
  const url = parseHttpUrl(text.trim());
  if (!url || (url.pathname !== '/' && url.pathname !== '') || url.search || url.hash || url.username) {
    throw invalidField(path, 'must be an origin such as https://app.example.com (no path)');
  }
  return requireStoredLength(url.origin, ORIGIN_FIELD, path);
}

/** An http(s) URL without its trailing slashes, or null for null. */
function normaliseUrl(text: string | null, path: string): string | null {
  if (text === null) return null;
  const url = parseHttpUrl(text.trim());
  if (!url || url.username || url.password) throw invalidField(path, 'must be an http(s) URL');
  return requireStoredLength(url.href.replace(/\/+$/, ''), URL_FIELD, path);
}

const normaliseOrigins = (origins: readonly string[]) =>
  JSON.stringify([...new Set(origins.map((o, i) => normaliseOrigin(o, `/allowedOrigins/${i}`)))]);

/** The query parameters that identify a page, once each, in name order. */
const pageParamsOf = (names: readonly string[]) => JSON.stringify([...new Set(names)].sort());

/** The project's query parameters that identify a page (see `pageOf`). */
export const pageParamsOfProject = (project: Pick<ProjectTable, 'page_params'>) =>
  JSON.parse(project.page_params) as string[];

/** A new project's replay settings: off, for the default length, text shown (inputs are always masked). */
export const REPLAY_OFF = { replay_on: 0, replay_seconds: REPLAY_SECONDS.default, replay_mask_text: 0 } as const;

/** The columns of the replay settings `replay` names (the others stay). */
export function replayColumns(replay: Partial<ReplaySettings>) {
  const columns: Partial<Pick<ProjectTable, 'replay_on' | 'replay_seconds' | 'replay_mask_text'>> = {};
  if (replay.on !== undefined) columns.replay_on = replay.on ? 1 : 0;
  if (replay.seconds !== undefined) columns.replay_seconds = replay.seconds;
  if (replay.maskAllText !== undefined) columns.replay_mask_text = replay.maskAllText ? 1 : 0;
  return columns;
}

/** Tells every server process (this one at once, others at commit) that the CORS origins changed. */
const originsChanged = (deps: Deps, trx: Db) => deps.database.changes.publish(trx, { kind: 'origins', key: '' });

/** A project's columns an update may change, as the audit log names them. */
const CHANGE_WORDS = {
  name: 'name',
  repo_url: 'repository URL',
  app_url: 'app URL',
  allowed_origins: 'allowed origins',
  page_params: 'page parameters',
  replay_on: 'replay',
  replay_seconds: 'replay length',
  replay_mask_text: 'replay text masking',
} as const;

const projectTarget = (project: { id: string; key: string }) =>
  ({ kind: 'project', id: project.id, label: project.key }) as const;

export async function createProject(deps: Deps, actor: Actor, input: CreateProjectBody) {
  authorize(actor, 'projects.manage');
  const row: ProjectTable = {
    id: newId('prj'),
    workspace_id: actor.workspaceId,
    key: input.key,
    name: requireName(input.name, '/name'),
    repo_url: normaliseUrl(input.repoUrl ?? null, '/repoUrl'),
    app_url: normaliseUrl(input.appUrl ?? null, '/appUrl'),
    allowed_origins: normaliseOrigins(input.allowedOrigins ?? []),
    page_params: pageParamsOf(input.pageParams ?? []),
    ...REPLAY_OFF,
    created_at: nowIso(deps.clock),
  };
  try {
    await inTransaction(deps.db, async (trx) => {
      await repo.insertProject(trx, row);
      await originsChanged(deps, trx);
      await recordAudit(trx, auditBy(actor), 'project_created', projectTarget(row));
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
  if (input.name !== undefined) changes.name = requireName(input.name, '/name');
  if (input.repoUrl !== undefined) changes.repo_url = normaliseUrl(input.repoUrl, '/repoUrl');
  if (input.appUrl !== undefined) changes.app_url = normaliseUrl(input.appUrl, '/appUrl');
  if (input.allowedOrigins !== undefined) changes.allowed_origins = normaliseOrigins(input.allowedOrigins);
  if (input.pageParams !== undefined) changes.page_params = pageParamsOf(input.pageParams);
  Object.assign(changes, replayColumns(input.replay ?? {}));
  return inTransaction(deps.db, async (trx) => {
    const project = await getProject({ db: trx }, actor, key);
    await repo.updateProject(trx, project.id, changes);
    if (changes.allowed_origins !== undefined) await originsChanged(deps, trx);
    const changed = (Object.keys(changes) as (keyof typeof CHANGE_WORDS)[])
      .filter((column) => changes[column] !== project[column])
      .map((column) => CHANGE_WORDS[column]);
    const detail = changed.length ? `changed ${changed.join(', ')}` : 'nothing changed';
    await recordAudit(trx, auditBy(actor), 'project_updated', projectTarget(project), detail);
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
    const project = await getProject({ db: trx }, actor, key);
    const limited = await repo.accountsLimitedToProject(trx, project.id);
    // What goes with it locked before the project's row, in the order of every other change
    // (see `Database.lockRows`): the workspace's stored count, its limited accounts, its
    // comments. A write in one of its comments (an upload, a reply) holds the comment and then
    // refers to the project, and would otherwise wait for this deletion while it waited for that
    // comment.
    await lockStoredCount(trx, deps, actor.workspaceId);
    await deps.database.lockRows(trx, { table: 'users', workspaceId: actor.workspaceId, ids: limited }, 'delete');
    await deps.database.lockRows(
      trx,
      { table: 'comments', workspaceId: actor.workspaceId, projectId: project.id },
      'delete',
    );
    const recipients = await repo.unreadRecipientsOfProject(trx, project.id);
    const credentials = await credentialHashesOf(trx, actor.workspaceId, limited);
    await repo.deleteProject(trx, project.id);
    await recordAudit(trx, auditBy(actor), 'project_deleted', projectTarget(project), project.name);
    for (const userId of recipients) await deps.database.changes.publish(trx, { kind: 'unread', key: userId });
    for (const hash of credentials) await deps.database.changes.publish(trx, { kind: 'credential', key: hash });
    await originsChanged(deps, trx);
  });
}

export async function getProject({ db }: Pick<AppContext, 'db'>, actor: Actor, key: string) {
  const project = await repo.findProjectByKey(db, scopeOf(actor), key);
  if (!project) throw notFound(`Project "${key}"`);
  return project;
}

/** Refused origins are offered for this long after the last refusal. */
const REFUSED_ORIGINS_SHOWN_MS = 30 * 24 * 60 * 60 * 1000;

/**
 * Whether a page on `origin` may use the widget of the project with this key (in some
 * workspace). A refusal is recorded for the console to offer, but only when one project on the
 * server has the key: with several, the page could be any workspace's, and recording it in all
 * would show one workspace's addresses to another.
 */
export async function checkWidgetOrigin(deps: Pick<Deps, 'db' | 'clock'>, key: string, origin: string | undefined) {
  const { db } = deps;
  const normalised = origin ? parseHttpUrl(origin)?.origin : undefined;
  if (!normalised || normalised !== origin) return { origin: origin ?? null, allowed: false };
  const projects = await repo.projectsWithKey(db, key);
  const allowed = projects.some((p) => (JSON.parse(p.allowed_origins) as string[]).includes(normalised));
  const [only] = projects;
  if (!allowed && only && projects.length === 1)
    await repo.recordRefusedOrigin(db, only, normalised, nowIso(deps.clock));
  return { origin: normalised, allowed };
}

/** The origins the project's widget was refused on lately and that it still does not allow (admin). */
export async function refusedOrigins({ db }: Pick<AppContext, 'db'>, actor: Actor, key: string, now: number) {
  authorize(actor, 'projects.manage');
  const project = await getProject({ db }, actor, key);
  const allowed = new Set(JSON.parse(project.allowed_origins) as string[]);
  const since = new Date(now - REFUSED_ORIGINS_SHOWN_MS).toISOString();
  const rows = await repo.listRefusedOrigins(db, actor.workspaceId, project.id, since);
  return rows.filter((row) => !allowed.has(row.origin));
}
