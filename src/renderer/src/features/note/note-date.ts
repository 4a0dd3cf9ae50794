// The day of a note in one set of words wherever the note comes from: "Saturday, 28 November
// 2026" for a consult of this computer (a moment, from its start) and for a note from another
// exam room (the service gives only the day, as YYYY-MM-DD, which is read as that day here, not
// as midnight UTC, so a clinic west of Greenwich does not see the day before).
import { dayRange } from '../../lib/days.ts';

const LONG_DAY = new Intl.DateTimeFormat([], { weekday: 'long', day: 'numeric', month: 'long', year: 'numeric' });

/** A moment (an ISO time) or a day (YYYY-MM-DD) in words; what is neither is shown as given. */
export function noteDate(value: string): string {
  const day = dayRange(value);
  const when = day ? new Date(day.start) : new Date(value);
  return Number.isNaN(when.getTime()) ? value : LONG_DAY.format(when);
}
