import { PENDING_DEPLOY_PAGE_MAX } from '@svc/contract/rules';
import { MAX_CONTAINED_SHAS, shortSha } from '@svc/contract/sha';
import { parseCommandArgs } from '../args.js';
import type { CommandContext } from '../command.js';
import { usageError } from '../errors.js';
import { type Ancestry, findContained, resolveCommit } from '../git.js';
import { info, printData, printJson, warn } from '../output.js';
import { connect } from '../session.js';

export const usage = `Usage: svc-cli status --deployed [rev] [--json]
       svc-cli status [rev] [--json]

With --deployed, reports <rev> (default HEAD) to the server as the build just deployed:
the pending comments whose commits it contains go Live. Run it as the last step of a
deploy, in a checkout with full history (fetch-depth: 0 on GitHub Actions).

Without --deployed, only shows which pending comments <rev> contains; nothing is sent.

Prints: Build <sha7> reported: N comment(s) marked deployed.
Exit codes: 0 reported; 1 server unreachable or refused; 2 <rev> is not a commit here
(or there is no commit yet); 3 no API key (SVC_API_KEY).
`;

export async function run(args: string[], context: CommandContext): Promise<void> {
  const { values, positionals } = parseCommandArgs(args, { deployed: { type: 'boolean' } }, usage);
  if (positionals.length > 1) throw usageError(`expected at most one revision, got ${positionals.length}.\n\n${usage}`);
  const rev = positionals[0] ?? 'HEAD';
  const api = connect(context);
  // git and the server answer at the same time; a bad revision is reported first.
  const [resolved, listed] = await Promise.allSettled([
    resolveCommit(context.cwd, rev),
    api.listAll('GET /api/projects/{key}/comments/pending-deploy', { params: api.project }, PENDING_DEPLOY_PAGE_MAX),
  ]);
  if (resolved.status === 'rejected') throw resolved.reason;
  if (listed.status === 'rejected') throw listed.reason;
  const deployed = resolved.value;
  const pending = listed.value;
  const ancestry = await findContained(
    context.cwd,
    deployed,
    pending.map((p) => p.commitSha),
  );
  if (ancestry.undecided.length > 0) {
    warn(
      `this clone is shallow: ${ancestry.undecided.length} pending commit(s) it holds could not be decided (the deployed commit may reach them below the clone's boundary), so they are not reported now. ` +
        'Deploy from a full clone to decide them: fetch-depth: 0 with actions/checkout, GIT_DEPTH: 0 on GitLab, or git fetch --unshallow.',
    );
  }
  for (const [candidate, commits] of ancestry.ambiguous) {
    warn(
      `pending commit ${candidate} is ambiguous in this clone: it is the start of ${commits.length} commits (${commits.join(', ')}); it is not reported. Apply the comment again with the full SHA.`,
    );
  }
  if (ancestry.unknown.length > 0) {
    warn(
      `${ancestry.unknown.length} pending commit(s) are not in this clone${ancestry.shallow ? ' (it is shallow)' : ''}, so they are not counted as deployed. ` +
        'Fetch full history to include them: fetch-depth: 0 with actions/checkout, GIT_DEPTH: 0 on GitLab, or git fetch --unshallow.',
    );
  }

  // Oldest pending first, as the server lists them; the deployed commit itself is always matched.
  const contained = [...new Set(pending.flatMap((p) => ancestry.contained.get(p.commitSha) ?? []))].filter(
    (sha) => sha !== deployed,
  );
  const sent = contained.slice(0, MAX_CONTAINED_SHAS);
  const deferred = contained.slice(MAX_CONTAINED_SHAS);

  if (!values.deployed) {
    const ids = pending.filter((p) => ancestry.contained.has(p.commitSha)).map((p) => p.id);
    if (values.json) {
      printJson({ sha: deployed, pendingCommentIds: ids, ...undecidedParts(ancestry) });
    } else {
      printData(`${shortSha(deployed)} contains ${ids.length} of ${pending.length} pending comment(s).`);
      for (const id of ids) printData(`  ${id}`);
      info('Nothing was reported; add --deployed to report this build.');
    }
    return;
  }

  if (deferred.length > 0) {
    warn(
      `the build contains ${contained.length} pending commits; the server takes ${MAX_CONTAINED_SHAS} per report, so the oldest ${MAX_CONTAINED_SHAS} were sent and the other ${deferred.length} go live with the next deploy.`,
    );
  }
  const result = await api.send('POST /api/projects/{key}/builds', {
    params: api.project,
    body: { sha: deployed, containsCommitShas: sent },
  });
  if (values.json) {
    printJson({
      ...result,
      containsCommitShas: sent,
      deferredCommitShas: deferred,
      ...undecidedParts(ancestry),
    });
    return;
  }
  if (!result.firstSeen) info(`Build ${shortSha(deployed)} was already reported; nothing changed.`);
  printData(`Build ${shortSha(deployed)} reported: ${result.deployedCommentIds.length} comment(s) marked deployed.`);
}

/** For --json: what could not be decided, apart from what was (contained or not). */
function undecidedParts(ancestry: Ancestry) {
  return {
    unknownCommitShas: ancestry.unknown,
    undecidedCommitShas: ancestry.undecided,
    ambiguousCommitShas: Object.fromEntries(ancestry.ambiguous),
  };
}
