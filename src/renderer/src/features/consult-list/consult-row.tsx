// One consult in the list: what it is, where it is on its way to a note, and what can be done
// with it now.
import { useId, useState } from 'react';
import type { ConsultInfo } from '../../../../shared/ipc.ts';
import type { AskedBy } from '../../../../shared/jobs.ts';
import { api } from '../../api.ts';
import { useNav } from '../../stores/nav.ts';
import { useConsults } from '../../stores/consults.ts';
import { useSession } from '../../stores/session.ts';
import { useSettings } from '../../stores/settings.ts';
import { useTemplates } from '../../stores/templates.ts';
import { switchUser } from '../../stores/switch-user.ts';
import { TemplatePicker } from '../../components/template-picker.tsx';
import { ConfirmInline } from '../../components/confirm-inline.tsx';
import {
  type ConsultStatus,
  askerName,
  consultStatus,
  consultTitle,
  formatDuration,
  needsPatientName,
  ownerName,
  timeOfDay,
} from '../../lib/consult-status.ts';
import { PatientDetails, VisitCompanions } from '../note/index.ts';
import { StatusBadge } from './status-badge.tsx';
import { useAction } from '../../hooks/use-action.ts';

export function ConsultRow({ consult }: { consult: ConsultInfo }) {
  const { recording, job } = consult;
  const go = useNav((s) => s.go);
  const [templateId, setTemplateId] = useState<string | null>(consult.recording.templateId);
  const [confirming, setConfirming] = useState(false);
  const { busy, run: act } = useAction();
  const titleId = useId();

  const overdueMinutes = useSettings((s) => s.settings?.scribeOverdueMinutes);
  const usedTemplateId = job?.templateId ?? recording.templateId;
  const templateName = useTemplates((s) => s.items.find((t) => t.id === usedTemplateId)?.name ?? null);
  const status = consultStatus(consult, overdueMinutes === undefined ? {} : { overdueMinutes });
  const title = consultTitle(recording);
  const live = recording.state === 'recording' || recording.state === 'paused';
  const recovered = recording.state === 'recovered';
  const claimable = consult.claimable === true && !live;
  const needsName = !live && !claimable && needsPatientName(consult);
  const needsTemplate = !live && !claimable && job === null && !needsName;
  // A colleague's consult waiting to be sent does not need this vet: its status says who may
  // send it (the engine's sentence), once, in place of "Choose a template to send" and Send.
  const shown: ConsultStatus =
    needsTemplate && consult.sendRefused ? { text: consult.sendRefused, badge: 'Waiting', tone: 'progress' } : status;
  const me = useSession((s) => s.session.user);
  const background = useSession((s) => s.session.background);

  const send = (chosen: string) =>
    act(`Could not send "${title}"`, () => api.consults.submit({ id: recording.id, templateId: chosen }));
  const retry = () => act(`Could not retry "${title}"`, () => api.consults.retry({ id: recording.id }));
  const claim = () =>
    act(`Could not take "${title}" as yours`, () =>
      api.consults.claim({ id: recording.id }).then((c) => useConsults.getState().answered(c)),
    );
  const askAgain = () => act(`Could not ask again for "${title}"`, () => api.consults.askAgain({ id: recording.id }));
  const remove = () =>
    act(`Could not delete "${title}"`, async () => {
      await api.consults.delete({ id: recording.id });
      setConfirming(false);
    });

  return (
    <li className={`consult-row tone-${shown.tone}`}>
      <article aria-labelledby={titleId}>
        <div className="consult-head">
          <h3 id={titleId}>
            {title}
            <VisitCompanions consult={consult} />
          </h3>
          <p className="consult-meta muted">
            <time dateTime={recording.startedAt}>{timeOfDay(recording.startedAt)}</time>
            <span aria-hidden="true"> · </span>
            <span>
              <span className="visually-hidden">Duration </span>
              {formatDuration(recording.durationMs)}
            </span>
            {templateName && (
              <>
                <span aria-hidden="true"> · </span>
                <span>
                  <span className="visually-hidden">Template </span>
                  {templateName}
                </span>
              </>
            )}
            {job && job.documents.length > 0 && (
              <>
                <span aria-hidden="true"> · </span>
                <span>{job.documents.length === 1 ? `1 more document` : `${job.documents.length} more documents`}</span>
              </>
            )}
            {recording.recordedBy && (
              <>
                <span aria-hidden="true"> · </span>
                <span>Recorded by {recording.recordedBy.name || recording.recordedBy.email}</span>
              </>
            )}
            {recording.consentAt && (
              <>
                <span aria-hidden="true"> · </span>
                <span>Pet owner consented to recording at {timeOfDay(recording.consentAt)}</span>
              </>
            )}
            {job?.edited && (
              <>
                <span aria-hidden="true"> · </span>
                <span className="badge">Edited</span>
              </>
            )}
          </p>
        </div>
        <div className="consult-status">
          <StatusBadge status={shown} />
          <span className="consult-status-text">{shown.text}</span>
        </div>
        {status.progress !== undefined && (
          <progress max={1} value={status.progress} aria-label={`Upload of ${title}`}>
            {Math.floor(status.progress * 100)}%
          </progress>
        )}
        {needsName && !confirming && <PatientDetails consult={consult} compact />}
        {confirming ? (
          <ConfirmInline
            message={
              recovered && !job
                ? `Discard "${title}"? Its audio will be deleted from this computer. This cannot be undone.`
                : `Delete "${title}"? Its audio and its note will be deleted from this computer. This cannot be undone.`
            }
            confirmLabel={recovered && !job ? 'Yes, discard' : 'Yes, delete'}
            busy={busy}
            onConfirm={() => void remove()}
            onCancel={() => setConfirming(false)}
          />
        ) : (
          <div className="consult-actions row">
            {claimable && me && (
              <button type="button" className="primary" disabled={busy} onClick={() => void claim()}>
                Send as {me.name || me.email}
              </button>
            )}
            {needsTemplate && !consult.sendRefused && (
              <>
                <div className="consult-template">
                  <TemplatePicker value={templateId} onChange={setTemplateId} disabled={busy} />
                </div>
                <button
                  type="button"
                  className="primary"
                  disabled={busy || templateId === null}
                  onClick={() => {
                    if (templateId !== null) void send(templateId);
                  }}
                >
                  {recovered ? 'Upload' : 'Send'}
                </button>
              </>
            )}
            {!claimable && job?.state === 'completed' && (
              <button type="button" className="primary" onClick={() => go({ name: 'note', id: recording.id })}>
                Open note
              </button>
            )}
            {!claimable &&
              job?.state === 'failed' &&
              !needsName &&
              (consult.retryRefused ? (
                <span className="consult-handover">{consult.retryRefused}</span>
              ) : (
                <button type="button" className="primary" disabled={busy} onClick={() => void retry()}>
                  Retry
                </button>
              ))}
            {!claimable &&
              job?.overdue &&
              job.state === 'scribe_requested' &&
              (consult.askAgainRefused ? (
                <span className="consult-handover">{consult.askAgainRefused}</span>
              ) : (
                <button type="button" className="primary" disabled={busy} onClick={() => void askAgain()}>
                  Ask again
                </button>
              ))}
            {!claimable && job && job.state !== 'failed' && job.waitingFor === 'sign-in' && (
              <button
                type="button"
                className="primary"
                onClick={() => void switchUser({ note: 'Sign in to send the consults waiting on this computer.' })}
              >
                Sign in
              </button>
            )}
            {!claimable &&
              job &&
              job.state !== 'failed' &&
              job.state !== 'completed' &&
              recording.recordedBy &&
              !job.askedBy &&
              recording.recordedBy.userId !== me?.id &&
              background?.some((b) => b.userId === recording.recordedBy?.userId) && (
                // The owner switched user: their own sign-in sends it, not the vet in front.
                <span className="consult-handover" role="status">
                  Being written for {ownerName(recording)}
                </span>
              )}
            {!claimable && job && job.state !== 'failed' && job.waitingFor === 'owner' && (
              // The vet it waits for: the one who asked again when another than its owner did.
              <button type="button" onClick={() => void switchUser(ownerSignIn(recording, job.askedBy))}>
                Sign in as {job.askedBy ? askerName(job.askedBy) : ownerName(recording)}
              </button>
            )}
            {!claimable &&
              job &&
              job.state !== 'failed' &&
              !consult.retryRefused &&
              (job.waitingFor === 'network' || job.waitingFor === 'service') && (
                <button type="button" disabled={busy} onClick={() => void retry()}>
                  Try now
                </button>
              )}
            {live ? (
              <button type="button" onClick={() => go({ name: 'record' })}>
                Show the recorder
              </button>
            ) : claimable ? null : consult.deleteRefused ? (
              // A colleague's consult: said before any click, instead of a Delete that is refused.
              <span className="consult-handover">{consult.deleteRefused}</span>
            ) : job?.state === 'completed' ? null : (
              // A consult with a note is deleted from its note's More menu, where the note is read
              // first: a Delete beside every Open note made the list a column of red buttons. One
              // with no note to open keeps it here, plain, after its own actions.
              <button type="button" disabled={busy} onClick={() => setConfirming(true)}>
                {recovered && !job ? 'Discard' : 'Delete'}
              </button>
            )}
          </div>
        )}
      </article>
    </li>
  );
}

/** The sign-in screen for the vet a consult waits for: their e-mail filled in. */
function ownerSignIn(recording: ConsultInfo['recording'], asker: AskedBy | null) {
  const email = asker ? asker.email : recording.recordedBy?.email;
  const who = asker ? askerName(asker) : ownerName(recording);
  return {
    ...(email ? { email } : {}),
    note: `${consultTitle(recording)} waits for ${who}: it is sent with their account only. They sign in here.`,
  };
}
