// The note's text as main has it for the vet in front: the service's, and the vet's saved edit
// beside it. Read again whenever main says the job changed (an edit saved here or elsewhere);
// while a newer copy is on its way the one in hand stays.
import { useEffect, useState } from 'react';
import { api } from '../../api.ts';

export type LoadedNote =
  | { key: string; note: string | null; editedNote: string | null; othersEditing: string[]; error?: undefined }
  | { key: string; error: string };

/** Names the note (`{ id }`) or one more document of it (`{ id, documentId }`). */
export type NoteWhich = { id: string } | { id: string; documentId: string };

/**
 * `key` changes whenever the note should be read again (the job's last change); `retry` reads it
 * again after a failure; `saved` puts an edit main has just kept into the copy in hand.
 */
export function useNoteText(which: NoteWhich, key: string) {
  const [loaded, setLoaded] = useState<LoadedNote | null>(null);
  const [retries, setRetries] = useState(0);
  useEffect(() => {
    let current = true;
    api.consults
      .note(which)
      .then(
        (n) => current && setLoaded({ key, note: n.note, editedNote: n.editedNote, othersEditing: n.othersEditing }),
      )
      .catch((e: unknown) => current && setLoaded({ key, error: (e as Error).message }));
    return () => {
      current = false;
    };
  }, [which, key, retries]);
  return {
    // A copy read for another consult is none of this one's: only the first load waits.
    loaded: loaded !== null && loaded.key.startsWith(`${which.id}@`) ? loaded : null,
    retry: () => setRetries((n) => n + 1),
    saved(editedNote: string | null) {
      setLoaded((l) => (l && l.error === undefined ? { ...l, key, editedNote } : l));
    },
  };
}
