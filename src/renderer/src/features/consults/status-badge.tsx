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

export function StatusBadge({ status }: { status: ConsultStatus }) {
  return (
    <span className={TONE_CLASS[status.tone]} aria-hidden="true">
      {TONE_MARK[status.tone]} {status.badge}
    </span>
  );
}
