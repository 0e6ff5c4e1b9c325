import { type Static, Type } from 'typebox';

/** What anyone may know of the server before signing in. */
export const ServerInfo = Type.Object({
  version: Type.String({ description: "The server's version" }),
  demo: Type.Boolean({ description: 'true on a server that seeds the demo workspace (SVC_DEMO)' }),
  signup: Type.Boolean({ description: 'true when POST /api/signup is open (SVC_ALLOW_SIGNUP)' }),
});
export type ServerInfo = Static<typeof ServerInfo>;
