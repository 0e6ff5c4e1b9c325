import type { Comment, CommentStatus, CommentWithReplies } from '@svc/contract';
import { elementInWords, sourceText } from '@svc/contract/element-words';
import { shortSha } from '@svc/contract/sha';
import { stepSentence } from '@svc/contract/steps';
import { dueText, ENGLISH, fixStory, statePills, timelineSentence } from '@svc/contract/vocabulary';
import { parseCommandArgs } from '../args.js';
import type { CommandContext } from '../command.js';
import { usageError } from '../errors.js';
import { info, printData, printJson } from '../output.js';
import { connect } from '../session.js';

export const usage = `Usage: svc-cli comments [--status open|applied|archived] [--assignee me|none|<id>] [--page <url>] [--json]
       svc-cli comments show <id> [--json]
       svc-cli comments claim <id> [--json]
       svc-cli comments assign <id> me|none|<id> [--json]
       svc-cli comments --watch [--json]

Lists the project's comments, newest first: id, state, page, the first line of the body and
who is on it. --assignee keeps yours (me), those nobody is on (none), or someone's (their id,
as the console's team page and \`comments show --json\` give it). \`claim\` takes a comment
before you start on it: it fails, naming them, when someone else is on it. \`assign\` puts
someone of the team, an agent, yourself (me) or nobody (none) on it; they are told.
\`show\` prints one comment whole: its body, where it was written (browser, window, address,
build), the page's recent errors, the steps that led to it (from a signed-in reviewer's
widget: pages and routes, what they pressed, fields typed in, errors, failed requests), whether it has a screenshot (svc-cli screenshot <id>), and
its replies. --watch prints each comment as it is created or changed, from now on, until
interrupted (Ctrl+C); with --json, one JSON object a line. With --json, the other forms print
what the API returns, for scripts and agents.
`;

const STATUSES = ['open', 'applied', 'archived'];

/** The fields of a comment the CLI shows. */
export type CommentView = Pick<
  Comment,
  | 'id'
  | 'status'
  | 'body'
  | 'pageUrl'
  | 'commitSha'
  | 'commitUrl'
  | 'deployedAt'
  | 'deployedBuildSha'
  | 'verifiedAt'
  | 'replyCount'
  | 'author'
  | 'assignee'
  | 'dueOn'
>;

/** The status as the widget shows it: open, completed, live·sha7, verified or archived. */
export function stateOf(comment: CommentView): string {
  return statePills(comment)
    .map((pill) =>
      pill.kind === 'live' && comment.deployedBuildSha ? `live·${shortSha(comment.deployedBuildSha)}` : pill.kind,
    )
    .join(',');
}

export function describeComment(comment: CommentView): string {
  const firstLine = comment.body.split('\n', 1)[0] ?? '';
  const summary = firstLine.length > 80 ? `${firstLine.slice(0, 79)}…` : firstLine;
  const on = comment.assignee ? `  (on it: ${comment.assignee.name})` : '';
  const due = dueText(comment);
  return `${comment.id}  ${stateOf(comment).padEnd(18)} ${comment.pageUrl}  ${comment.author.name}: ${summary}${on}${due ? `  (${due.text})` : ''}`;
}

