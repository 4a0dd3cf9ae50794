// The global shortcut that starts and stops recording from any app. The vet presses the new
// keys in the field; main registers them before they are saved, so keys another app holds are
// refused with a sentence and the old shortcut stays. Where the desktop decides for itself
// whether the keys reach the app (a Linux Wayland session, main's shortcutCaveat), the section
// does not claim that they work: it says so, and names the tray icon and the window instead.
import { useEffect, useId, useRef, useState, type KeyboardEvent } from 'react';
import {
  acceleratorFromKeyPress,
  DEFAULT_RECORD_SHORTCUT,
  shortcutLabel,
  shortcutProblem,
} from '../../../../shared/desktop.ts';
import { useSession } from '../../stores/session.ts';
import { useSettings } from '../../stores/settings.ts';
import { TextField } from '../../components/text-field.tsx';
import { SettingsSection } from './section.tsx';
import { SettingFeedback, useMainCall } from './setting-save.tsx';

const platform = () => (navigator.userAgent.includes('Mac') ? 'darwin' : 'other');

export function ShortcutSection({ recordShortcut, desktop }: { recordShortcut: string; desktop: boolean }) {
  const update = useSettings((s) => s.update);
  const caveat = useSession((s) => s.app?.shortcutCaveat ?? null);
  const [capturing, setCapturing] = useState(false);
  const [pressed, setPressed] = useState<string | null>(null);
  const { pending, error, setError, run } = useMainCall();
  const busy = pending !== undefined;
  const [saved, setSaved] = useState<string | null>(null);
  const changeRef = useRef<HTMLButtonElement>(null);
  const ids = useId();
  const label = (accelerator: string) => shortcutLabel(accelerator, platform());
  // Back on "Change shortcut…" once the field is gone (saved or given up), not lost on the page.
  const [refocus, setRefocus] = useState(0);
  useEffect(() => {
    if (refocus > 0) changeRef.current?.focus();
  }, [refocus]);

  async function save(accelerator: string) {
    setSaved(null);
    await run(
      true,
      async () => {
        const after = await update({ recordShortcut: accelerator });
        setSaved(
          !after.recordShortcut
            ? 'Saved. No shortcut starts recording.'
            : caveat
              ? `Saved. ${label(after.recordShortcut)} is the recording shortcut, if this desktop passes it on.`
              : `Saved. ${label(after.recordShortcut)} starts and stops recording.`,
        );
        if (capturing) setRefocus((n) => n + 1);
        setCapturing(false);
        setPressed(null);
      },
      // Main's sentence after the setting's name ("recordShortcut: …").
      (message) => message.replace(/^(Invalid input for settings:update: )?recordShortcut:? /, ''),
    );
  }

  function onKeyDown(e: KeyboardEvent<HTMLInputElement>) {
    // Tab alone leaves the field, Escape gives up: the keyboard is never trapped here.
    if (e.key === 'Tab' && !e.ctrlKey && !e.altKey && !e.metaKey) {
      setCapturing(false);
      return;
    }
    // The keys are the shortcut being recorded, not a command to the window (Ctrl+K...).
    e.preventDefault();
    e.stopPropagation();
    if (e.key === 'Escape' && !e.ctrlKey && !e.altKey && !e.metaKey && !e.shiftKey) {
      setCapturing(false);
      setPressed(null);
      setError(null);
      setRefocus((n) => n + 1);
      return;
    }
    const accelerator = acceleratorFromKeyPress(e, platform());
    if (!accelerator) return;
    setPressed(accelerator);
    const problem = shortcutProblem(accelerator);
    if (problem) {
      setError(`${label(accelerator)} ${problem}.`);
      return;
    }
    void save(accelerator);
  }

  return (
    <SettingsSection title="Recording shortcut">
      <p id={`${ids}-now`}>
        {!recordShortcut ? (
          'No shortcut starts recording.'
        ) : caveat && desktop ? (
          <>
            <kbd>{label(recordShortcut)}</kbd> is the recording shortcut, but it may not work here.
          </>
        ) : (
          <>
            <kbd>{label(recordShortcut)}</kbd> starts and stops recording, from any app.
          </>
        )}
      </p>
      {caveat && desktop && (
        <p className="notice notice-warning" id={`${ids}-caveat`}>
          {caveat}
        </p>
      )}
      {!desktop && (
        <p className="field-hint">
          The shortcut and the tray icon work in the desktop app, not in this browser window.
        </p>
      )}
      {capturing ? (
        <TextField
          id={`${ids}-keys`}
          label="Press the new keys"
          hint="Hold Ctrl, Alt or Cmd (with Shift if you like) and press a letter, a digit or a function key. Escape cancels."
          className="settings-shortcut"
          readOnly
          autoFocus
          value={pressed ? label(pressed) : ''}
          placeholder="For example Ctrl+Shift+R"
          aria-busy={busy}
          onKeyDown={onKeyDown}
          onBlur={() => !busy && setCapturing(false)}
        />
      ) : (
        <div className="row">
          <button
            ref={changeRef}
            type="button"
            onClick={() => (setCapturing(true), setSaved(null), setError(null), setPressed(null))}
          >
            Change shortcut…
          </button>
          {recordShortcut !== DEFAULT_RECORD_SHORTCUT && (
            <button type="button" disabled={busy} onClick={() => void save(DEFAULT_RECORD_SHORTCUT)}>
              Use {label(DEFAULT_RECORD_SHORTCUT)}
            </button>
          )}
          {recordShortcut !== '' && (
            <button type="button" disabled={busy} onClick={() => void save('')}>
              Turn off
            </button>
          )}
        </div>
      )}
      <SettingFeedback error={error} notChanged="The shortcut was not changed." saved={saved} />
    </SettingsSection>
  );
}
