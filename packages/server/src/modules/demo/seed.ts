import { randomBytes } from 'node:crypto';
import { systemClock } from '../../clock.js';
import { newId, nowIso } from '../../ids.js';
import { insertApiKey } from '../api-keys/repo.js';
import { hashPassword } from '../auth/passwords.js';
import { createUser, insertWorkspace } from '../auth/repo.js';
import { issueToken } from '../auth/tokens.js';
import { insertProject } from '../projects/repo.js';
import { REPLAY_OFF } from '../projects/service.js';
import { playDemoStory, type StoryDeps } from './story.js';

export const DEMO_EMAIL = 'admin@demo.local';
export const DEMO_PROJECT_KEY = 'demo';

export interface DemoCredentials {
  email: string;
  password: string;
  apiKey: string;
  projectKey: string;
}

/**
 * On an empty database, creates a demo workspace with an admin, a developer, a client and an agent, a
 * project and an API key, and plays its last few weeks (story.ts). `origins` may call the API;
 * `demoPageUrl` is the demo project's app (where its access links lead). Returns the secrets so
 * they can be shown once; returns null when there is data already.
 */
export async function seedDemoIfEmpty(
  deps: StoryDeps,
  origins: string[],
  demoPageUrl: string,
): Promise<DemoCredentials | null> {
  const { db } = deps;
  const existing = await db.selectFrom('workspaces').select('id').limit(1).executeTakeFirst();
  if (existing) return null;
  const password = randomBytes(12).toString('base64url');
  const passwordHash = await hashPassword(password);
  const apiKey = issueToken('apiKey');
  const cast = await db.transaction().execute(async (trx) => {
    const now = nowIso(systemClock);
    const workspaceId = newId('ws');
    await insertWorkspace(trx, { id: workspaceId, name: 'Demo workspace', created_at: now });
    const admin = await createUser(trx, systemClock, {
      workspace_id: workspaceId,
      email: DEMO_EMAIL,
      name: 'Demo Admin',
      role: 'admin',
      password_hash: passwordHash,
    });
    const projectId = newId('prj');
    await insertProject(trx, {
      id: projectId,
      workspace_id: workspaceId,
      key: DEMO_PROJECT_KEY,
      name: 'Demo site',
      repo_url: null,
      app_url: demoPageUrl,
      allowed_origins: JSON.stringify(origins),
      page_params: '[]',
      ...REPLAY_OFF,
      created_at: now,
    });
    await insertApiKey(trx, {
      id: newId('key'),
      workspace_id: workspaceId,
      user_id: admin.id,
      name: 'demo',
      key_hash: apiKey.hash,
      last_four: apiKey.token.slice(-4),
      created_at: now,
    });
    const member = (name: string, role: 'member' | 'client', kind: 'person' | 'agent' = 'person') =>
      createUser(trx, systemClock, { workspace_id: workspaceId, email: null, name, role, kind });
    return {
      admin,
      developer: await member('Maya (developer)', 'member'),
      client: await member('Clara (client)', 'client'),
      agent: await member('Fixer agent', 'member', 'agent'),
    };
  });
  await playDemoStory(deps, cast, { key: DEMO_PROJECT_KEY, pageUrl: demoPageUrl }, systemClock.now());
  return { email: DEMO_EMAIL, password, apiKey: apiKey.token, projectKey: DEMO_PROJECT_KEY };
}
