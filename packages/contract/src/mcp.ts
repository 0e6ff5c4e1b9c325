// The feedback of one project as MCP tools for a coding agent: one table, served by
// `svc-cli mcp` over stdio and by the server at /mcp over Streamable HTTP. The tools' input
// schemas are the API's own, and every call goes through the host's API client, so the same
// roles and tenancy hold as for any other caller. A tool says what its endpoint does in the
// endpoint's own words (`api`), and adds only what an agent needs besides.
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { type TSchema, Type } from 'typebox';
import { Value } from 'typebox/value';
import type { Anchor } from './anchor.js';
import { api, type EndpointSpec, FIX_WORDS } from './api.js';
import { CommentChangesQuery, FindCommentsQuery } from './comment-filters.js';
import { ApplyBody, ReplyBody } from './comment-requests.js';
import type { Comment, CommentWithReplies } from './comments.js';
import { elementInWords } from './element-words.js';
import type { AnswerOf, CallOf, Endpoint } from './endpoints.js';
import { ReadAllBody } from './notifications.js';
import { stepSentence } from './steps.js';
import { displayState, ENGLISH, fixStory, isOverdue, timelineSentence } from './vocabulary.js';

/** The longest a wait_for_feedback call holds, in seconds: under the common client time-outs. */
export const AGENT_WAIT_MAX_S = 25;

/** Where the tools run: an API client for one project, and what it can do with a repository. */
export interface FeedbackHost {
  /** The project the tools work on. */
  project: { key: string };
  /** The answer's body; a refusal throws an Error whose message says why. */
  send<E extends Endpoint>(endpoint: E, call: CallOf<E>): Promise<AnswerOf<E>>;
  /** A screenshot as base64, for image content. */
  image(path: string): Promise<{ data: string; mimeType: string }>;
  /**
   * Present where a git repository is at hand (svc-cli): applies `rev` (default HEAD), with
   * the commit link derived as `apply --mark` does. Without it, apply_fix needs the commit's SHA.
   */
  applyFromRepository?: (id: string, rev?: string, url?: string) => Promise<Comment>;
}

const Id = Type.Object({ id: Type.String({ description: 'A comment id (cmt_…)' }) });

/** What the endpoint does, in its summary: a tool that does just that starts its text with it. */
const summaryOf = (endpoint: Endpoint) => api[endpoint].summary;

/** The endpoint's summary and description, for a tool that does all it says. */
function inItsWords(endpoint: Endpoint): string {
  const { summary, description } = api[endpoint] as EndpointSpec;
  return typeof description === 'string' ? `${summary}. ${description}` : `${summary}.`;
}

/** How apply_fix starts, wherever it runs. */
const APPLY_FIX = 'Record that a commit fixes the comment (its author is asked to verify it).';

/** The images of a thread an agent is given with it, the latest: enough to see, without flooding its context. */
const AGENT_IMAGES_MAX = 6;

/** What an agent needs to act on a comment, without flooding its context. */
function brief(comment: Comment) {
  return {
    id: comment.id,
    // In the API's words (its status filters): a completed comment is "applied".
    status: displayState(comment) === 'completed' ? 'applied' : displayState(comment),
    verified: comment.verifiedAt !== null,
    page: comment.pageUrl,
    element: comment.anchor ? elementInWords(comment.anchor, ENGLISH.t) : null,
    author: comment.author.name,
    assignee: comment.assignee ? comment.assignee.name : null,
    priority: comment.priority,
    dueOn: comment.dueOn,
    overdue: isOverdue(comment),
    labels: comment.labels.map((label) => label.name),
    body: comment.body.length > 300 ? `${comment.body.slice(0, 299)}…` : comment.body,
    replies: comment.replyCount,
    commit: comment.commitSha,
    updatedAt: comment.updatedAt,
  };
}

/**
 * What is known of the pinned element, to find it in the source: its selector, tag, text and
 * name, stable attributes and classes, the text around it, and whether its pin was moved.
 */
function pinnedElement(anchor: Anchor) {
  const {
    x,
    y,
    position,
    twins,
    twinsBefore,
    twinsByQuote,
    twinsByItem,
    twinsByShape,
    alikes,
    alikesBefore,
    kin,
    textCount,
    ...known
  } = anchor;
  return known;
}

