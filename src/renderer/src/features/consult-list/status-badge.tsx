import type { ConsultStatus } from '../../lib/consult-status.ts';

const TONE_CLASS: Record<ConsultStatus['tone'], string> = {
  progress: 'badge',
  done: 'badge badge-done',
  warning: 'badge badge-warning',
  error: 'badge badge-error',
};
// A shape as well as a colour, so the tone reads without colour. Hidden from screen readers:
// the status sentence beside it already says all of it.
const TONE_MARK: Record<ConsultStatus['tone'], string> = { progress: '◌', done: '✓', warning: '!', error: '✕' };

/**
 * The badge's word, or nothing where the sentence beside it says it already ("Note ready"
 * beside "Ready", "Uploading 40%" beside "Uploading"): each state is said once.
 */
export function badgeWord(status: ConsultStatus): string {
  return status.text.toLowerCase().includes(status.badge.toLowerCase()) ? '' : status.badge;
}

export function StatusBadge({ status }: { status: ConsultStatus }) {
  const word = badgeWord(status);
  return (
    <span className={TONE_CLASS[status.tone]} aria-hidden="true">
      {word ? `${TONE_MARK[status.tone]} ${word}` : TONE_MARK[status.tone]}
    </span>
  );
}
