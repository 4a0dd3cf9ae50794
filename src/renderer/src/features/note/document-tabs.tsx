// A consult's documents on tabs: its note first, then each more document asked of the same
// recording (discharge instructions after the SOAP note), with "Another document…" (in the
// note's "More" menu) to ask for one with another template. The tabs follow the WAI-ARIA tabs pattern (arrow keys, Home and
// End move between them and show the one reached); each document's panel is the note reader
// of that document, or where it is on its way in words.
import { useEffect, useId, useMemo, useRef, useState, type KeyboardEvent, type ReactNode } from 'react';
import type { ConsultInfo } from '../../../../shared/ipc.ts';
import type { DocumentInfo } from '../../../../shared/jobs.ts';
import { api } from '../../api.ts';
import { useSettings } from '../../stores/settings.ts';
import { useTemplates } from '../../stores/templates.ts';
import { TemplatePicker } from '../../components/template-picker.tsx';
import { documentStatus } from '../../lib/consult-status.ts';
import { NoteReader } from './note-reader.tsx';
import { documentLabels, NOTE_KEY, ShowDocumentContext } from './document-names.ts';
import { MoreItemsContext, useMoreItems } from './more-menu.tsx';
import { useAction } from '../../hooks/use-action.ts';
import './documents.css';

const NOTE_TAB = NOTE_KEY;

interface Tab {
  key: string;
  label: string;
  /** A word on the tab while its document is not ready ("Waiting", "Failed"). */
  badge: string | null;
}

export function DocumentTabs({ consult, note }: { consult: ConsultInfo; note: ReactNode }) {
  const job = consult.job;
  const documents = useMemo(() => job?.documents ?? [], [job]);
  const templates = useTemplates((s) => s.items);
  const templateName = (id: string) => templates.find((t) => t.id === id)?.name ?? null;
  const [selected, setSelected] = useState(NOTE_TAB);
  const [adding, setAdding] = useState(false);
  const base = useId();
  const tabRefs = useRef(new Map<string, HTMLButtonElement>());

  // The names come from the template list: it is asked for once the consult has a document.
  useEffect(() => {
    if (documents.length > 0 && useTemplates.getState().status === 'idle') void useTemplates.getState().load();
  }, [documents.length]);

  const labels = job ? documentLabels(job, templateName) : new Map<string, string>();
  const tabs: Tab[] = [
    { key: NOTE_TAB, label: labels.get(NOTE_TAB) ?? 'Note', badge: null },
    ...documents.map((d) => ({
      key: d.id,
      label: labels.get(d.id) ?? d.id,
      badge: d.state === 'completed' ? null : documentStatus(d, consult).badge,
    })),
  ];
  // A document that went away (the consult deleted elsewhere) leaves its tab for the note's.
  const current = tabs.some((t) => t.key === selected) ? selected : NOTE_TAB;
  const canAdd = job?.state === 'completed';

  function show(key: string, focus = false) {
    setSelected(key);
    if (focus) tabRefs.current.get(key)?.focus();
  }

  function onKeyDown(e: KeyboardEvent<HTMLButtonElement>) {
    const at = tabs.findIndex((t) => t.key === current);
    const to =
      e.key === 'ArrowRight'
        ? (at + 1) % tabs.length
        : e.key === 'ArrowLeft'
          ? (at - 1 + tabs.length) % tabs.length
          : e.key === 'Home'
            ? 0
            : e.key === 'End'
              ? tabs.length - 1
              : null;
    if (to === null) return;
    e.preventDefault();
    const tab = tabs[to];
    if (tab) show(tab.key, true);
  }

  const addForm = adding && job && (
    <AddDocument
      consult={consult}
      onCancel={() => setAdding(false)}
      onAdded={(documentId) => {
        setAdding(false);
        show(documentId);
      }}
    />
  );
  const around = useMoreItems();
  const items = useMemo(
    () => (canAdd ? [...around, { label: 'Another document…', onSelect: () => setAdding(true) }] : around),
    [around, canAdd],
  );
  const provide = (children: ReactNode) => (
    <ShowDocumentContext.Provider value={show}>
      <MoreItemsContext.Provider value={items}>{children}</MoreItemsContext.Provider>
    </ShowDocumentContext.Provider>
  );

  // A consult with its note only: no tabs, the note as it always was.
  if (documents.length === 0) {
    return provide(
      <>
        {addForm}
        {note}
      </>,
    );
  }

  const panelId = `${base}-panel`;
  const document = documents.find((d) => d.id === current);
  return provide(
    <>
      <div className="document-tabs row">
        <div role="tablist" aria-label="Documents of this consult" className="document-tablist">
          {tabs.map((t) => (
            <button
              key={t.key}
              ref={(el) => {
                if (el) tabRefs.current.set(t.key, el);
                else tabRefs.current.delete(t.key);
              }}
              type="button"
              role="tab"
              id={`${base}-tab-${t.key}`}
              aria-selected={t.key === current}
              aria-controls={panelId}
              tabIndex={t.key === current ? 0 : -1}
              className="document-tab"
              onClick={() => show(t.key)}
              onKeyDown={onKeyDown}
            >
              {t.badge ? `${t.label} (${t.badge})` : t.label}
            </button>
          ))}
        </div>
      </div>
      {addForm}
      <div role="tabpanel" id={panelId} aria-labelledby={`${base}-tab-${current}`} className="document-panel">
        {document ? <DocumentPanel key={document.id} consult={consult} document={document} /> : note}
      </div>
    </>,
  );
}

