// A question asked in place, instead of a modal dialog: the answer buttons take the focus so
// a keyboard user lands on them, and "Cancel" comes first because it loses nothing.
import { useEffect, useId, useRef } from 'react';
import './confirm-inline.css';

export function ConfirmInline({
  message,
  confirmLabel,
  onConfirm,
  onCancel,
  busy,
}: {
  message: string;
  confirmLabel: string;
  onConfirm(): void;
  onCancel(): void;
  busy?: boolean;
}) {
  const messageId = useId();
  const cancel = useRef<HTMLButtonElement>(null);
  useEffect(() => cancel.current?.focus(), []);
  return (
    <div className="confirm-inline" role="group" aria-labelledby={messageId}>
      <p id={messageId}>{message}</p>
      <div className="row">
        <button type="button" ref={cancel} onClick={onCancel} disabled={busy}>
          Cancel
        </button>
        <button type="button" className="danger" onClick={onConfirm} disabled={busy}>
          {confirmLabel}
        </button>
      </div>
    </div>
  );
}
