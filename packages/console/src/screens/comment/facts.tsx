// The comment's facts: where it is, what it is pinned to, when it was written, and its latest fix.

import { elementInWords, sourceText } from '@svc/contract/element-words';
import type { Translate } from '@svc/contract/i18n';
import { shortSha } from '@svc/contract/sha';
import { t, tx } from '../../i18n.js';
import { Time } from '../../ui.js';
import type { Comment } from './model.js';

/** Where it is, what it is pinned to, when it was written, fixed, Live and verified. */
export function CommentFacts({ comment }: { comment: Comment }) {
  const openOnPage = new URL(comment.pageUrl);
  openOnPage.searchParams.set('svc_comment', comment.id);
  return (
    <dl class="facts">
      <dt>{t('comments.project')}</dt>
      <dd>{comment.projectKey}</dd>
      <dt>{t('comment.page')}</dt>
      <dd>
        <a href={comment.pageUrl} target="_blank" rel="noopener noreferrer">
          {comment.pageUrl}
        </a>{' '}
        ·{' '}
        <a href={openOnPage.href} target="_blank" rel="noopener noreferrer">
          {t('comment.openOnPage')}
        </a>
      </dd>
      <dt>{t('comment.pinnedTo')}</dt>
      <dd>
        {comment.anchor ? (
          <>
            {elementInWords(comment.anchor, t as Translate)} <code class="muted small">{comment.anchor.selector}</code>
            {comment.repinned ? (
              <div class="muted small">
                {tx('comment.pinMovedBy', { name: comment.repinned.by.name, when: <Time iso={comment.repinned.at} /> })}
              </div>
            ) : null}
          </>
        ) : (
          t('comment.wholePage')
        )}
      </dd>
      {comment.anchor?.source ? (
        <>
          <dt>{t('comment.source')}</dt>
          <dd>
            <code>{sourceText(comment.anchor.source)}</code>
          </dd>
        </>
      ) : null}
      <dt>{t('comment.written')}</dt>
      <dd>{tx('comment.writtenBy', { when: <Time iso={comment.createdAt} />, name: comment.author.name })}</dd>
      <FixFacts comment={comment} />
    </dl>
  );
}

/** The latest fix: its commit (or none, and the link to the change), where it went Live, when it was verified. */
function FixFacts({ comment }: { comment: Comment }) {
  if (!comment.appliedAt) return null;
  const link = (text: string) =>
    comment.commitUrl ? (
      <a href={comment.commitUrl} target="_blank" rel="noopener noreferrer">
        {text}
      </a>
    ) : null;
  const commit = comment.commitSha ? (
    (link(t('comment.commit', { sha: shortSha(comment.commitSha) })) ?? <code>{shortSha(comment.commitSha)}</code>)
  ) : (
    <>
      {t('comment.withoutCommit')}
      {comment.commitUrl ? <> ({link(t('comment.theChange'))})</> : null}
    </>
  );
  const applied = comment.status === 'applied';
  return (
    <>
      {/* A reopened comment keeps the fix that did not fix it: said as such. */}
      <dt>{t(applied ? 'comment.fixedIn' : 'comment.earlierFix')}</dt>
      <dd>
        {tx(comment.appliedBy ? 'comment.appliedBy' : 'comment.applied', {
          commit,
          name: comment.appliedBy?.name ?? '',
          when: <Time iso={comment.appliedAt} />,
        })}
      </dd>
      {applied && comment.deployedAt ? (
        <>
          <dt>{t('state.live')}</dt>
          <dd>
            {comment.deployedBuildSha
              ? tx('comment.liveIn', {
                  build: <code>{shortSha(comment.deployedBuildSha)}</code>,
                  when: <Time iso={comment.deployedAt} />,
                })
              : t('comment.liveAtOnce')}
          </dd>
        </>
      ) : null}
      {comment.verifiedAt ? (
        <>
          <dt>{t('state.verified')}</dt>
          <dd>
            <Time iso={comment.verifiedAt} />
          </dd>
        </>
      ) : null}
    </>
  );
}
