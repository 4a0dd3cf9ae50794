// The agents' answers kept with a consult, listed on its note: "Differentials — asked 10:42 —
// Open". Open shows the kept answer in the differentials panel, which links back here. Read
// again each time the note is shown, so an answer asked from it meanwhile is listed.
import { useEffect, useState } from 'react';
import type { KeptAnswer } from '../../../../shared/ipc.ts';
import { api } from '../../api.ts';
import { useNav } from '../../stores/nav.ts';
import './consult-answers.css';

const TIME = new Intl.DateTimeFormat(undefined, { hour: '2-digit', minute: '2-digit' });
const DAY = new Intl.DateTimeFormat(undefined, { day: 'numeric', month: 'short' });

/** "10:42" today, "3 Nov 10:42" another day. */
function when(iso: string): string {
  const at = new Date(iso);
  const today = new Date().toDateString() === at.toDateString();
  return today ? TIME.format(at) : `${DAY.format(at)} ${TIME.format(at)}`;
}

export function ConsultAnswers({ id, patient }: { id: string; patient: string }) {
  const go = useNav((s) => s.go);
  const [answers, setAnswers] = useState<KeptAnswer[]>([]);

  useEffect(() => {
    let current = true;
    api.consults
      .answers({ id })
      .then((list) => current && setAnswers(list))
      // The note is what matters here: without its kept answers it is still shown.
      .catch(() => undefined);
    return () => {
      current = false;
    };
  }, [id]);

  if (answers.length === 0) return null;
  return (
    <ul className="consult-answers" aria-label="Answers kept with this consult">
      {[...answers].reverse().map((a) => (
        <li key={a.answerId} className="row">
          <span>
            Differentials — asked {when(a.askedAt)} —{' '}
            <button
              type="button"
              className="link"
              onClick={() => go({ name: 'ddx', consult: { id, patient, answerId: a.answerId } })}
            >
              Open
            </button>
          </span>
        </li>
      ))}
    </ul>
  );
}
