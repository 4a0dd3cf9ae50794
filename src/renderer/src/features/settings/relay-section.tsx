// Settings → Clinic relay: the address of the clinic's relay (the receiver that passes the
// service's deliveries to every exam room) and whether this computer hears it, said plainly.
// Without one, or while it cannot be reached, notes are polled for exactly as before. Beside it,
// this computer's name, as the other rooms read it when a note is edited here.
import { useEffect, useId, useState, type FormEvent } from 'react';
import type { RelayStatus } from '../../../../shared/relay.ts';
import { api } from '../../api.ts';
import { useSettings } from '../../stores/settings.ts';
import { TextField } from '../../components/text-field.tsx';
import { AddressForm } from './address-form.tsx';
import { SettingsSection } from './section.tsx';
import { useMainCall } from './setting-save.tsx';

const RELAY_HINT =
  "For the clinic's IT: the address of the clinic relay, which receives the service's deliveries and passes them to every exam room. With it, a note appears the moment it is written and a note from another room is listed under its patient. Leave it empty to poll for notes as usual.";

/** The relay's state in the words a vet reads. */
export function relayWords(status: RelayStatus | null): string {
  switch (status?.state) {
    case undefined:
      return '…';
    case 'off':
      return 'No relay: notes are polled for as usual.';
    case 'signed-out':
      return 'Waiting for a vet to sign in: polling as usual.';
    case 'connecting':
      return 'Connecting…';
    case 'connected':
      return 'Connected.';
    case 'unreachable':
      return `Not reachable: polling as usual. ${status.message}`;
    case 'refused':
      return `Refused: ${status.message}`;
  }
}

/** The relay's state, kept current by main's events. */
function useRelayStatus(): RelayStatus | null {
  const [status, setStatus] = useState<RelayStatus | null>(null);
  useEffect(() => {
    let live = true;
    api.relay
      .status()
      .then((s) => live && setStatus(s))
      .catch(() => undefined);
    const off = api.on('relay:changed', (s) => setStatus(s));
    return () => {
      live = false;
      off();
    };
  }, []);
  return status;
}

export function RelaySection({
  relayUrl,
  computerName,
  hostName,
}: {
  relayUrl: string;
  computerName: string;
  /** The name the other rooms read while none is given (app:info). */
  hostName: string;
}) {
  const update = useSettings((s) => s.update);
  const status = useRelayStatus();
  const [value, setValue] = useState(relayUrl);
  const { pending, error, run } = useMainCall();
  const [saved, setSaved] = useState<string | null>(null);

  async function save(e: FormEvent) {
    e.preventDefault();
    setSaved(null);
    await run(true, async () => {
      const after = await update({ relayUrl: value.trim() });
      setSaved(after.relayUrl ? 'Saved. The app connects to the relay now.' : 'Saved. Notes are polled for as usual.');
    });
  }

  return (
    <SettingsSection title="Clinic relay">
      <p role="status" aria-live="polite">
        <strong>Now:</strong> {relayWords(status)}
      </p>
      <AddressForm
        label="Clinic relay address"
        hint={RELAY_HINT}
        placeholder="https://relay.clinic.example/"
        value={value}
        onValue={setValue}
        onSave={(e) => void save(e)}
        pending={pending !== undefined}
        error={error}
        notChanged="The relay address was not changed."
        saved={saved}
      />
      <ComputerNameForm computerName={computerName} hostName={hostName} />
    </SettingsSection>
  );
}

/**
 * This computer's name in the edits announced to the other rooms ("Edited on Exam room 1 by …"):
 * it names the PC, not a vet. Saved alone; main's refusal is said on the field, and nothing is saved.
 */
function ComputerNameForm({ computerName, hostName }: { computerName: string; hostName: string }) {
  const id = useId();
  const update = useSettings((s) => s.update);
  const [value, setValue] = useState(computerName);
  const { pending, error, run } = useMainCall();
  const [saved, setSaved] = useState<string | null>(null);

  async function save(e: FormEvent) {
    e.preventDefault();
    setSaved(null);
    await run(
      true,
      async () => {
        const after = await update({ computerName: value });
        setValue(after.computerName);
        setSaved(
          after.computerName
            ? `Saved. The other rooms read edits made here as "Edited on ${after.computerName}".`
            : `Saved. The other rooms read edits made here under its host name, "${hostName}".`,
        );
      },
      // Main names the setting ("computerName must be …"); the field says it in a sentence.
      (message) => message.replace(/^(Invalid input for settings:update: )?computerName:? /, 'It '),
    );
  }

  return (
    <>
      <form onSubmit={(e) => void save(e)}>
        <TextField
          id={`${id}-name`}
          label="This computer's name"
          hint={`The name the other exam rooms read when a note is edited here ("Edited on Exam room 1 by …"). It names this computer, not a vet. Empty, the other rooms read this computer's host name, "${hostName}".`}
          error={error && `The computer's name was not changed. ${error}`}
          announce
          placeholder={hostName}
          autoComplete="off"
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
    </>
  );
}
