// Where the comment was written: the steps that led to it (each one the replay holds, with a way
// to play from there), the browser and page, the page's errors.

import { shortSha } from '@svc/contract/sha';
import { stepSentence } from '@svc/contract/steps';
import { speaker, t } from '../../i18n.js';
import { TableHead, Time } from '../../ui.js';
import type { Comment, Context } from './model.js';
import { clock, momentIn, shownReplay, stepTimes } from './replay-moments.js';

/**
 * The steps that led to the comment (from a signed-in reviewer's widget), numbered, in the
 * reader's language; while the replay plays, a step it holds offers to play from there.
 */
function StepsToReproduce({ steps, times }: { steps: NonNullable<Context['steps']>; times: (number | null)[] }) {
  const { t: say } = speaker();
  const replay = shownReplay.value;
  return (
    <>
      <h2 id="steps-title">{t('steps.title')}</h2>
      <ol class="card steps" aria-labelledby="steps-title">
        {steps.map((step, index) => {
          const moment = replay ? momentIn(replay, step, times[index] ?? null) : null;
          return (
            // The steps never change once kept: their place is who they are.
            <li key={index}>
              {stepSentence(step, say)}
              {replay && moment !== null ? (
                <>
                  {' '}
                  <button type="button" class="link small" onClick={() => replay.playFrom(moment)}>
                    {t('replay.playFrom', { time: clock(moment) })}
                  </button>
                </>
              ) : null}
            </li>
          );
        })}
      </ol>
    </>
  );
}

/** The browser and page the comment was written in, the steps that led to it, and the page's recent errors. */
export function ContextFacts({ comment, context }: { comment: Comment; context: Context }) {
  const software = (s: { name: string; version: string | null } | null) =>
    s ? `${s.name} ${s.version ?? ''}`.trim() : t('comment.unknown');
  return (
    <>
      {context.steps?.length ? <StepsToReproduce steps={context.steps} times={stepTimes(comment)} /> : null}
      <h2>{t('comment.whereWritten')}</h2>
      <div class="card">
        <dl class="facts">
          <dt>{t('comment.browser')}</dt>
          <dd>{t('comment.browserValue', { browser: software(context.browser), os: software(context.os) })}</dd>
          <dt>{t('comment.window')}</dt>
          <dd>
            {t('comment.windowValue', {
              width: String(context.viewport.width),
              height: String(context.viewport.height),
              ratio: String(context.devicePixelRatio),
              screenWidth: String(context.screen.width),
              screenHeight: String(context.screen.height),
            })}
          </dd>
          <dt>{t('comment.language')}</dt>
          <dd>
            {t('comment.languageValue', {
              language: context.language,
              timeZone: context.timeZone,
              scheme: context.colorScheme,
            })}
          </dd>
          <dt>{t('comment.pageTitle')}</dt>
          <dd>{context.title || '—'}</dd>
          <dt>{t('comment.address')}</dt>
          <dd>{context.url}</dd>
          <dt>{t('comment.build')}</dt>
          <dd>{context.buildSha ? <code>{shortSha(context.buildSha)}</code> : t('comment.notStamped')}</dd>
        </dl>
      </div>
      <h2>{t('comment.pageErrors', { count: context.errors.length })}</h2>
      {context.errors.length ? (
        <div class="table-wrap">
          <table>
            <TableHead columns={[t('comment.kind'), t('inbox.what'), [t('inbox.when'), 'wide']]} />
            <tbody>
              {context.errors.map((e) => (
                <tr key={`${e.at}${e.message}`}>
                  <td>{e.kind}</td>
                  <td class="wrap">
                    {e.message}
                    {e.kind === 'network' && e.durationMs !== undefined ? (
                      <span class="muted small"> · {e.durationMs} ms</span>
                    ) : null}
                  </td>
                  <td class="hide-phone">
                    <Time iso={e.at} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : (
        <p class="muted">{t('comment.noneRecorded')}</p>
      )}
    </>
  );
}
