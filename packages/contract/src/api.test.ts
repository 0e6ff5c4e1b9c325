// The table is put together from its parts by spreading them: an endpoint declared in two parts
// would silently keep only the later one, so each is in exactly one.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { accountEndpoints } from './api/accounts.js';
import { commentEndpoints } from './api/comments.js';
import { notificationEndpoints } from './api/notifications.js';
import { opsEndpoints } from './api/ops.js';
import { projectEndpoints } from './api/projects.js';
import { ssoEndpoints } from './api/sso.js';
import { twoFactorEndpoints } from './api/two-factor.js';
import { workspaceEndpoints } from './api/workspace.js';
import { api } from './api.js';

test('every endpoint is declared in exactly one part of the table', () => {
  const parts = [
    accountEndpoints,
    commentEndpoints,
    notificationEndpoints,
    opsEndpoints,
    projectEndpoints,
    ssoEndpoints,
    twoFactorEndpoints,
    workspaceEndpoints,
  ];
  const declared = parts.flatMap((part) => Object.keys(part));
  assert.deepEqual(
    declared.filter((key, index) => declared.indexOf(key) !== index),
    [],
    'endpoints declared in two parts',
  );
  assert.deepEqual(new Set(declared), new Set(Object.keys(api)));
});
