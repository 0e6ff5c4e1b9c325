import type { Migration, MigrationProvider } from 'kysely';
import * as m0001 from './0001_foundation.js';

/** Listed statically so that bundling or a missing folder can never skip one. Frozen once released. */
const migrations: Record<string, Migration> = {
  '0001_foundation': m0001,
};

export const migrationProvider: MigrationProvider = {
  getMigrations: async () => migrations,
};
