// Projects and their builds: creating and settling projects, the origins the widget was refused
// on, reported builds and what waits for a deploy, and following a project (served by the
// server's modules/projects, builds and following).
import { Type } from 'typebox';
import {
  Build,
  BuildReportBody,
  BuildReportResult,
  CreateProjectBody,
  FollowingBody,
  OriginCheck,
  OriginCheckQuery,
  Page,
  PageOnlyQuery,
  PendingDeploy,
  PendingDeployQuery,
  Project,
  ProjectFollowing,
  ProjectFollowings,
  ProjectKeyParams,
  RefusedOrigin,
  UpdateProjectBody,
} from '../index.js';
import { endpoint } from './endpoint.js';

export const projectEndpoints = {
  'POST /api/projects/{key}/builds': endpoint({
    summary: 'Report a deployed build: its comments go Live',
    description:
      'Every SHA is trimmed and lowercased and must be 7-40 hex characters; one bad entry fails the whole report. A pending comment is deployed when its commit is the same commit (one SHA a prefix of the other) as sha or an entry of containsCommitShas. 201 when the sha is first seen for the project, 200 (nothing done) on a repeat. Rate limited per user.',
    params: ProjectKeyParams,
    body: BuildReportBody,
    answers: { 200: BuildReportResult, 201: BuildReportResult },
    problems: [403, 404, 429],
  }),
  'GET /api/projects/{key}/builds': endpoint({
    summary: "A project's reported builds, newest first",
    params: ProjectKeyParams,
    query: PageOnlyQuery,
    answers: { 200: Page(Build) },
    problems: [404],
  }),
  'GET /api/projects/{key}/comments/pending-deploy': endpoint({
    summary: 'Applied comments whose commit no reported build has carried yet, oldest first',
    params: ProjectKeyParams,
    query: PendingDeployQuery,
    answers: { 200: Page(PendingDeploy) },
    problems: [404],
  }),
  'POST /api/projects': endpoint({
    summary: 'Create a project (admin)',
    body: CreateProjectBody,
    answers: { 201: Project },
    problems: [403, 409],
  }),
  'GET /api/projects': endpoint({
    summary: "The workspace's projects",
    answers: { 200: Type.Object({ items: Type.Array(Project) }) },
    problems: [],
  }),
  'GET /api/projects/{key}': endpoint({
    summary: 'One project',
    params: ProjectKeyParams,
    answers: { 200: Project },
    problems: [404],
  }),
  'PATCH /api/projects/{key}': endpoint({
    summary: "Change a project's name, repository URL, app URL or allowed origins (admin); the key stays",
    params: ProjectKeyParams,
    body: UpdateProjectBody,
    answers: { 200: Project },
    problems: [403, 404],
  }),
  'DELETE /api/projects/{key}': endpoint({
    summary: 'Delete a project with its comments, replies, notifications, builds and limited client accounts (admin)',
    params: ProjectKeyParams,
    answers: { 204: Type.Null() },
    problems: [403, 404],
  }),
  'GET /api/me/following': endpoint({
    summary: 'The projects you follow: you are told of their new comments',
    description:
      'Every project you can see, each with `following`. Admins follow every project, and members the projects where they are on a comment, unless they chose otherwise (PUT /api/projects/{key}/following). Quick-access accounts follow nothing (403).',
    answers: { 200: ProjectFollowings },
    problems: [403],
  }),
  'PUT /api/projects/{key}/following': endpoint({
    summary: 'Follow a project, or leave it',
    description:
      'Followers are told of each new comment of the project (`CommentCreated`; those arriving while the last one is unread gather in it) and find the comments nobody is on in My work (`GET /api/comments?followed=me&assignee=none&status=open`). Your choice stands over the default; the same again changes nothing. The team only (403 for quick-access accounts).',
    params: ProjectKeyParams,
    body: FollowingBody,
    answers: { 200: ProjectFollowing },
    problems: [403, 404],
  }),
  'GET /api/projects/{key}/refused-origins': endpoint({
    summary: "Origins the project's widget was refused on in the last 30 days, still not allowed (admin)",
    params: ProjectKeyParams,
    answers: { 200: Type.Object({ items: Type.Array(RefusedOrigin) }) },
    problems: [403, 404],
  }),
  'GET /api/widget/origin-check': endpoint({
    summary: 'Whether the calling page (its Origin header) may use the widget of a project',
    description:
      "Readable from any origin. A refusal is noted for the project's admins (GET /api/projects/{key}/refused-origins) when only one project on the server has the key. Limited per client address.",
    query: OriginCheckQuery,
    answers: { 200: OriginCheck },
    problems: [429],
    public: true,
  }),
} as const;
