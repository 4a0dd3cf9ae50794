// The reading half of the Provet adapter: a day's appointments with their pets named, a patient,
// and the consultation an appointment was opened as. Every request carries the vet's own token
// (PimsTokens: refreshed once on a 401), so Provet answers with that vet's own permissions.
// Provet may ignore a filter it does not know, so what comes back is checked against what was
// asked: an appointment outside the day, or cancelled, is left out here.
import type { PimsHttpOptions } from '../http.ts';
import { PimsError, type PimsAppointment, type PimsConsultation, type PimsPatient } from '../port.ts';
import type { PimsTokens } from '../tokens.ts';
import type { ProvetInstance } from './instance.ts';
import { listUrl, localDay, readAllPages, type PageBounds } from './lists.ts';
import { provetGet } from './requests.ts';
import { provetAppointment, provetConsultation, provetPatient, readProvet, toPimsAppointment } from './schemas.ts';

export interface ProvetReaderOptions {
  instance: ProvetInstance;
  tokens: PimsTokens;
  http?: PimsHttpOptions;
  bounds?: PageBounds;
}

// Pets named at once while a day is read: Provet limits each endpoint per minute, and a day's
// pets are a few dozen at most.
const PATIENT_REQUESTS_AT_ONCE = 4;

export class ProvetReader {
  private readonly options: ProvetReaderOptions;
  constructor(options: ProvetReaderOptions) {
    this.options = options;
  }

  private get(url: string): Promise<unknown> {
    return this.options.tokens.withToken((token) => provetGet(url, token, this.options.http));
  }

  /**
   * The day's active appointments (`day` as YYYY-MM-DD on this computer's calendar), every page
   * read, each pet named; the vet's own first, then the others, each group by start.
   */
  async todaysAppointments(vet: { id: string } | null, day: string): Promise<PimsAppointment[]> {
    const { from, to, start, end } = localDay(day);
    const first = listUrl(this.options.instance.api, 'appointment', {
      filters: [
        { field: 'start', op: 'gte', value: from },
        { field: 'start', op: 'lt', value: to },
      ],
      // Pets inlined when Provet offers it for appointments; named one by one when it does not.
      expose: ['patients'],
      // Provet counts a page larger than its default as proportionally more requests against the
      // appointment list's limit per minute: 100 holds a clinic's day in one page at a tenth of
      // what 1,000 would cost, and a larger day is read page by page.
      pageSize: 100,
    });
    const { items } = await readAllPages(
      first,
      (url) => this.get(url),
      (raw) => readProvet(provetAppointment, 'an appointment', raw),
      this.options.bounds,
    );
    const day0 = start.getTime();
    const day1 = end.getTime();
    const kept = items.filter((a) => {
      const at = Date.parse(a.start);
      return a.active && at >= day0 && at < day1;
    });
    const missing = [...new Set(kept.flatMap((a) => a.patientIds.filter((id) => !a.inlinedPatients.has(id))))];
    const named = new Map<string, PimsPatient>();
    for (let i = 0; i < missing.length; i += PATIENT_REQUESTS_AT_ONCE) {
      const batch = missing.slice(i, i + PATIENT_REQUESTS_AT_ONCE);
      const read = await Promise.all(batch.map((id) => this.patientOrNull(id)));
      for (const p of read) if (p) named.set(p.id, p);
    }
    const own = (a: PimsAppointment) => (vet !== null && a.vet?.id === vet.id ? 0 : 1);
    return kept
      .map((a) => toPimsAppointment(a, named))
      .sort((a, b) => own(a) - own(b) || Date.parse(a.start) - Date.parse(b.start));
  }

  /** A pet removed from Provet since it was booked is shown without a name, not as a failure of the day. */
  private async patientOrNull(id: string): Promise<PimsPatient | null> {
    try {
      return await this.patient(id);
    } catch (e) {
      if (e instanceof PimsError && e.code === 'not_found') return null;
      throw e;
    }
  }

  async patient(id: string): Promise<PimsPatient> {
    const patient = readProvet(provetPatient, 'a patient', await this.get(this.objectUrl('patient', id)));
    if (patient.id !== id)
      throw new PimsError('invalid_answer', 'Provet answered with another patient than the one asked for.');
    return patient;
  }

  /**
   * The consultation an appointment was opened as; null while the pet is not checked in. It is
   * asked inlined (`expose_consultation`), so a send costs one request here; when Provet does
   * not inline it, it is read on its own. An appointment cancelled before check-in is
   * `not_found`.
   */
  async findConsultation(appointmentId: string): Promise<PimsConsultation | null> {
    const raw = await this.get(`${this.objectUrl('appointment', appointmentId)}?expose_consultation`);
    const appointment = readProvet(provetAppointment, 'an appointment', raw);
    if (appointment.consultationId === null) {
      // Cancelled before check-in: no consultation will come, so the note must not wait for one.
      if (!appointment.active)
        throw new PimsError(
          'not_found',
          'The appointment was cancelled in Provet: the note is not sent; link the consult to the visit the pet came to.',
        );
      return null;
    }
    const inlined = typeof raw === 'object' && raw !== null ? (raw as Record<string, unknown>)['consultation'] : null;
    const read = typeof inlined === 'object' ? provetConsultation.safeParse(inlined) : null;
    if (read?.success && read.data.id === appointment.consultationId) return read.data;
    return readProvet(
      provetConsultation,
      'a consultation',
      await this.get(this.objectUrl('consultation', appointment.consultationId)),
    );
  }

  private objectUrl(resource: 'patient' | 'appointment' | 'consultation', id: string): string {
    if (!/^\d{1,20}$/.test(id)) throw new PimsError('bad_input', `"${id.slice(0, 40)}" is not a Provet id.`);
    return `${this.options.instance.api}${resource}/${id}/`;
  }
}
