import { deriveCommitUrl } from '@svc/contract/commit-url';
import { shortSha } from '@svc/contract/sha';
import type { ApiClient } from '../api.js';
import { parseCommandArgs } from '../args.js';
import type { CommandContext } from '../command.js';
import { usageError } from '../errors.js';
import { originWebUrl, resolveCommit } from '../git.js';
import { info, printData, printJson } from '../output.js';
import { connect } from '../session.js';
import { printComment } from './comments.js';

export const usage = `Usage: svc-cli apply <commentId> --mark [--commit <rev>] [--url <commitUrl>] [--json]
       svc-cli apply <commentId> [--json]

With --mark, records the comment as applied by <rev> (default HEAD): its author is told, and
the comment goes Live when a build containing the commit is reported.
The commit link is --url, else the one the server builds from the project's repoUrl, else
one built from the origin remote when it is on GitHub, GitLab, Bitbucket, Gitea or Codeberg.

Without --mark, shows the comment and its replies (what to fix).
Exit codes: 0 done; 1 server unreachable or refused; 2 <rev> is not a commit here; 3 no API key.
`;

export async function run(args: string[], context: CommandContext): Promise<void> {
  const { values, positionals } = parseCommandArgs(
    args,
    { mark: { type: 'boolean' }, commit: { type: 'string' }, url: { type: 'string' } },
    usage,
  );
  const [id, ...extra] = positionals;
  if (!id || extra.length > 0) throw usageError(`expected one comment id.\n\n${usage}`);
  if (!values.mark && (values.commit || values.url)) throw usageError(`--commit and --url go with --mark.\n\n${usage}`);
  if (values.url !== undefined && !/^https?:\/\/\S+$/.test(values.url)) {
    throw usageError(`--url must be an http(s) link to the commit, got "${values.url}".`);
  }
  const api = connect(context);

  if (!values.mark) {
    const comment = await api.send('GET /api/comments/{id}', { params: { id } });
    if (values.json) return printJson(comment);
    printComment(comment);
    info(`Record the fix with: svc-cli apply ${comment.id} --mark`);
    return;
  }

  const { sha, comment } = await applyWithCommit(api, context.cwd, id, values.commit, values.url);
  if (values.json) return printJson(comment);
  printData(
    `Comment ${comment.id} applied with ${shortSha(sha)}${comment.commitUrl ? ` (${comment.commitUrl})` : ''}.`,
  );
}

/**
 * Records `rev` (default HEAD) as the comment's fix. The link is `url`, else the one the server
 * derives from the project's repoUrl, else one derived from the origin remote.
 */
export async function applyWithCommit(api: ApiClient, cwd: string, id: string, rev?: string, url?: string) {
  const sha = await resolveCommit(cwd, rev ?? 'HEAD');
  let commitUrl = url;
  if (commitUrl === undefined) {
    const project = await api.send('GET /api/projects/{key}', { params: api.project });
    if (!deriveCommitUrl(project.repoUrl, sha)) commitUrl = deriveCommitUrl(await originWebUrl(cwd), sha) ?? undefined;
  }
  const comment = await api.send('POST /api/comments/{id}/apply', {
    params: { id },
    body: { commitSha: sha, ...(commitUrl ? { commitUrl } : {}) },
  });
  return { sha, comment };
}
