import type { CreateProjectBody } from '@svc/contract';
import type { Kysely } from 'kysely';
import type { Tables } from '../../db/schema.js';
import { AppError, invalidField, notFound } from '../../errors.js';
import { requireText } from '../../http/validation.js';
import { newId, nowIso } from '../../ids.js';
import { type Actor, scopeOf } from '../auth/actor.js';
import { authorize } from '../auth/policy.js';
import * as repo from './repo.js';

interface Deps {
  db: Kysely<Tables>;
  isUniqueViolation: (error: unknown) => boolean;
  onOriginsChanged: () => void;
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

export async function createProject(deps: Deps, actor: Actor, input: CreateProjectBody) {
  authorize(actor, 'projects.create');
  const name = requireText(input.name, '/name');
  let repoUrl: string | null = null;
  if (input.repoUrl !== undefined) {
    const url = parseHttpUrl(input.repoUrl.trim());
    if (!url) throw invalidField('/repoUrl', 'must be an http(s) URL');
    repoUrl = url.href.replace(/\/+$/, '');
  }
  const origins = [...new Set((input.allowedOrigins ?? []).map((o, i) => normaliseOrigin(o, `/allowedOrigins/${i}`)))];
  const row = {
    id: newId('prj'),
    workspace_id: actor.workspaceId,
    key: input.key,
    name,
    repo_url: repoUrl,
    allowed_origins: JSON.stringify(origins),
    created_at: nowIso(),
  };
  try {
    await repo.insertProject(deps.db, row);
  } catch (error) {
    if (deps.isUniqueViolation(error)) {
      throw new AppError('conflict', `A project with key "${input.key}" already exists.`, [
        { path: '/key', message: 'is already used by another project' },
      ]);
    }
    throw error;
  }
  deps.onOriginsChanged();
  return row;
}

export async function getProject(db: Kysely<Tables>, actor: Actor, key: string) {
  const project = await repo.findProjectByKey(db, scopeOf(actor), key);
  if (!project) throw notFound(`Project "${key}"`);
  return project;
}
