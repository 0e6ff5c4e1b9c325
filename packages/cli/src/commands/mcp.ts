// `svc-cli mcp`: the feedback of this repository's project as tools for a coding agent, over
// MCP on stdio. The tools' input schemas are the API's own (from the shared contract); each
// call goes through the same client, and so the same roles and tenancy, as the CLI's commands.
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import {
  ApplyBody,
  type Comment,
  CommentChangesQuery,
  type CommentWithReplies,
  FindCommentsQuery,
  ReadAllBody,
  ReplyBody,
} from '@svc/contract';
import { type TSchema, Type } from 'typebox';
import { Value } from 'typebox/value';
import type { ApiClient } from '../api.js';
import type { CommandContext } from '../command.js';
import { ExitError } from '../errors.js';
import { connect } from '../session.js';
import { applyWithCommit } from './apply.js';

export const usage = `Usage: svc-cli mcp

Serves this project's feedback to a coding agent over MCP (stdio): list, read (with the
screenshot), reply, apply with a commit (default HEAD), reopen, archive, notifications, and a
wait that returns as soon as feedback arrives. Configured like every command (.svc/config.json,
SVC_API_KEY or .svc/credentials.env). Add it to an agent as the command "svc-cli mcp".
`;

const Id = Type.Object({ id: Type.String({ description: 'A comment id (cmt_…)' }) });

/** What an agent needs to act on a comment, without flooding its context. */
function brief(comment: Comment) {
  return {
    id: comment.id,
    status: comment.status === 'applied' && comment.deployedAt ? 'live' : comment.status,
    verified: comment.verifiedAt !== null,
    page: comment.pageUrl,
    element: comment.anchor?.selector ?? null,
    author: comment.author.name,
    body: comment.body.length > 300 ? `${comment.body.slice(0, 299)}…` : comment.body,
    replies: comment.replyCount,
    commit: comment.commitSha,
    updatedAt: comment.updatedAt,
  };
}

function full(comment: CommentWithReplies) {
  return {
    ...brief(comment),
    body: comment.body,
    commitUrl: comment.commitUrl,
    deployedBuild: comment.deployedBuildSha,
    context: comment.context,
    screenshot: comment.screenshot ? 'attached below' : null,
    thread: comment.replies.map((r) => ({ by: r.author?.name ?? 'automatic', at: r.createdAt, text: r.body })),
  };
}

interface Tool {
  description: string;
  input: TSchema;
  run: (api: ApiClient, args: Record<string, unknown>) => Promise<unknown>;
}