function DocumentPanel({ consult, document }: { consult: ConsultInfo; document: DocumentInfo }) {
  const overdueMinutes = useSettings((s) => s.settings?.scribeOverdueMinutes);
  const { busy, run } = useAction();
  if (document.hasNote) return <NoteReader consult={consult} documentId={document.id} />;
  const status = documentStatus(document, consult, overdueMinutes === undefined ? {} : { overdueMinutes });
  const again = document.state === 'failed' || (document.overdue && document.state === 'scribe_requested');

  const retry = () =>
    run('Could not ask for the document again', () =>
      api.consults.retryDocument({ id: consult.recording.id, documentId: document.id }),
    );

  return (
    <div
      className={`notice ${status.tone === 'error' ? 'notice-error' : status.tone === 'warning' ? 'notice-warning' : ''}`}
      role="status"
    >
      <p>This document is not ready yet: {status.text}</p>
      {again && (
        <button type="button" className="primary" disabled={busy} onClick={() => void retry()}>
          {document.state === 'failed' ? 'Try again' : 'Ask again'}
        </button>
      )}
    </div>
  );
}

/** Picks the template of one more document and asks for it; the templates already written are not offered. */
function AddDocument({
  consult,
  onCancel,
  onAdded,
}: {
  consult: ConsultInfo;
  onCancel(): void;
  onAdded(documentId: string): void;
}) {
  const job = consult.job;
  const [templateId, setTemplateId] = useState<string | null>(null);
  const [sending, setSending] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const titleId = useId();
  const used = useMemo(
    () => (job ? [job.templateId, ...job.documents.filter((d) => d.state !== 'failed').map((d) => d.templateId)] : []),
    [job],
  );
  const group = useRef<HTMLDivElement>(null);
  // The cursor goes to the template search once it can take it (the list loaded), once.
  const listed = useTemplates((s) => s.items.length > 0);
  const focused = useRef(false);
  useEffect(() => {
    if (!listed || focused.current) return;
    focused.current = true;
    group.current?.querySelector<HTMLElement>('input[type="search"]')?.focus();
  }, [listed]);

  async function add() {
    if (!templateId) {
      setError('Choose the template of the document first.');
      return;
    }
    setSending(true);
    setError(null);
    try {
      const templateName = useTemplates.getState().items.find((t) => t.id === templateId)?.name;
      const answer = await api.consults.addDocument({
        id: consult.recording.id,
        templateId,
        ...(templateName ? { templateName } : {}),
      });
      const added = [...(answer.job?.documents ?? [])].reverse().find((d) => d.templateId === templateId);
      if (added) onAdded(added.id);
      else onCancel();
    } catch (e) {
      setError((e as Error).message);
    } finally {
      setSending(false);
    }
  }

  return (
    <div className="panel document-add-form" role="group" aria-labelledby={titleId} ref={group}>
      <h2 id={titleId}>Another document from this recording</h2>
      <p className="muted">
        The service writes it from the same recording with the template you choose, for example discharge instructions
        for the pet owner. Nothing is recorded or uploaded again.
      </p>
      <TemplatePicker
        value={templateId}
        onChange={setTemplateId}
        preselectLast={false}
        exclude={used}
        disabled={sending}
      />
      {error && (
        <p className="field-error" role="alert">
          {error}
        </p>
      )}
      <div className="row">
        <button type="button" className="primary" disabled={sending} onClick={() => void add()}>
          {sending ? 'Asking…' : 'Write this document'}
        </button>
        <button type="button" disabled={sending} onClick={onCancel}>
          Cancel
        </button>
      </div>
    </div>
  );
}
