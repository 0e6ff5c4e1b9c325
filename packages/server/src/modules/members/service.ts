import type { AddMemberBody, CreateQuickAccessBody } from '@svc/contract';
import { invalidField } from '../../errors.js';
import { requireText } from '../../http/validation.js';
import { type Actor, scopeOf } from '../auth/actor.js';
import { hashPassword, requireUncommonPassword } from '../auth/passwords.js';
import { authorize } from '../auth/policy.js';
import * as accounts from '../auth/repo.js';
import { type AuthDeps, normaliseEmail, withUniqueEmail } from '../auth/service.js';
import { issueToken } from '../auth/tokens.js';
import { findProjectByKey } from '../projects/repo.js';

type Deps = Pick<AuthDeps, 'db' | 'database'>;

export async function addMember(deps: Deps, actor: Actor, input: AddMemberBody) {
  authorize(actor, 'workspace.addMember');
  const email = normaliseEmail(input.email);
  const name = requireText(input.name, '/name');
  requireUncommonPassword(input.password, '/password');
  const passwordHash = await hashPassword(input.password);
  return withUniqueEmail(deps, email, () =>
    accounts.createUser(deps.db, {
      workspace_id: actor.workspaceId,
      email,
      name,
      role: input.role,
      password_hash: passwordHash,
    }),
  );
}

export async function createQuickAccess(deps: Deps, actor: Actor, input: CreateQuickAccessBody) {
  authorize(actor, 'workspace.createQuickAccess');
  const name = requireText(input.name, '/name');
  let projectId: string | null = null;
  if (input.projectKey !== undefined) {
    const project = await findProjectByKey(deps.db, scopeOf(actor), input.projectKey);
    if (!project) throw invalidField('/projectKey', 'names no project of this workspace');
    projectId = project.id;
  }
  const email = input.email === undefined ? null : normaliseEmail(input.email);
  const create = async () => {
    const { token, hash } = issueToken('access');
    const user = await accounts.createUser(deps.db, {
      workspace_id: actor.workspaceId,
      email,
      name,
      role: 'client',
      access_token_hash: hash,
      project_id: projectId,
    });
    return { user, accessToken: token };
  };
  return email === null ? create() : withUniqueEmail(deps, email, create);
}
