import type { Comment, CommentStatus } from '@svc/contract';
import { shortSha } from '@svc/contract/sha';
import { parseCommandArgs } from '../args.js';
import type { CommandContext } from '../command.js';
import { usageError } from '../errors.js';
import { printData, printJson } from '../output.js';
import { connect } from '../session.js';

export const usage = `Usage: svc-cli comments [--status open|applied|archived] [--page <url>] [--json]

Lists the project's comments, newest first: id, state, page and the first line of the body.
With --json, prints the comments as the API returns them (an array), for scripts and agents.
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
>;

/** The state as the widget shows it: Open, Completed, Live · sha7, plus Verified. */
export function stateOf(comment: CommentView): string {
  let state = comment.status === 'applied' ? 'completed' : comment.status;
  if (comment.status === 'applied' && comment.deployedAt && comment.deployedBuildSha) {
    state = `live·${shortSha(comment.deployedBuildSha)}`;
  }
  return comment.verifiedAt ? `${state},verified` : state;
}

export function describeComment(comment: CommentView): string {
  const firstLine = comment.body.split('\n', 1)[0] ?? '';
  const summary = firstLine.length > 80 ? `${firstLine.slice(0, 79)}…` : firstLine;
  return `${comment.id}  ${stateOf(comment).padEnd(18)} ${comment.pageUrl}  ${comment.author.name}: ${summary}`;
}

export async function run(args: string[], context: CommandContext): Promise<void> {
  const { values, positionals } = parseCommandArgs(
    args,
    { status: { type: 'string' }, page: { type: 'string' } },
    usage,
  );
  if (positionals.length > 0) throw usageError(`unexpected argument "${positionals[0]}".\n\n${usage}`);
  if (values.status !== undefined && !STATUSES.includes(values.status)) {
    throw usageError(`--status must be one of ${STATUSES.join(', ')}, got "${values.status}".`);
  }
  const api = connect(context);
  const comments = await api.listAll('GET /api/projects/{key}/comments', {
    params: api.project,
    query: { status: values.status as CommentStatus | undefined, pageUrl: values.page },
  });
  if (values.json) return printJson(comments);
  if (comments.length === 0) return printData('No comments.');
  for (const comment of comments) printData(describeComment(comment));
}
