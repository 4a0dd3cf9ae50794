// "Ask about this consult": a conversation with the clinical assistant, under the note. The first
// message sends the note (main reads it: the vet's edit when there is one, or the open document)
// and the answers know the case. The turns are kept with the consult in main and shown again
// whenever the note is opened. The same panel sits under a note of the clinic's from elsewhere,
// whose turns main keeps with the account's copy of the clinic's list. A message leaves the box only once its turn is kept: when asking
// fails, it stays there, with one sentence saying why. Answers are shown as text, never as HTML.
import { useEffect, useId, useState, type FormEvent } from 'react';
import type { ChatTurn } from '../../../../shared/ipc.ts';
import { MAX_CHAT_MESSAGE } from '../../../../shared/limits.ts';
import { api } from '../../api.ts';
import { useSession } from '../../stores/session.ts';
import './consult-chat.css';

export const QUICK_STARTS = [
  'What should the pet owner watch for?',
  'Differentials from this note',
  'Check the doses in this plan',
] as const;

// What the vet typed and did not send, per vet and consult, for as long as the window's session
// lasts (a reload included): leaving the note and coming back finds it in the box, and a
// colleague who opens the same note after a Switch user does not. Storage that refuses (full,
// or switched off) leaves it in the box on screen only.
const unsent = {
  key: (vet: string, id: string) => `consult-chat-draft:${vet}:${id}`,
  get(vet: string, id: string): string | null {
    try {
      return window.sessionStorage.getItem(this.key(vet, id));
    } catch {
      return null;
    }
  },
  set(vet: string, id: string, text: string): void {
    try {
      if (text === '') window.sessionStorage.removeItem(this.key(vet, id));
      else window.sessionStorage.setItem(this.key(vet, id), text);
    } catch {
      // Kept on screen only.
    }
  },
};

/**
 * Which conversation: a consult of this computer (`id`, and `documentId` for one more document)
 * or, `from: 'clinic'`, a note of the clinic's from elsewhere (`id` is its key in the clinic's list).
 */
export interface ConsultChatProps {
  id: string;
  documentId?: string;
  from?: 'here' | 'clinic';
}

function chatCalls(id: string, documentId: string | undefined, from: 'here' | 'clinic') {
  if (from === 'clinic')
    return {
      turns: () => api.clinic.chatTurns({ key: id }),
      ask: (message: string) => api.clinic.chat({ key: id, message }),
    };
  return {
    turns: () => api.consults.chatTurns({ id }),
    ask: (message: string) => api.consults.chat({ id, message, ...(documentId === undefined ? {} : { documentId }) }),
  };
}

/**
 * One box per vet signed in: through a Switch user (a recording going on keeps the window) the
 * next vet finds an empty box, and an answer or refusal that lands late for the vet who left
 * reaches only their box, gone from the screen.
 */
export function ConsultChat(props: ConsultChatProps) {
  const vet = useSession((s) => (s.session.signedIn ? (s.session.user?.id ?? '') : ''));
  return <VetChat key={vet} vet={vet} {...props} />;
}

function VetChat({ vet, id, documentId, from = 'here' }: ConsultChatProps & { vet: string }) {
  const boxId = useId();
  const [turns, setTurns] = useState<ChatTurn[]>([]);
  const [draft, setDraftState] = useState(() => unsent.get(vet, id) ?? '');
  const [asking, setAsking] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);

  function setDraft(text: string) {
    unsent.set(vet, id, text);
    setDraftState(text);
  }

  useEffect(() => {
    let current = true;
    chatCalls(id, undefined, from)
      .turns()
      .then((kept) => current && setTurns(kept))
      // The note is what matters here: without its conversation it is still shown.
      .catch(() => undefined);
    return () => {
      current = false;
    };
  }, [id, from]);

  async function ask(text: string) {
    const message = text.trim();
    if (message === '' || asking !== null) return;
    setDraft(text);
    setError(null);
    setAsking(message);
    try {
      const turn = await chatCalls(id, documentId, from).ask(message);
      setTurns((all) => [...all, turn]);
      setDraft('');
    } catch (e) {
      setError((e as Error).message);
    } finally {
      setAsking(null);
    }
  }

  function submit(event: FormEvent) {
    event.preventDefault();
    void ask(draft);
  }

  return (
    <section className="panel consult-chat" aria-labelledby={`${boxId}-title`}>
      <h2 id={`${boxId}-title`}>Ask about this consult</h2>
      {turns.length > 0 && (
        <ol className="chat-turns" aria-label="Conversation">
          {turns.map((t) => (
            <li key={t.turnId}>
              <p className="chat-you">
                <span className="chat-who">You</span> <span className="chat-text">{t.message}</span>
              </p>
              {t.notice && <p className="chat-notice">{t.notice}</p>}
              <p className="chat-answer">
                <span className="chat-who">Assistant</span> <span className="chat-text">{t.answer}</span>
              </p>
            </li>
          ))}
        </ol>
      )}
      {asking !== null && (
        <p className="chat-asking muted" role="status" aria-busy="true">
          Asking: “{asking}”…
        </p>
      )}
      <div className="row chat-quick" role="group" aria-label="Quick questions">
        {QUICK_STARTS.map((q) => (
          <button key={q} type="button" disabled={asking !== null} onClick={() => void ask(q)}>
            {q}
          </button>
        ))}
      </div>
      <form className="chat-form" onSubmit={submit}>
        <textarea
          id={boxId}
          aria-label="Your question about this consult"
          rows={2}
          maxLength={MAX_CHAT_MESSAGE}
          placeholder="Ask about this case…"
          value={draft}
          readOnly={asking !== null}
          onChange={(e) => setDraft(e.target.value)}
          onKeyDown={(e) => {
            if (e.key === 'Enter' && !e.shiftKey) {
              e.preventDefault();
              void ask(draft);
            }
          }}
        />
        <button type="submit" className="primary" disabled={asking !== null || draft.trim() === ''}>
          Ask
        </button>
      </form>
      {error && (
        <p className="field-error" role="alert">
          {error}
        </p>
      )}
    </section>
  );
}
