// The question half of an agent panel: one labelled text field, its send button, and the
// states around a request (waiting, a problem with the text, a failed call with Try again).
// Ctrl/Cmd+Enter sends from the field, so the keyboard never has to leave it.
import { useId, type ReactNode, type RefObject } from 'react';
import type { Failure } from './agents-store.ts';
import './agents.css';

const IS_MAC = typeof navigator !== 'undefined' && /mac/i.test(navigator.platform);
const SEND_KEYS = IS_MAC ? '⌘+Enter' : 'Ctrl+Enter';

export interface AgentFormProps {
  label: string;
  hint: string;
  placeholder?: string;
  sendLabel: string;
  value: string;
  onChange(value: string): void;
  onSend(): void;
  onRetry(): void;
  busy: boolean;
  problem: string | null;
  error: Failure | null;
  fieldRef: RefObject<HTMLTextAreaElement | null>;
  /** Shown between the field and the error: the species warning of the treatment panel. */
  children?: ReactNode;
  /** Lines of the text field: a history needs room, a drug and species one line or two. */
  rows?: number;
}

export function AgentForm({
  label,
  hint,
  placeholder,
  sendLabel,
  value,
  onChange,
  onSend,
  onRetry,
  busy,
  problem,
  error,
  fieldRef,
  children,
  rows = 8,
}: AgentFormProps) {
  const id = useId();
  const hintId = `${id}-hint`;
  const problemId = `${id}-problem`;
  return (
    <form
      className="agent-form"
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        onSend();
      }}
    >
      <label htmlFor={id}>{label}</label>
      <textarea
        id={id}
        ref={fieldRef}
        value={value}
        rows={rows}
        className={rows < 8 ? 'agent-field-short' : undefined}
        spellCheck
        placeholder={placeholder}
        aria-describedby={problem ? `${hintId} ${problemId}` : hintId}
        aria-invalid={problem ? true : undefined}
        onChange={(e) => onChange(e.target.value)}
        onKeyDown={(e) => {
          if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) {
            e.preventDefault();
            onSend();
          }
        }}
      />
      <p id={hintId} className="field-hint">
        {hint} Press {SEND_KEYS} to send.
      </p>
      {problem && (
        <p id={problemId} className="field-error" role="alert">
          {problem}
        </p>
      )}
      <div className="row agent-send">
        <button type="submit" className="primary" disabled={busy} aria-busy={busy}>
          {busy ? 'Asking…' : sendLabel}
        </button>
        {busy && (
          <p className="agent-waiting" role="status">
            <progress aria-label="Waiting for the answer" />
            <span>
              Asking the service — you can keep working elsewhere; the answer will be here when you come back.
            </span>
          </p>
        )}
      </div>
      {children}
      {error && (
        <div className="notice notice-error agent-error" role="alert">
          <p>{error.message}</p>
          {error.code !== 'invalid_input' && (
            <button type="button" onClick={onRetry} disabled={busy}>
              Try again
            </button>
          )}
        </div>
      )}
    </form>
  );
}
