// The consult's recording, to listen to beside the note; or why it is gone.
import { useEffect, useState } from 'react';
import { api } from '../../api.ts';
import { useSettings } from '../../stores/settings.ts';

export function NoteAudio({ id, audioDeleted }: { id: string; audioDeleted: boolean }) {
  const retentionDays = useSettings((s) => s.settings?.retentionDays);
  const [answer, setAnswer] = useState<{ id: string; url?: string; error?: string } | null>(null);

  useEffect(() => {
    if (audioDeleted) return;
    let current = true;
    api.consults
      .audioUrl({ id })
      .then(({ url }) => current && setAnswer({ id, url }))
      .catch((e: unknown) => current && setAnswer({ id, error: (e as Error).message }));
    return () => {
      current = false;
    };
  }, [id, audioDeleted]);

  let body;
  if (audioDeleted) {
    body = (
      <p className="muted">
        {retentionDays === 0
          ? 'The audio was deleted once the note was ready (Settings → Audio retention).'
          : typeof retentionDays === 'number'
            ? `The audio was deleted after ${retentionDays} ${retentionDays === 1 ? 'day' : 'days'} (Settings → Audio retention).`
            : 'The audio was deleted (Settings → Audio retention).'}
      </p>
    );
  } else if (answer?.id !== id) {
    body = <p className="muted">Loading the recording…</p>;
  } else if (answer.error !== undefined) {
    body = <p className="field-error">The recording cannot be played: {answer.error}</p>;
  } else {
    body = (
      <audio controls preload="metadata" src={answer.url} aria-label="Recording of the consult">
        Your system cannot play this recording here.
      </audio>
    );
  }
  return (
    <section className="note-audio panel" aria-labelledby="note-audio-title">
      <h2 id="note-audio-title">Recording</h2>
      {body}
    </section>
  );
}
