import { type Static, Type } from 'typebox';
import { Line, Nullable, PageQuery, Timestamp } from './common.js';
import { PENDING_DEPLOY_PAGE_MAX } from './rules.js';
import { MAX_CONTAINED_SHAS } from './sha.js';

export const BuildReportBody = Type.Object(
  {
    sha: Line({ maxLength: 100, description: 'The deployed commit: 7-40 hex characters, trimmed and lowercased' }),
    containsCommitShas: Type.Optional(
      Type.Array(Line({ maxLength: 100 }), {
        maxItems: MAX_CONTAINED_SHAS,
        description: 'Commits the build contains (at most 200). Empty or omitted: only sha itself is matched.',
      }),
    ),
  },
  { examples: [{ sha: '3abdb14e9c1f0d2a7b6c5e4f3a2b1c0d9e8f7a6b', containsCommitShas: ['9fceb02'] }] },
);
export type BuildReportBody = Static<typeof BuildReportBody>;

export const BuildReportResult = Type.Object({
  sha: Type.String(),
  firstSeen: Type.Boolean({ description: 'false when this sha was already reported for the project (nothing done)' }),
  deployedCommentIds: Type.Array(Type.String()),
});
export type BuildReportResult = Static<typeof BuildReportResult>;

export const Build = Type.Object({
  id: Type.String(),
  projectKey: Type.String(),
  sha: Type.String(),
  reportedBy: Nullable(Type.Object({ id: Type.String(), name: Type.String() })),
  createdAt: Timestamp,
  deployedCommentIds: Type.Array(Type.String()),
});
export type Build = Static<typeof Build>;

export const PendingDeploy = Type.Object({ id: Type.String(), commitSha: Type.String() });
export type PendingDeploy = Static<typeof PendingDeploy>;

export const PageOnlyQuery = Type.Object({ ...PageQuery });

export const PendingDeployQuery = Type.Object({
  ...PageQuery,
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: PENDING_DEPLOY_PAGE_MAX, default: 20 })),
});
