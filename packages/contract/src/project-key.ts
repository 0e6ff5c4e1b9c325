/** A project key: 2-40 of a-z, 0-9 and `-`, unique within a workspace. */
export const PROJECT_KEY_PATTERN = '^[a-z0-9-]{2,40}$';
