// Every endpoint of the API as one value: the key is its method and path; the value what it
// does (its summary and description, as the API reference and the agents' tools read them), its
// path parameters, query, body, answers by status, the problems it may answer with, whether it
// is public (no token needed) and whether it answers conditionally (ETag, 304). The server
// registers each route from its value (`route()` in the server's `http/route.ts`), and the
// clients' types derive from them (`endpoints.ts`): a route cannot be served without being in
// the clients' map, nor be in the map without its schemas. Clients take only types from here.
// Each part of the product declares its endpoints in `api/` (one file per part, as the server's
// modules serve them); this is the one place they are put together.
import { accountEndpoints } from './api/accounts.js';
import { commentEndpoints } from './api/comments.js';
import { notificationEndpoints } from './api/notifications.js';
import { opsEndpoints } from './api/ops.js';
import { projectEndpoints } from './api/projects.js';
import { ssoEndpoints } from './api/sso.js';
import { twoFactorEndpoints } from './api/two-factor.js';
import { workspaceEndpoints } from './api/workspace.js';

export { FIX_WORDS, REPLAY_TYPES, SCREENSHOT_TYPES } from './api/comments.js';
export type { DescribedSettings, EndpointSpec } from './api/endpoint.js';

export const api = {
  ...accountEndpoints,
  ...ssoEndpoints,
  ...twoFactorEndpoints,
  ...projectEndpoints,
  ...commentEndpoints,
  ...notificationEndpoints,
  ...workspaceEndpoints,
  ...opsEndpoints,
} as const;

export type Api = typeof api;

/** Every endpoint, for the server's check that each is a route it serves and each route is one. */
export const ENDPOINTS = Object.keys(api) as (keyof Api)[];
