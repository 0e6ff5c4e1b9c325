export * from './accounts.js';
export * from './builds.js';
export * from './comments.js';
export * from './common.js';
export * from './errors.js';
export * from './notifications.js';
export * from './projects.js';
export * from './sha.js';
