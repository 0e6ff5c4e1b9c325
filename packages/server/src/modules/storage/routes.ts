import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { route } from '../../http/route.js';
import { authorize } from '../../policy.js';
import { storageOf } from './quota.js';

const tags = ['workspace'];

export const storageRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const ctx = app.ctx;

  route(
    app,
    'GET /api/workspace/storage',
    {
      tags,
      summary: 'What the workspace stores of images and screenshots, and its quota (admins)',
      description:
        'Every upload counts: images of comments and replies, the pictures of after and of now, screenshots. A picture replaced, a comment or a project deleted, frees its bytes. An upload that would take the workspace past its quota is 413 `storage_quota_exceeded`; the quota is the server’s (SVC_STORAGE_QUOTA_MB) unless its operator set this workspace one (`npm run admin -- set-storage-quota`).',
    },
    async (request) => {
      authorize(request.actor, 'workspace.readStorage');
      return storageOf(ctx.db, request.actor.workspaceId, ctx.rules.storageQuotaBytes);
    },
  );
};
