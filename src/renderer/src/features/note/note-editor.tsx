// The note in the editor: the vet's edit, one box per section, kept in main as it is typed
// (use-draft-autosave.ts) until it is saved or thrown away.
import { useId, type ReactNode } from 'react';
import { SectionEditor } from './section-editor.tsx';

/** The note's editor: one box per section, and Save, Revert and Discard under it. */
export function NoteEditor({
  name,
  draft,
  keptFrom,
  saving,
  notice,
  onType,
  onSave,
  onRevert,
  onDiscard,
}: {
  name: string;
  draft: string;
  keptFrom: string | null;
  saving: boolean;
  notice: ReactNode;
  onType: (text: string) => void;
  onSave: () => Promise<void>;
  /** Null when the draft is the service's text already. */
  onRevert: (() => void) | null;
  onDiscard: () => void;
}) {
  const editorId = useId();
  return (
    <div className="note-editor panel">
      <h2 id={editorId} className="note-editor-title">
        Edit {name}
      </h2>
      {notice}
      {keptFrom && (
        <p className="notice notice-info" role="status">
          Your changes from {new Date(keptFrom).toLocaleString([], { dateStyle: 'medium', timeStyle: 'short' })} were
          kept. Save them, or discard them.
        </p>
      )}
      <SectionEditor text={draft} onChange={onType} disabled={saving} labelledBy={editorId} />
      <p className="field-hint">
        Each section of the note has its own box, under its heading. Your changes are kept as you type, until you save
        or discard them; the service’s original stays kept.
      </p>
      <div className="row note-toolbar">
        <button type="button" className="primary" disabled={saving} onClick={() => void onSave()}>
          Save
        </button>
        <button type="button" disabled={saving || onRevert === null} onClick={() => onRevert?.()}>
          Revert to the service’s note
        </button>
        <button type="button" disabled={saving} onClick={onDiscard}>
          Discard changes
        </button>
      </div>
    </div>
  );
}
