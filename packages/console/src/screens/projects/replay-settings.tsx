// A project's replay settings, part of its form.
import type { Project } from '@svc/contract';
import { REPLAY_SECONDS } from '@svc/contract/rules';
import { useId } from 'preact/hooks';
import { t } from '../../i18n.js';
import { Field } from '../../ui.js';

/**
 * Whether the project's widget keeps a replay of the moments before a reviewer's comment, how
 * long, and whether every text is masked in it. Off unless an admin turns it on; the widget reads
 * it when a page loads, so it takes effect without a deploy.
 */
export function ReplaySettings({
  replay,
  onChange,
}: {
  replay: Project['replay'];
  onChange: (replay: Project['replay']) => void;
}) {
  const hintId = useId();
  return (
    <fieldset class="replay-settings" aria-describedby={hintId}>
      <legend>{t('projects.replay')}</legend>
      <p id={hintId} class="hint">
        {t('projects.replayHint')}
      </p>
      <label class="check">
        <input
          type="checkbox"
          name="replayOn"
          checked={replay.on}
          onChange={(e) => onChange({ ...replay, on: (e.target as HTMLInputElement).checked })}
        />
        {t('projects.replayOn')}
      </label>
      <Field
        label={t('projects.replaySeconds')}
        type="number"
        name="replaySeconds"
        required
        min={REPLAY_SECONDS.min}
        max={REPLAY_SECONDS.max}
        step={1}
        disabled={!replay.on}
        value={String(replay.seconds)}
        onValue={(value) => onChange({ ...replay, seconds: Number(value) })}
      />
      <label class="check">
        <input
          type="checkbox"
          name="replayMaskText"
          checked={replay.maskAllText}
          disabled={!replay.on}
          onChange={(e) => onChange({ ...replay, maskAllText: (e.target as HTMLInputElement).checked })}
        />
        {t('projects.replayMaskText')}
      </label>
    </fieldset>
  );
}
