import type { Config } from '../config.js';
import { MINUTE_MS, type RateRule } from './rate-limit.js';

export type RateRules = ReturnType<typeof rateRules>;

/** The configured limits as the rate limiter counts them: one place for names and windows. */
export function rateRules({ limits, buildRateLimit }: Pick<Config, 'limits' | 'buildRateLimit'>) {
  const rule = (name: string, limit: number, windowMs: number): RateRule => ({ name, limit, windowMs });
  return {
    signInFailuresPerAddress: rule('signin-address', limits.signInFailuresPerAddress, 10 * MINUTE_MS),
    signInFailuresPerAccount: rule('signin-account', limits.signInFailuresPerAccount, 10 * MINUTE_MS),
    signInsPerAccount: rule('signins-account', limits.signInsPerAccount, 10 * MINUTE_MS),
    signInsPerAddress: rule('signins-address', limits.signInsPerAddress, 10 * MINUTE_MS),
    accessLinkFailuresPerAddress: rule('access-link-address', limits.accessLinkFailuresPerAddress, 10 * MINUTE_MS),
    signUpsPerAddress: rule('signup-address', limits.signUpsPerAddress, 60 * MINUTE_MS),
    // Fixed: a widget asks once per failed call, on a page no project allows.
    originChecksPerAddress: rule('origin-check-address', 60, 10 * MINUTE_MS),
    comments: rule('comments', limits.commentsPerMinute, MINUTE_MS),
    replies: rule('replies', limits.repliesPerMinute, MINUTE_MS),
    apiKeys: rule('api-keys', limits.apiKeysPerHour, 60 * MINUTE_MS),
    apiKeysPerUser: limits.apiKeysPerUser,
    // Reads that cost far more than a page: a member looping on them must not take the server from everyone else.
    insights: rule('insights', limits.insightsPerMinute, MINUTE_MS),
    searches: rule('searches', limits.searchesPerMinute, MINUTE_MS),
    exports: rule('exports', limits.exportsPerHour, 60 * MINUTE_MS),
    // Uploads (images, screenshots, pictures of now) per person, by number and by weight in KiB:
    // enough for anyone's pictures, not for filling a workspace's quota in minutes.
    uploads: {
      ...rule('uploads', limits.uploadsPerMinute, MINUTE_MS),
      says: `at most ${limits.uploadsPerMinute} uploads a minute per person`,
    },
    uploadKilobytes: {
      ...rule('upload-kilobytes', limits.uploadMegabytesPerHour * 1024, 60 * MINUTE_MS),
      says: `at most ${limits.uploadMegabytesPerHour} MB of uploads an hour per person`,
    },
    /** What a workspace stores of uploads at most, in bytes, unless the operator set its own. */
    storageQuotaBytes: limits.storageQuotaMegabytes * 1024 * 1024,
    /** Build reports per user (SVC_BUILD_RATE_LIMIT). */
    buildReports: rule('build-report', buildRateLimit, MINUTE_MS),
  };
}
