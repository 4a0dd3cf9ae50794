// Where the recording is, in words and time, and how loud the microphone hears the room: the
// first thing in the recorder's panel, read at a glance from across the exam table.
import { isCapturing, useRecorder } from '../../stores/recorder.ts';
import { useSession } from '../../stores/session.ts';
import { formatDuration } from '../../lib/duration.ts';

function levelWords(level: number): string {
  if (level < 10) return 'Silent';
  if (level < 40) return 'Quiet';
  if (level < 85) return 'Good';
  return 'Very loud';
}

export function StatusLine() {
  const status = useRecorder((s) => s.status);
  const elapsedMs = useRecorder((s) => s.elapsedMs);
  const words: Record<typeof status, string> = {
    idle: 'Ready to record',
    starting: 'Opening the microphone…',
    recording: 'Recording',
    paused: 'Paused',
    stopping: 'Saving the recording…',
    stopped: 'Recording ended',
    error: 'Not recording',
  };
  return (
    <div className="status-line">
      <span className={`rec-indicator rec-${status}`} role="status">
        <span className="rec-dot" aria-hidden="true" />
        {words[status]}
      </span>
      <span className="elapsed">
        <span className="visually-hidden">Elapsed time </span>
        <time dateTime={`PT${Math.floor(elapsedMs / 1000)}S`}>{formatDuration(elapsedMs)}</time>
      </span>
    </div>
  );
}

export function LevelMeter() {
  const level = useRecorder((s) => s.level);
  const status = useRecorder((s) => s.status);
  const active = status === 'recording';
  return (
    <div className="meter-field">
      <span className="meter-label" aria-hidden="true">
        Input level
      </span>
      <div
        className="level-meter"
        role="meter"
        aria-label="Input level"
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={level}
        aria-valuetext={active ? `${level} of 100, ${levelWords(level).toLowerCase()}` : 'Not listening'}
      >
        <div className={`level-meter-fill${level >= 85 ? ' loud' : ''}`} style={{ width: `${level}%` }} />
      </div>
      <span className="meter-words" aria-hidden="true">
        {active ? levelWords(level) : status === 'paused' ? 'Paused' : 'The microphone is off until you record'}
      </span>
    </div>
  );
}

/** Whose recording this is, when not the vet signed in: it went on through a Switch user. */
export function RecordingOwner() {
  const owner = useRecorder((s) => s.owner);
  const status = useRecorder((s) => s.status);
  const inFront = useSession((s) => (s.session.signedIn ? (s.session.user?.id ?? null) : null));
  if (!owner || owner.id === inFront || status === 'idle') return null;
  return (
    <p className="recording-owner">
      {isCapturing(status) ? 'Recording' : 'Recorded'} for {owner.name}
    </p>
  );
}
