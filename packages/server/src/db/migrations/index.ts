import type { Migration, MigrationProvider } from 'kysely';
import * as m0001 from './0001_foundation.js';
import * as m0002 from './0002_notifications.js';
import * as m0003 from './0003_builds.js';
import * as m0004 from './0004_sessions.js';
import * as m0005 from './0005_administration.js';
import * as m0006 from './0006_comment_search.js';
import * as m0007 from './0007_comment_context.js';
import * as m0008 from './0008_comment_changes.js';
import * as m0009 from './0009_anchors.js';
import * as m0010 from './0010_refused_origins.js';
import * as m0011 from './0011_comment_timeline.js';
import * as m0012 from './0012_audit_log.js';
import * as m0013 from './0013_insights.js';
import * as m0014 from './0014_two_factor.js';
import * as m0015 from './0015_single_sign_on.js';
import * as m0016 from './0016_languages.js';
import * as m0017 from './0017_tenant_doors.js';
import * as m0018 from './0018_insight_rollups.js';
import * as m0019 from './0019_team_work.js';
import * as m0020 from './0020_mentions.js';
import * as m0021 from './0021_images.js';
import * as m0022 from './0022_now_images.js';
import * as m0023 from './0023_erased_words.js';
import * as m0025 from './0025_stored_bytes.js';
import * as m0026 from './0026_following.js';
import * as m0027 from './0027_checked_notes.js';
import * as m0028 from './0028_due_dates.js';
import * as m0029 from './0029_replays.js';

/** Listed statically so that bundling or a missing folder can never skip one. Frozen once released. */
const migrations: Record<string, Migration> = {
  '0001_foundation': m0001,
  '0002_notifications': m0002,
  '0003_builds': m0003,
  '0004_sessions': m0004,
  '0005_administration': m0005,
  '0006_comment_search': m0006,
  '0007_comment_context': m0007,
  '0008_comment_changes': m0008,
  '0009_anchors': m0009,
  '0010_refused_origins': m0010,
  '0011_comment_timeline': m0011,
  '0012_audit_log': m0012,
  '0013_insights': m0013,
  '0014_two_factor': m0014,
  '0015_single_sign_on': m0015,
  '0016_languages': m0016,
  '0017_tenant_doors': m0017,
  '0018_insight_rollups': m0018,
  '0019_team_work': m0019,
  '0020_mentions': m0020,
  '0021_images': m0021,
  '0022_now_images': m0022,
  '0023_erased_words': m0023,
  '0025_stored_bytes': m0025,
  '0026_following': m0026,
  '0027_checked_notes': m0027,
  '0028_due_dates': m0028,
  '0029_replays': m0029,
};

export const migrationProvider: MigrationProvider = {
  getMigrations: async () => migrations,
};
