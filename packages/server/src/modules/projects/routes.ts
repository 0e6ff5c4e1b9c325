import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { CreateProjectBody, Project, ProjectKeyParams, UpdateProjectBody } from '@svc/contract';
import { Type } from 'typebox';
import { problemResponses } from '../../http/problem.js';
import { scopeOf } from '../auth/actor.js';
import { presentProject } from './presenter.js';
import { listProjects } from './repo.js';
import * as service from './service.js';

const tags = ['projects'];

export const projectRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const deps = { db: app.database.db, database: app.database };

  app.post(
    '/api/projects',
    {
      schema: {
        tags,
        summary: 'Create a project (admin)',
        body: CreateProjectBody,
        response: { 201: Project, ...problemResponses(403, 409) },
      },
    },
    async (request, reply) =>
      reply.code(201).send(presentProject(await service.createProject(deps, request.actor, request.body))),
  );

  app.get(
    '/api/projects',
    {
      schema: {
        tags,
        summary: "The workspace's projects",
        response: { 200: Type.Object({ items: Type.Array(Project) }), ...problemResponses() },
      },
    },
    async (request) => ({ items: (await listProjects(app.database.db, scopeOf(request.actor))).map(presentProject) }),
  );

  app.get(
    '/api/projects/:key',
    {
      schema: {
        tags,
        summary: 'One project',
        params: ProjectKeyParams,
        response: { 200: Project, ...problemResponses(404) },
      },
    },
    async (request) => presentProject(await service.getProject(app.database.db, request.actor, request.params.key)),
  );

  app.patch(
    '/api/projects/:key',
    {
      schema: {
        tags,
        summary: "Change a project's name, repository URL, app URL or allowed origins (admin); the key stays",
        params: ProjectKeyParams,
        body: UpdateProjectBody,
        response: { 200: Project, ...problemResponses(403, 404) },
      },
    },
    async (request) =>
      presentProject(await service.updateProject(deps, request.actor, request.params.key, request.body)),
  );

  app.delete(
    '/api/projects/:key',
    {
      schema: {
        tags,
        summary:
          'Delete a project with its comments, replies, notifications, builds and limited client accounts (admin)',
        params: ProjectKeyParams,
        response: { 204: Type.Null(), ...problemResponses(403, 404) },
      },
    },
    async (request, reply) => {
      await service.deleteProject(deps, request.actor, request.params.key);
      return reply.code(204).send(null);
    },
  );
};
