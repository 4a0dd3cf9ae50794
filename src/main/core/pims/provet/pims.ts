// Provet Cloud behind the port: the reading half (ProvetReader) and the note (ProvetNotes),
// each with the same instance, the vet's own tokens and the same route to Provet.
import type { PimsHttpOptions } from '../http.ts';
import type { Pims, PimsAppointment, PimsConsultation, PimsNote, PimsPatient, WriteNote } from '../port.ts';
import type { PimsTokens } from '../tokens.ts';
import type { ProvetInstance } from './instance.ts';
import type { PageBounds } from './lists.ts';
import { ProvetNotes } from './notes.ts';
import { ProvetReader } from './reader.ts';

export interface ProvetPimsOptions {
  instance: ProvetInstance;
  tokens: PimsTokens;
  http?: PimsHttpOptions;
  bounds?: PageBounds;
}

export class ProvetPims implements Pims {
  private readonly reader: ProvetReader;
  private readonly notes: ProvetNotes;

  constructor(options: ProvetPimsOptions) {
    this.reader = new ProvetReader(options);
    this.notes = new ProvetNotes(options);
  }

  todaysAppointments(vet: { id: string } | null, day: string): Promise<PimsAppointment[]> {
    return this.reader.todaysAppointments(vet, day);
  }

  patient(id: string): Promise<PimsPatient> {
    return this.reader.patient(id);
  }

  findConsultation(appointmentId: string): Promise<PimsConsultation | null> {
    return this.reader.findConsultation(appointmentId);
  }

  writeNote(note: WriteNote): Promise<PimsNote> {
    return this.notes.writeNote(note);
  }

  readNotes(consultationId: string): Promise<PimsNote[]> {
    return this.notes.readNotes(consultationId);
  }

  readNote(consultationId: string, noteId: string): Promise<PimsNote | null> {
    return this.notes.readNote(consultationId, noteId);
  }

  updateNote(note: WriteNote & { noteId: string }): Promise<PimsNote> {
    return this.notes.updateNote(note);
  }
}
