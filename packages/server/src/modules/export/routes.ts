import { Readable } from 'node:stream';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ExportQuery } from '@svc/contract';
import { Type } from 'typebox';
import { problemResponses } from '../../http/problem.js';
import { auditBy, recordAudit } from '../audit/audit.js';
import { authorize } from '../auth/policy.js';
import { getProject } from '../projects/service.js';
import { csvLines, jsonLines } from './export.js';

const TYPES = { jsonl: 'application/x-ndjson; charset=utf-8', csv: 'text/csv; charset=utf-8' } as const;

export const exportRoutes: FastifyPluginAsyncTypebox<{ version: string }> = async (app, { version }) => {
  app.get(
    '/api/workspace/export',
    {
      schema: {
        tags: ['workspace'],
        summary: "The workspace's (or one project's) comments, whole, as JSON Lines or CSV (admin), streamed",
        description:
          'JSON Lines: a header line, the projects, the people named (never a secret), then one line per comment with its replies, timeline and context, oldest first. CSV: one row per comment. Recorded in the audit log.',
        querystring: ExportQuery,
        response: { 200: Type.Unknown({ description: 'The file, streamed' }), ...problemResponses(400, 403, 404) },
      },
    },
    async (request, reply) => {
      const { actor } = request;
      authorize(actor, 'workspace.export');
      const format = request.query.format ?? 'jsonl';
      const project = request.query.project ? await getProject(app.database.db, actor, request.query.project) : null;
      await recordAudit(
        app.database.db,
        auditBy(actor),
        'exported',
        project ? { kind: 'project', id: project.id, label: project.key } : null,
        format === 'csv' ? 'CSV' : 'JSON Lines',
      );
      const source = { db: app.database.db, serverVersion: version, actor, projectId: project?.id ?? null };
      const day = new Date().toISOString().slice(0, 10);
      const name = `${project ? project.key : 'workspace'}-comments-${day}.${format}`;
      reply
        .type(TYPES[format])
        .header('content-disposition', `attachment; filename="${name}"`)
        .header('cache-control', 'no-store');
      return reply.send(Readable.from(format === 'csv' ? csvLines(source) : jsonLines(source)));
    },
  );
};