function full(comment: CommentWithReplies) {
  return {
    ...brief(comment),
    body: comment.body,
    commitUrl: comment.commitUrl,
    deployedBuild: comment.deployedBuildSha,
    pinned: comment.anchor ? pinnedElement(comment.anchor) : null,
    // The steps said once, as sentences: the actions they were read from would say them again.
    steps: comment.context?.steps?.map((step) => stepSentence(step, ENGLISH.t)) ?? null,
    context: comment.context && { ...comment.context, actions: undefined, steps: undefined },
    screenshot: comment.screenshot
      ? 'attached below'
      : comment.context?.screenshotFollows
        ? 'pending: the reviewer’s widget is sending it; wait_for_feedback wakes when it arrives'
        : null,
    thread: comment.replies.map((r) => ({ by: r.author?.name ?? 'automatic', at: r.createdAt, text: r.body })),
    images: comment.images.slice(-AGENT_IMAGES_MAX).map((image) => ({
      what:
        image.kind === 'after'
          ? 'the element as its author saw it when giving a verdict'
          : image.kind === 'now'
            ? `the element as its author's widget saw it last while the fix waits for their verdict (commit ${image.commitSha ?? 'none'})`
            : `attached by ${image.by?.name ?? 'a former member'}${image.replyId ? ' to a reply' : ''}`,
      reply: image.replyId,
      at: image.createdAt,
    })),
    fix: fixStory(comment.timeline),
    timeline: comment.timeline.map((event) => ({ at: event.at, kind: event.kind, what: timelineSentence(event) })),
  };
}

type Content = { type: 'text'; text: string } | { type: 'image'; data: string; mimeType: string };

interface Tool {
  description: string;
  input: TSchema;
  run: (args: Record<string, unknown>) => Promise<Content[]>;
}

const text = (value: unknown): Content[] => [{ type: 'text', text: JSON.stringify(value) }];

function applyTool(host: FeedbackHost): Tool {
  const local = host.applyFromRepository;
  if (local) {
    return {
      description: `${APPLY_FIX} commitSha defaults to this repository's HEAD; the link to the commit is derived from the project's repository URL or the origin remote unless commitUrl is given. ${FIX_WORDS.live} Commit and push your fix first.`,
      input: Type.Object({ ...Id.properties, ...ApplyBody.properties }),
      run: async (args) =>
        text(
          brief(
            await local(String(args.id), args.commitSha as string | undefined, args.commitUrl as string | undefined),
          ),
        ),
    };
  }
  return {
    description: `${APPLY_FIX} Give the full or abbreviated SHA of the commit you pushed (git rev-parse HEAD). ${FIX_WORDS.live} ${FIX_WORDS.link}`,
    input: Type.Object({
      ...Id.properties,
      ...ApplyBody.properties,
      ...Type.Required(Type.Pick(ApplyBody, ['commitSha'])).properties,
    }),
    run: async (args) => {
      const { id, ...body } = args as { id: string; commitSha: string; commitUrl?: string };
      return text(brief(await host.send('POST /api/comments/{id}/apply', { params: { id }, body })));
    },
  };
}

