// The pet owner's consent, when Settings asks for it: Start asks first, in place of the buttons,
// and only "Yes" records.
import type { RefObject } from 'react';
import { declineConsent, startRecording } from './recorder-controller.ts';

export function ConsentAsk({
  yesRef,
  onDeclined,
}: {
  /** The keyboard goes to "Yes" when the question appears. */
  yesRef: RefObject<HTMLButtonElement | null>;
  onDeclined(): void;
}) {
  return (
    <div className="notice consent-ask" role="alertdialog" aria-labelledby="consent-question" aria-modal="false">
      <p id="consent-question">
        <strong>Has the pet owner agreed to this consult being recorded?</strong>
      </p>
      <div className="row">
        <button
          ref={yesRef}
          type="button"
          className="primary"
          onClick={() => void startRecording({ petOwnerConsented: true })}
        >
          Yes, the pet owner agreed: record
        </button>
        <button
          type="button"
          onClick={() => {
            declineConsent();
            onDeclined();
          }}
        >
          No, do not record
        </button>
      </div>
    </div>
  );
}
