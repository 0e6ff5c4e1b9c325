import { type Static, Type } from 'typebox';

/** What anyone may know of the server before signing in. */
export const ServerInfo = Type.Object({
  version: Type.String({ description: "The server's version" }),
  demo: Type.Boolean({ description: 'true on a server that seeds the demo workspace (SVC_DEMO)' }),
  signup: Type.Boolean({
    description:
      'true when POST /api/signup makes a workspace now (SVC_ALLOW_SIGNUP; by default only until the first one exists)',
  }),
  cli: Type.Union(
    [
      Type.Object({
        url: Type.String({
          description: 'Where to download svc-cli, the same version as the server: /cli/svc-cli.mjs',
        }),
        sha256: Type.String({ description: 'The SHA-256 of that file, hex' }),
      }),
      Type.Null(),
    ],
    { description: 'The command-line client this server hands out; null when it is not built' },
  ),
});
export type ServerInfo = Static<typeof ServerInfo>;
