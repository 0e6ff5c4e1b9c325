import { randomBytes } from 'node:crypto';
import type { Anchor } from '@svc/contract';
import type { Kysely } from 'kysely';
import { systemClock } from '../../clock.js';
import type { Tables } from '../../db/schema.js';
import { newId, nowIso } from '../../ids.js';
import { insertApiKey } from '../api-keys/repo.js';
import { hashPassword } from '../auth/passwords.js';
import { createUser, insertWorkspace } from '../auth/repo.js';
import { issueToken } from '../auth/tokens.js';
import { anchorColumns } from '../comments/presenter.js';
import { insertComment } from '../comments/repo.js';
import { insertProject } from '../projects/repo.js';

export const DEMO_EMAIL = 'admin@demo.local';
export const DEMO_PROJECT_KEY = 'demo';

export interface DemoCredentials {
  email: string;
  password: string;
  apiKey: string;
  projectKey: string;
}

/**
 * On an empty database, creates a demo workspace with an admin, a project, two open comments
 * on the demo page and an API key.
 * Returns the secrets so they can be shown once; returns null when there is data already.
 */
/** `origins` may call the API; `demoPageUrl` is the demo project's app (where its access links lead). */
export async function seedDemoIfEmpty(
  db: Kysely<Tables>,
  origins: string[],
  demoPageUrl: string,
): Promise<DemoCredentials | null> {
  const existing = await db.selectFrom('workspaces').select('id').limit(1).executeTakeFirst();
  if (existing) return null;
  const password = randomBytes(12).toString('base64url');
  const passwordHash = await hashPassword(password);
  const apiKey = issueToken('apiKey');
  await db.transaction().execute(async (trx) => {
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
      created_at: now,
    });
    // Something to triage in the console and to see pinned on the demo page.
    for (const [body, anchor] of [
      [
        'The Team price wraps onto two lines on a phone.',
        {
          selector: '#plan-team > p',
          x: 24,
          y: 12,
          tag: 'p',
          role: 'paragraph',
          text: { exact: '$49 /month' },
          classes: ['price'],
          context: {
            parent: 'Team $49 /month Unlimited dashboards 1-year history Alerts by e-mail Choose Team',
            previous: 'Team',
            next: 'Unlimited dashboards 1-year history Alerts by e-mail',
          },
          textCount: 1,
        },
      ],
      ['Could the page say whether prices include VAT?', null],
    ] as [string, Anchor | null][]) {
      await insertComment(trx, {
        id: newId('cmt'),
        workspace_id: workspaceId,
        project_id: projectId,
        author_id: admin.id,
        body,
        page_url: demoPageUrl,
        ...anchorColumns(anchor),
        repinned_at: null,
        repinned_by_id: null,
        status: 'open',
        commit_sha: null,
        commit_url: null,
        applied_by_id: null,
        applied_at: null,
        verified_at: null,
        deployed_at: null,
        deployed_build_sha: null,
        reply_count: 0,
        context: null,
        created_at: now,
        updated_at: now,
      });
    }
    await insertApiKey(trx, {
      id: newId('key'),
      workspace_id: workspaceId,
      user_id: admin.id,
      name: 'demo',
      key_hash: apiKey.hash,
      last_four: apiKey.token.slice(-4),
      created_at: now,
    });
  });
  return { email: DEMO_EMAIL, password, apiKey: apiKey.token, projectKey: DEMO_PROJECT_KEY };
}