/** The tools, by name. */
export function feedbackTools(host: FeedbackHost): Record<string, Tool> {
  const project = host.project.key;
  return {
    list_feedback: {
      description:
        "List this project's feedback comments, newest first, 20 a page (pass nextCursor for more). Filter by status (open: still to fix; applied: fixed, not yet verified or deployed; live; verified; archived), assignee (me: yours; none: nobody is on it, free to claim), priority (urgent, high, medium, low, none), label (a label's id), mentions (me: the comments whose text or replies mention you), dueBy (YYYY-MM-DD: due on or before that day), overdue (true: open and past its due date), pageUrl, or q (words that must all appear in the comment or its replies); sort by due to have the soonest due first. Returns brief comments (dueOn: the day the team means it fixed by); use get_feedback for one in full.",
      input: Type.Omit(FindCommentsQuery, ['project', 'author', 'updatedSince']),
      run: async (args) => {
        const page = await host.send('GET /api/comments', { query: { ...args, project } });
        return text({ items: page.items.map(brief), nextCursor: page.nextCursor });
      },
    },
    get_feedback: {
      description:
        'Everything needed to fix one comment: its text, the page URL, the element it is pinned to (in words, and as `pinned`: its CSS selector, tag, text, accessible name, test id and other stable attributes, classes and the text around it — search the source for these; from a development build, `pinned.source`: the components that render it and the file and line it is written in), the steps that led to it (`steps`: the pages opened and routes taken, what the reviewer pressed and which fields they typed in, the errors and failed requests, then the pin; from a signed-in reviewer’s widget), the browser and window it was written in, the page errors and requests recorded then (console errors, failed requests), the reply thread, the images people attached (and the element as its author saw it when giving a verdict, or last while the fix waits for it), its timeline (who applied it in which commit and how, the build that took it Live, the author’s verdicts; `fix` sums up the latest fix in one line), and the screenshot and the thread’s images (at most 6, the latest) as images, in the order `images` lists them after the screenshot.',
      input: Id,
      run: async (args) => {
        const comment = await host.send('GET /api/comments/{id}', { params: { id: String(args.id) } });
        const content = text(full(comment));
        if (comment.screenshot) content.push({ type: 'image', ...(await host.image(comment.screenshot.url)) });
        // The thread's images after it, in the order `images` lists them (the latest, when many).
        for (const image of comment.images.slice(-AGENT_IMAGES_MAX)) {
          content.push({ type: 'image', ...(await host.image(image.url)) });
        }
        return content;
      },
    },
    wait_for_feedback: {
      description: `${summaryOf('GET /api/comments/changes')}. Call it first without a cursor to get the cursor of now, then with that cursor: it answers as soon as a comment is created or changes (a reply, a verification, a rejection that reopens it, someone assigned to it), or after \`wait\` seconds (at most ${AGENT_WAIT_MAX_S}) with no items. With assignee "me", only the comments you are on (one assigned to you while you wait wakes it); "none", only those nobody is on. Always pass back the cursor it returns.`,
      // The API's query, with the longest wait an agent may ask written once: its schema says it.
      input: Type.Object({
        cursor: CommentChangesQuery.properties.cursor,
        assignee: CommentChangesQuery.properties.assignee,
        wait: Type.Optional(
          Type.Integer({
            minimum: 0,
            maximum: AGENT_WAIT_MAX_S,
            default: AGENT_WAIT_MAX_S,
            description: `Seconds to wait when nothing changed since the cursor (at most ${AGENT_WAIT_MAX_S})`,
          }),
        ),
      }),
      run: async (args) => {
        const wait = Number(args.wait ?? AGENT_WAIT_MAX_S);
        const cursor = args.cursor as string | undefined;
        const assignee = args.assignee as string | undefined;
        const page = await host.send('GET /api/comments/changes', {
          query: { project, cursor, wait: cursor ? wait : 0, ...(assignee ? { assignee } : {}) },
        });
        return text({ items: page.items.map(brief), cursor: page.cursor });
      },
    },
    claim_feedback: {
      description: `${inItsWords('POST /api/comments/{id}/claim')} Nobody else then works on it. When someone else holds it, leave it and pick another (list_feedback with assignee "none").`,
      input: Id,
      run: async (args) =>
        text(brief(await host.send('POST /api/comments/{id}/claim', { params: { id: String(args.id) } }))),
    },
    reply: {
      description: `${summaryOf('POST /api/comments/{id}/replies')} (its author is notified). Use it to ask a question or say what you changed.`,
      input: Type.Object({ ...Id.properties, ...ReplyBody.properties }),
      run: async (args) =>
        text(
          await host.send('POST /api/comments/{id}/replies', {
            params: { id: String(args.id) },
            body: { body: String(args.body) },
          }),
        ),
    },
    apply_fix: applyTool(host),
    reopen: {
      description: `${summaryOf('POST /api/comments/{id}/reopen')} (the fix did not hold); whoever applied it is told.`,
      input: Id,
      run: async (args) =>
        text(brief(await host.send('POST /api/comments/{id}/reopen', { params: { id: String(args.id) } }))),
    },
    archive: {
      description: `${summaryOf('POST /api/comments/{id}/archive')} that needs no fix (a duplicate, out of scope).`,
      input: Id,
      run: async (args) =>
        text(brief(await host.send('POST /api/comments/{id}/archive', { params: { id: String(args.id) } }))),
    },
    list_notifications: {
      description: `${summaryOf('GET /api/me/notifications')}: replies to your comments, fixes applied, comments reopened.`,
      input: Type.Object({ unread: Type.Optional(Type.Boolean()) }),
      run: async (args) => {
        const page = await host.send('GET /api/me/notifications', {
          query: { limit: 20, ...(args.unread ? { unread: true } : {}) },
        });
        return text({
          unreadCount: page.unreadCount,
          items: page.items.map((n) => ({
            id: n.id,
            type: n.type,
            read: n.read,
            comment: n.comment.id,
            excerpt: n.excerpt,
            at: n.createdAt,
          })),
        });
      },
    },
    mark_notifications_read: {
      description: `${summaryOf('POST /api/me/notifications/read-all')}: up to and including upTo (a notification id) when given.`,
      input: ReadAllBody,
      run: async (args) =>
        text(await host.send('POST /api/me/notifications/read-all', { body: args as { upTo?: string } })),
    },
  };
}

const failure = (message: string) => ({ isError: true, content: [{ type: 'text' as const, text: message }] });

/** An MCP server (not yet connected to a transport) offering the feedback tools of `host`. */
export function feedbackMcpServer(host: FeedbackHost, name: string, version: string): Server {
  const tools = feedbackTools(host);
  const server = new Server({ name, version }, { capabilities: { tools: {} } });
  server.setRequestHandler(ListToolsRequestSchema, async () => ({
    tools: Object.entries(tools).map(([toolName, tool]) => ({
      name: toolName,
      description: tool.description,
      inputSchema: tool.input as { type: 'object' },
    })),
  }));
  server.setRequestHandler(CallToolRequestSchema, async (request) => {
    const tool = tools[request.params.name];
    if (!tool) return failure(`No tool named ${request.params.name}.`);
    const input = request.params.arguments ?? {};
    if (!Value.Check(tool.input, input)) {
      const problems = [...Value.Errors(tool.input, input)].map((e) => `${e.instancePath || '/'} ${e.message}`);
      return failure(`Invalid arguments: ${problems.join('; ')}`);
    }
    try {
      return { content: await tool.run(input) };
    } catch (error) {
      return failure(error instanceof Error ? error.message : String(error));
    }
  });
  return server;
}
