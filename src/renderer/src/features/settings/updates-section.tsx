// The clinic's update feed: an address on the clinic's own web server where IT puts each new
// version (the files `npm run dist` writes). Without one the app never looks for updates.
import { useId, useState, type FormEvent } from 'react';
import { updateFeedProblem } from '../../../../shared/updates.ts';
import { useSettings } from '../../stores/settings.ts';
import { useUpdateInfo } from '../../hooks/use-update-info.ts';
import { TextField } from '../../components/text-field.tsx';
import { SettingsSection } from './section.tsx';
import { useMainCall } from './setting-save.tsx';

const PHASE_WORDS = {
  off: 'Off',
  idle: 'Up to date',
  checking: 'Checking the feed…',
  downloading: 'Downloading a new version…',
  ready: 'A new version is ready: it is installed at the next restart',
  failed: 'Not updated',
} as const;

const FEED_HINT =
  "For the clinic's IT: the folder on the clinic's web server with the installers and their latest.yml files. Leave it empty to install new versions by hand. A new version is installed when the app restarts, never during a recording or while one is being sent.";

export function UpdatesSection({ updateFeedUrl }: { updateFeedUrl: string }) {
  const update = useSettings((s) => s.update);
  const info = useUpdateInfo();
  const [value, setValue] = useState(updateFeedUrl);
  const { pending, error, setError, run } = useMainCall();
  const [saved, setSaved] = useState<string | null>(null);
  const ids = useId();

  async function save(e: FormEvent) {
    e.preventDefault();
    const url = value.trim();
    setSaved(null);
    const problem = updateFeedProblem(url);
    if (problem) {
      setError(`The address ${problem}.`);
      return;
    }
    await run(true, async () => {
      const after = await update({ updateFeedUrl: url });
      setSaved(
        after.updateFeedUrl
          ? 'Saved. The app looks for new versions there now and every 4 hours.'
          : 'Saved. The app does not look for new versions.',
      );
    });
  }

  return (
    <SettingsSection title="Updates">
      <p>
        <strong>Now:</strong>{' '}
        {info ? `${PHASE_WORDS[info.phase]}${info.version ? ` (version ${info.version})` : ''}.` : '…'}{' '}
        {(info?.phase === 'off' || info?.phase === 'idle' || info?.phase === 'failed') && info.message}
      </p>
      <form onSubmit={(e) => void save(e)}>
        <TextField
          id={`${ids}-url`}
          label="Update feed address"
          labelClassName="visually-hidden"
          hint={FEED_HINT}
          error={error && `The update feed was not changed. ${error}`}
          announce
          type="url"
          placeholder="https://updates.clinic.example/vet-scribe/"
          value={value}
          onValue={setValue}
          rowClassName="settings-inline row"
          beside={
            <button type="submit" disabled={pending !== undefined}>
              Save
            </button>
          }
        />
      </form>
      <p className="settings-ok" role="status">
        {saved}
      </p>
    </SettingsSection>
  );
}
