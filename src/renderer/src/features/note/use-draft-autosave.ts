// The vet's edit not yet saved, kept in main as a draft as it is typed: leaving the note, a
// reload or a crash loses nothing, and the note opens in the editor again. Keys are handed to
// main after a short pause, at once on leaving the note, and before Switch user or sign-out
// while the vet who typed them is still the one signed in.
import { useEffect, useRef, useState } from 'react';
import { api } from '../../api.ts';
import { useNotifications } from '../../stores/notifications.ts';
import { whenLeaving } from '../../stores/switch-user.ts';
import type { NoteWhich } from './use-note-text.ts';

/** How long typing pauses before the draft goes to main. */
const KEEP_AFTER_MS = 400;

export function useDraftAutosave(which: NoteWhich) {
  const [draft, setDraft] = useState<string | null>(null);
  // A draft kept from before (another view, a reload, a crash): when it was typed.
  const [keptFrom, setKeptFrom] = useState<string | null>(null);
  // The draft as typed, not yet handed to main (written after a short pause, or on leaving).
  const unsent = useRef<string | null>(null);

  useEffect(() => {
    let current = true;
    api.consults
      .draft(which)
      .then((d) => {
        if (!current || d === null) return;
        setDraft(d.text);
        setKeptFrom(d.savedAt);
      })
      .catch(() => undefined);
    return () => {
      current = false;
    };
  }, [which]);

  useEffect(() => {
    if (draft === null || unsent.current === null) return;
    const timer = setTimeout(() => {
      const text = unsent.current;
      unsent.current = null;
      if (text !== null)
        void api.consults
          .saveDraft({ ...which, text })
          .catch((e: unknown) => useNotifications.getState().fail(e, 'Could not keep your changes'));
    }, KEEP_AFTER_MS);
    return () => clearTimeout(timer);
  }, [draft, which]);

  // Leaving the note with keys still unsent: they go to main at once.
  useEffect(
    () => () => {
      const text = unsent.current;
      unsent.current = null;
      if (text !== null) void api.consults.saveDraft({ ...which, text }).catch(() => undefined);
    },
    [which],
  );

  // Switch user or sign-out: the keys still unsent go to main first, while the vet who typed them
  // is still the one signed in (leaving the note afterwards would send them for no one).
  useEffect(
    () =>
      whenLeaving(async () => {
        const text = unsent.current;
        unsent.current = null;
        if (text !== null) await api.consults.saveDraft({ ...which, text });
      }),
    [which],
  );

  return {
    /** The edit on screen; null when the note is read, not edited. */
    draft,
    keptFrom,
    /** Opens the editor on `text`, or changes what it holds, as the vet types. */
    type(text: string) {
      unsent.current = text;
      setDraft(text);
    },
    /** The edit was saved (main dropped its draft with it): back to reading. */
    closed() {
      unsent.current = null;
      setDraft(null);
      setKeptFrom(null);
    },
    /** The edit is thrown away, here and in main. */
    async discard() {
      unsent.current = null;
      setDraft(null);
      setKeptFrom(null);
      await api.consults
        .saveDraft({ ...which, text: null })
        .catch((e: unknown) => useNotifications.getState().fail(e, 'Could not throw the changes away'));
    },
    /** Stops a pending key from being sent (the edit is being saved). */
    sent() {
      unsent.current = null;
    },
  };
}
