import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply } from 'fastify';
import type { Actor } from '../../actor.js';
import { route } from '../../http/route.js';
import { consumeRateLimit } from '../../limits/rate-limit.js';
import { authorize } from '../../policy.js';
import { auditBy, recordAudit } from '../audit/audit.js';
import { getProject } from '../projects/service.js';
import { ExportThreads } from './export-thread.js';
import { screenshotsZip } from './screenshots.js';

const TYPES = { jsonl: 'application/x-ndjson; charset=utf-8', csv: 'text/csv; charset=utf-8' } as const;

export const exportRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const ctx = app.ctx;
  // Exports run on threads of their own, off the server's (started when first needed).
  const exports = new ExportThreads(ctx.config.database, ctx.db);
  app.addHook('onClose', () => exports.close());
  route(app, 'GET /api/workspace/export', { tags: ['workspace'] }, async (request, reply) => {
    const format = request.query.format ?? 'jsonl';
    const { actor, project } = await startExport(
      request.actor,
      request.query.project,
      format === 'csv' ? 'CSV' : 'JSON Lines',
    );
    download(reply, TYPES[format], `${project ? project.key : 'workspace'}-comments-${today()}.${format}`);
    return reply.send(exports.lines({ format, serverVersion: ctx.version, actor, projectId: project?.id ?? null }));
  });

  route(app, 'GET /api/workspace/export/screenshots', { tags: ['workspace'] }, async (request, reply) => {
    const { actor, project } = await startExport(request.actor, request.query.project, 'screenshots (zip)');
    download(reply, 'application/zip', `${project ? project.key : 'workspace'}-screenshots-${today()}.zip`);
    return reply.send(screenshotsZip({ db: ctx.database.reads, actor, projectId: project?.id ?? null }));
  });

  /** An admin's export of the workspace or one project (404 for one it cannot see), recorded in the audit log. */
  async function startExport(actor: Actor, projectKey: string | undefined, what: string) {
    authorize(actor, 'workspace.export');
    await consumeRateLimit(ctx.db, ctx.rules.exports, actor.id, ctx.clock.now());
    const project = projectKey ? await getProject(ctx, actor, projectKey) : null;
    await recordAudit(
      ctx.db,
      auditBy(actor),
      'exported',
      project ? { kind: 'project', id: project.id, label: project.key } : null,
      what,
    );
    return { actor, project };
  }
};

const today = () => new Date().toISOString().slice(0, 10);

function download(reply: FastifyReply, type: string, name: string) {
  reply.type(type).header('content-disposition', `attachment; filename="${name}"`).header('cache-control', 'no-store');
}
