// The clinic's update feed: an address on the clinic's own web server where IT puts each new
// version (the files `npm run dist` writes). Without one the app never looks for updates.
import { useState, type FormEvent } from 'react';
import { updateFeedProblem } from '../../../../shared/updates.ts';
import { useSettings } from '../../stores/settings.ts';
import { useUpdateInfo } from '../../hooks/use-update-info.ts';
import { AddressForm } from './address-form.tsx';
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
      <AddressForm
        label="Update feed address"
        hint={FEED_HINT}
        placeholder="https://updates.clinic.example/vet-scribe/"
        value={value}
        onValue={setValue}
        onSave={(e) => void save(e)}
        pending={pending !== undefined}
        error={error}
        notChanged="The update feed was not changed."
        saved={saved}
      />
    </SettingsSection>
  );
}