function tools(cwd: string): Record<string, Tool> {
  return {
    list_feedback: {
      description:
        "List this project's feedback comments, newest first, 20 a page (pass nextCursor for more). Filter by status (open: still to fix; applied: fixed, not yet verified or deployed; live; verified; archived), pageUrl, or q (words that must all appear in the comment or its replies). Returns brief comments; use get_feedback for one in full.",
      input: Type.Omit(FindCommentsQuery, ['project', 'author', 'updatedSince']),
      run: async (api, args) => {
        const page = await api.send('GET /api/comments', { query: { ...args, project: api.project.key } });
        return { items: page.items.map(brief), nextCursor: page.nextCursor };
      },
    },
    get_feedback: {
      description:
        'Everything needed to fix one comment: its text, the page URL, the CSS selector of the element it is pinned to, the browser and window it was written in, the page errors recorded then (console errors, failed requests), the reply thread, and the screenshot as an image when there is one.',
      input: Id,
      run: async (api, args) => api.send('GET /api/comments/{id}', { params: { id: String(args.id) } }),
    },
    wait_for_feedback: {
      description:
        'Wait for new or changed feedback. Call it first without a cursor to get the cursor of now, then with that cursor: it answers as soon as a comment is created or changes (a reply, a verification, a rejection that reopens it), or after `wait` seconds (at most 25) with no items. Always pass back the cursor it returns.',
      input: Type.Omit(CommentChangesQuery, ['project', 'limit']),
      run: async (api, args) => {
        const wait = Math.min(Number(args.wait ?? 25), 25);
        const page = await api.send('GET /api/comments/changes', {
          query: { project: api.project.key, cursor: args.cursor as string | undefined, wait: args.cursor ? wait : 0 },
        });
        return { items: page.items.map(brief), cursor: page.cursor };
      },
    },
    reply: {
      description:
        "Reply to a comment's thread (its author is notified). Use it to ask a question or say what you changed.",
      input: Type.Object({ ...Id.properties, ...ReplyBody.properties }),
      run: async (api, args) =>
        api.send('POST /api/comments/{id}/replies', {
          params: { id: String(args.id) },
          body: { body: String(args.body) },
        }),
    },
    apply_fix: {
      description:
        "Record that a commit fixes the comment (its author is asked to verify it). commitSha defaults to this repository's HEAD; the link to the commit is derived from the project's repository URL or the origin remote unless commitUrl is given. Commit and push your fix first.",
      input: Type.Object({ ...Id.properties, ...ApplyBody.properties }),
      run: async (api, args) => {
        const { comment } = await applyWithCommit(
          api,
          cwd,
          String(args.id),
          args.commitSha as string | undefined,
          args.commitUrl as string | undefined,
        );
        return brief(comment);
      },
    },
    reopen: {
      description: 'Reopen an applied comment (the fix did not hold); whoever applied it is told.',
      input: Id,
      run: async (api, args) =>
        brief(await api.send('POST /api/comments/{id}/reopen', { params: { id: String(args.id) } })),
    },
    archive: {
      description: 'Archive a comment that needs no fix (a duplicate, out of scope).',
      input: Id,
      run: async (api, args) =>
        brief(await api.send('POST /api/comments/{id}/archive', { params: { id: String(args.id) } })),
    },
    list_notifications: {
      description: 'Your notifications, newest first: replies to your comments, fixes applied, comments reopened.',
      input: Type.Object({ unread: Type.Optional(Type.Boolean()) }),
      run: async (api, args) => {
        const page = await api.send('GET /api/me/notifications', {
          query: { limit: 20, ...(args.unread ? { unread: true } : {}) },
        });
        return {
          unreadCount: page.unreadCount,
          items: page.items.map((n) => ({
            id: n.id,
            type: n.type,
            read: n.read,
            comment: n.comment.id,
            excerpt: n.excerpt,
            at: n.createdAt,
          })),
        };
      },
    },
    mark_notifications_read: {
      description: 'Mark your notifications read, up to and including upTo (a notification id) when given.',
      input: ReadAllBody,
      run: async (api, args) => api.send('POST /api/me/notifications/read-all', { body: args as { upTo?: string } }),
    },
  };
}

export async function run(args: string[], context: CommandContext): Promise<void> {
  if (args.length > 0) throw new ExitError(2, `svc-cli mcp takes no arguments.\n\n${usage}`);
  const api = connect(context);
  const available = tools(context.cwd);
  const server = new Server({ name: 'svc-cli', version: '0.1.0' }, { capabilities: { tools: {} } });

  server.setRequestHandler(ListToolsRequestSchema, async () => ({
    tools: Object.entries(available).map(([name, tool]) => ({
      name,
      description: tool.description,
      inputSchema: tool.input as { type: 'object' },
    })),
  }));

  server.setRequestHandler(CallToolRequestSchema, async (request) => {
    const tool = available[request.params.name];
    if (!tool) return failure(`No tool named ${request.params.name}.`);
    const input = request.params.arguments ?? {};
    if (!Value.Check(tool.input, input)) {
      const problems = [...Value.Errors(tool.input, input)].map((e) => `${e.instancePath || '/'} ${e.message}`);
      return failure(`Invalid arguments: ${problems.join('; ')}`);
    }
    try {
      const result = await tool.run(api, input);
      const content: ({ type: 'text'; text: string } | { type: 'image'; data: string; mimeType: string })[] = [
        {
          type: 'text',
          text: JSON.stringify(request.params.name === 'get_feedback' ? full(result as CommentWithReplies) : result),
        },
      ];
      const shot = request.params.name === 'get_feedback' ? (result as CommentWithReplies).screenshot : null;
      if (shot) {
        const image = await api.download(shot.url);
        content.push({ type: 'image', data: image.bytes.toString('base64'), mimeType: image.contentType });
      }
      return { content };
    } catch (error) {
      return failure(error instanceof Error ? error.message : String(error));
    }
  });

  await server.connect(new StdioServerTransport());
  // Serves until the agent closes stdin.
  await new Promise<void>((resolve) => process.stdin.once('close', resolve));
}

const failure = (text: string) => ({ isError: true, content: [{ type: 'text' as const, text }] });
