// "Today in Provet": the day's appointments from the clinic's practice-management system, so the
// vet picks the patient instead of typing the name. Their own appointments are listed, the
// colleagues' behind one button; each is a button whose words are its time, patients, complaint
// and whether the patient is checked in, pressed while it is the one picked. Shown only when this
// computer has a PIMS: signed out of it, one line points to Settings. The appointment picked is
// shown above the patient's name (PickedAppointment), with Clear before the recording starts.
import { Fragment, useEffect, useId, useState, type ReactNode } from 'react';
import type { PimsAppointmentView } from '../../../../shared/pims.ts';
import { useNav } from '../../stores/nav.ts';
import { isCapturing, useRecorder } from '../../stores/recorder.ts';
import { useSession } from '../../stores/session.ts';
import { usePims } from '../../stores/pims.ts';
import { clearAppointment, followToday, pickAppointment, refreshToday, useToday } from './recorder-controller.ts';
import './today-list.css';

// Local wall-clock time, 24 hours, as a clinic's day sheet shows it.
const TIME = new Intl.DateTimeFormat([], { hour: '2-digit', minute: '2-digit', hourCycle: 'h23' });
const timeOf = (iso: string) => TIME.format(new Date(iso));

/** "Dog (Canine - Domestic)" reads "Dog" in a list: the kind of animal is what the vet looks for. */
const shortSpecies = (species: string) => species.replace(/\s*\(.*\)\s*$/, '').trim() || species;

/**
 * One appointment's button: its time, patients with species, complaint, the colleague booked and
 * whether it is checked in. Its name is its text, so what a screen reader says and what a vet
 * reads (and says to voice control) are the same words; commas only a screen reader hears keep
 * the parts apart.
 */
function AppointmentButton({
  appointment: a,
  picked,
  disabled,
}: {
  appointment: PimsAppointmentView;
  picked: boolean;
  disabled: boolean;
}) {
  const patients =
    a.patients.length === 0
      ? 'No patient named'
      : a.patients.map((p, i) => (
          <Fragment key={p.id}>
            {i > 0 && ', '}
            {p.name}
            {p.species && (
              <>
                {' '}
                <span className="today-species">({shortSpecies(p.species)})</span>
              </>
            )}
          </Fragment>
        ));
  const parts: { className: string; content: ReactNode }[] = [{ className: 'today-patients', content: patients }];
  if (a.complaint.trim()) parts.push({ className: 'today-complaint', content: a.complaint.trim() });
  if (!a.mine && a.vetName) parts.push({ className: 'today-vet', content: a.vetName });
  // Heard, not seen, at the end of each part that another follows. A space between two parts, not
  // inside one: an element's own text is read trimmed.
  const comma = <span className="visually-hidden">,</span>;
  return (
    <button
      type="button"
      className="today-item"
      aria-pressed={picked}
      disabled={disabled}
      onClick={() => void pickAppointment(a)}
    >
      <span className="today-time">
        {timeOf(a.start)}
        {comma}
      </span>{' '}
      <span className="today-what">
        {parts.map((part, i) => (
          <Fragment key={part.className}>
            {i > 0 && ' '}
            <span className={part.className}>
              {part.content}
              {(i < parts.length - 1 || a.checkedIn) && comma}
            </span>
          </Fragment>
        ))}
      </span>
      {a.checkedIn && (
        <>
          {' '}
          <span className="badge today-checked-in">checked in</span>
        </>
      )}
    </button>
  );
}

export function TodayList() {
  const vet = useSession((s) => (s.session.signedIn ? (s.session.user?.id ?? null) : null));
  const today = useToday();
  const status = usePims((s) => s.status);

  useEffect(() => followToday(), []);

  // What is held was read for another vet: nothing of it is shown while it is read again.
  if (today.vet !== vet || !status?.setup || !status.name) return null;
  const name = status.name;
  if (!status.signedIn)
    return (
      <section className="panel today" aria-labelledby="today-title">
        <h2 id="today-title">Today in {name}</h2>
        <p className="today-signed-out">
          {status.signingIn
            ? `Signing in to ${name}: finish in the browser, then today's appointments are listed here.`
            : `Sign in to ${name} in Settings to pick today's appointments here instead of typing the name.`}{' '}
          <button type="button" className="link" onClick={() => useNav.getState().go({ name: 'settings' })}>
            Open Settings
          </button>
        </p>
      </section>
    );
  return <TodayAppointments name={name} />;
}

function TodayAppointments({ name }: { name: string }) {
  const day = useToday((s) => s.day);
  const error = useToday((s) => s.error);
  const picked = useRecorder((s) => s.appointment?.id ?? null);
  const stopping = useRecorder((s) => s.status === 'stopping');
  const [othersOpen, setOthersOpen] = useState(false);
  const othersId = useId();
  const mine = day?.appointments.filter((a) => a.mine) ?? [];
  const others = day?.appointments.filter((a) => !a.mine) ?? [];

  const item = (a: PimsAppointmentView) => (
    <li key={a.id}>
      <AppointmentButton appointment={a} picked={a.id === picked} disabled={stopping} />
    </li>
  );

  return (
    <section className="panel today" aria-labelledby="today-title" aria-busy={day?.refreshing === true}>
      <div className="today-head">
        <h2 id="today-title">Today in {name}</h2>
        <button type="button" onClick={() => void refreshToday()}>
          Refresh
        </button>
      </div>
      {error && (
        <p className="notice notice-warning" role="alert">
          {error}
        </p>
      )}
      {/* Main's sentence says when the copy shown was read ("…: shown as read at 09:12."). */}
      {day?.problem && <p className="notice notice-warning today-problem">{day.problem}</p>}
      <p className="field-hint today-state" aria-live="polite">
        {day === null
          ? "Reading today's appointments…"
          : day.refreshing
            ? `Checking ${name} for changes…`
            : 'Pick one to fill in the patient.'}
      </p>
      {day !== null &&
        (mine.length > 0 ? (
          <ul className="today-items" aria-label="Your appointments today">
            {mine.map(item)}
          </ul>
        ) : (
          <p className="muted">You have no appointments in {name} today.</p>
        ))}
      {others.length > 0 && (
        <>
          <button
            type="button"
            className="link today-others-toggle"
            aria-expanded={othersOpen}
            aria-controls={othersId}
            onClick={() => setOthersOpen((open) => !open)}
          >
            Colleagues&apos; appointments ({others.length})
          </button>
          <ul id={othersId} className="today-items" aria-label="Colleagues' appointments today" hidden={!othersOpen}>
            {othersOpen && others.map(item)}
          </ul>
        </>
      )}
    </section>
  );
}

/** "For the 09:30 appointment: Luna, Max", above the patient's name, while one is picked. */
export function PickedAppointment() {
  const appointment = useRecorder((s) => s.appointment);
  const capturing = useRecorder((s) => isCapturing(s.status));
  // Always there, so that a screen reader hears the appointment as it is picked.
  return (
    <div className="today-picked" aria-live="polite" hidden={!appointment}>
      {appointment && (
        <>
          <p>
            For the {timeOf(appointment.start)} appointment: {appointment.patients.join(', ')}
          </p>
          {capturing ? (
            <p className="field-hint">Pick another appointment to change it.</p>
          ) : (
            <button type="button" className="link" onClick={clearAppointment} aria-label="Clear the appointment">
              Clear
            </button>
          )}
        </>
      )}
    </div>
  );
}
