// The header while no one is signed in and a recording goes on (Switch user's "Keep recording",
// or a sign-in that ended under the recording). Switch user and Sign out mean nothing then: it
// says whose recording is going and offers Sign in. The sign-in screen it opens keeps the
// recording in sight, one click from going back to it, since the recorder's Stop is not there.
import { create } from 'zustand';
import { useRecorder } from '../../stores/recorder.ts';
import './while-signed-out.css';

/** Sign in was asked for during such a recording: the window shows the sign-in screen meanwhile. */
export const useSignInAsked = create<{ asked: boolean }>(() => ({ asked: false }));

const ownerName = (owner: { name: string } | null) => owner?.name || 'The vet who started it';

/** In the header, in place of the vet's name, Switch user and Sign out. */
export function SignedOutHeader() {
  const owner = useRecorder((s) => s.owner);
  return (
    <>
      <span className="user signed-out-user">Recording for {ownerName(owner)} · no one signed in</span>
      <button type="button" className="signed-out-sign-in" onClick={() => useSignInAsked.setState({ asked: true })}>
        Sign in
      </button>
    </>
  );
}

/** Above the sign-in form asked for during the recording: whose recording goes on, and the way back to it. */
export function RecordingGoesOn({ onBack }: { onBack: () => void }) {
  const owner = useRecorder((s) => s.owner);
  return (
    <div className="notice notice-warning notice-dismissable recording-goes-on" role="status">
      <p>{ownerName(owner)}’s recording goes on.</p>
      <button
        type="button"
        onClick={() => {
          useSignInAsked.setState({ asked: false });
          onBack();
        }}
      >
        Back to the recording
      </button>
    </div>
  );
}