/** One comment for a person: body, context, errors, screenshot and replies. */
export function printComment(comment: CommentWithReplies): void {
  printData(describeComment(comment));
  printData(comment.body);
  const context = comment.context;
  if (context) {
    const software = (s: { name: string; version: string | null } | null) =>
      s ? `${s.name} ${s.version ?? ''}`.trim() : 'unknown';
    printData(`  browser   ${software(context.browser)} on ${software(context.os)}`);
    printData(
      `  window    ${context.viewport.width}x${context.viewport.height} at ${context.devicePixelRatio}x, ${context.language}, ${context.timeZone}, ${context.colorScheme}`,
    );
    printData(`  address   ${context.url}`);
    if (context.buildSha) printData(`  build     ${shortSha(context.buildSha)}`);
    for (const error of context.errors) printData(`  ! ${error.kind.padEnd(9)} ${error.message}`);
    if (context.steps?.length) {
      printData(`  ${ENGLISH.t('steps.title').toLowerCase()}`);
      for (const [index, step] of context.steps.entries()) {
        printData(`    ${index + 1}. ${stepSentence(step, ENGLISH.t)}`);
      }
    }
  }
  if (comment.anchor)
    printData(`  element   ${elementInWords(comment.anchor, ENGLISH.t)} (${comment.anchor.selector})`);
  if (comment.anchor?.source) printData(`  source    ${sourceText(comment.anchor.source)}`);
  if (comment.assignee)
    printData(
      `  on it     ${comment.assignee.name}${comment.assignee.agent ? ' (agent)' : ''} since ${comment.assignedAt}`,
    );
  if (comment.priority !== 'none') printData(`  priority  ${comment.priority}`);
  if (comment.dueOn) printData(`  due       ${comment.dueOn}${dueText(comment)?.overdue ? ' (overdue)' : ''}`);
  if (comment.labels.length) printData(`  labels    ${comment.labels.map((label) => label.name).join(', ')}`);
  if (comment.repinned) printData(`  pin moved by ${comment.repinned.by.name} at ${comment.repinned.at}`);
  if (comment.screenshot)
    printData(`  screenshot: svc-cli screenshot ${comment.id} (${Math.round(comment.screenshot.bytes / 1024)} KB)`);
  for (const reply of comment.replies) printData(`  > ${reply.author?.name ?? 'svc'}: ${reply.body}`);
  for (const image of comment.images) {
    const what =
      image.kind === 'after'
        ? 'after (the element at the verdict)'
        : image.kind === 'now'
          ? `now (the element while the fix waits for its verdict, commit ${image.commitSha?.slice(0, 7) ?? 'none'})`
          : `attached by ${image.by?.name ?? 'a former member'}`;
    printData(
      `  image     ${image.id}: ${what}${image.replyId ? ' to a reply' : ''}, ${Math.round(image.bytes / 1024)} KB`,
    );
  }
  const fix = fixStory(comment.timeline);
  if (fix) printData(`  fix       ${fix}`);
  printData('  timeline (UTC)');
  for (const event of comment.timeline) {
    const at = event.at.slice(0, 16).replace('T', ' ');
    printData(`    ${at}  ${timelineSentence(event)}${event.derived ? ' (recorded before timelines)' : ''}`);
  }
}

export async function run(args: string[], context: CommandContext): Promise<void> {
  const { values, positionals } = parseCommandArgs(
    args,
    { status: { type: 'string' }, page: { type: 'string' }, assignee: { type: 'string' }, watch: { type: 'boolean' } },
    usage,
  );
  if (values.watch) {
    if (positionals.length > 0 || values.status || values.page || values.assignee)
      throw usageError(`--watch takes no filter.\n\n${usage}`);
    return watch(connect(context), Boolean(values.json));
  }
  if (positionals[0] === 'show') {
    const [, id, ...extra] = positionals;
    if (!id || extra.length > 0) throw usageError(`expected one comment id after show.\n\n${usage}`);
    const comment = await connect(context).send('GET /api/comments/{id}', { params: { id } });
    return values.json ? printJson(comment) : printComment(comment);
  }
  if (positionals[0] === 'claim') {
    const [, id, ...extra] = positionals;
    if (!id || extra.length > 0) throw usageError(`expected one comment id after claim.\n\n${usage}`);
    const comment = await connect(context).send('POST /api/comments/{id}/claim', { params: { id } });
    return values.json ? printJson(comment) : printData(describeComment(comment));
  }
  if (positionals[0] === 'assign') {
    const [, id, who, ...extra] = positionals;
    if (!id || !who || extra.length > 0) {
      throw usageError(`expected a comment id and who to put on it (me, none or an id) after assign.\n\n${usage}`);
    }
    const api = connect(context);
    const assigneeId = who === 'none' ? null : who === 'me' ? (await api.send('GET /api/me', {})).user.id : who;
    const comment = await api.send('PUT /api/comments/{id}/assignee', { params: { id }, body: { assigneeId } });
    return values.json ? printJson(comment) : printData(describeComment(comment));
  }
  if (positionals.length > 0) throw usageError(`unexpected argument "${positionals[0]}".\n\n${usage}`);
  if (values.status !== undefined && !STATUSES.includes(values.status)) {
    throw usageError(`--status must be one of ${STATUSES.join(', ')}, got "${values.status}".`);
  }
  const api = connect(context);
  const comments = await api.listAll('GET /api/projects/{key}/comments', {
    params: api.project,
    query: { status: values.status as CommentStatus | undefined, pageUrl: values.page, assignee: values.assignee },
  });
  if (values.json) return printJson(comments);
  if (comments.length === 0) return printData('No comments.');
  for (const comment of comments) printData(describeComment(comment));
}

/** Prints comments as they change, waiting on the server (a long poll of up to 25 seconds at a time, under the client's 30-second timeout). */
async function watch(api: ReturnType<typeof connect>, json: boolean): Promise<void> {
  let { cursor } = await api.send('GET /api/comments/changes', { query: { project: api.project.key } });
  info('Watching for comments; Ctrl+C stops.');
  for (;;) {
    const page = await api.send('GET /api/comments/changes', { query: { project: api.project.key, cursor, wait: 25 } });
    for (const comment of page.items) printData(json ? JSON.stringify(comment) : describeComment(comment));
    cursor = page.cursor;
  }
}
