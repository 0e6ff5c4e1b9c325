// `svc-cli mcp`: the feedback of this repository's project as tools for a coding agent, over
// MCP on stdio. The tools are the shared table (also served at the server's /mcp); here they
// call the API with the configured key, and apply_fix can take its commit from this repository.
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { feedbackMcpServer } from '@svc/contract/mcp';
import type { CommandContext } from '../command.js';
import { ExitError } from '../errors.js';
import { connect } from '../session.js';
import { CLI_VERSION } from '../version.js';
import { applyWithCommit } from './apply.js';

export const usage = `Usage: svc-cli mcp

Serves this project's feedback to a coding agent over MCP (stdio): list, read (with the
screenshot), reply, apply with a commit (default HEAD), reopen, archive, notifications, and a
wait that returns as soon as feedback arrives. Configured like every command (.svc/config.json,
SVC_API_KEY or .svc/credentials.env). Add it to an agent as the command "svc-cli mcp".
`;

export async function run(args: string[], context: CommandContext): Promise<void> {
  if (args.length > 0) throw new ExitError(2, `svc-cli mcp takes no arguments.\n\n${usage}`);
  const api = connect(context);
  api.via = 'mcp';
  const server = feedbackMcpServer(
    {
      project: api.project,
      send: (endpoint, call) => api.send(endpoint, call),
      image: async (path) => {
        const { bytes, contentType } = await api.download(path);
        return { data: bytes.toString('base64'), mimeType: contentType };
      },
      applyFromRepository: async (id, rev, url) => (await applyWithCommit(api, context.cwd, id, rev, url)).comment,
    },
    'svc-cli',
    CLI_VERSION,
  );
  await server.connect(new StdioServerTransport());
  // Serves until the agent closes stdin.
  await new Promise<void>((resolve) => process.stdin.once('close', resolve));
}
