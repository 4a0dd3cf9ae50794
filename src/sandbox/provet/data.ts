// The Provet instance's records, as a clinic would have them this morning: its vets, clients,
// patients, today's appointments (in the sandbox computer's local day, from the clock at start)
// and their consultations, with the clinical notes written since. Kept in memory: a restart
// seeds a fresh day, which is what a demo of "today's appointments" wants.

/** The consultation statuses Provet publishes, by value. */
export const CONSULTATION_STATUS = {
  admitted: 0,
  readyForDischarge: 5,
  discharged: 6,
  invoicing: 7,
  inProgress: 8,
  invoicePaid: 9,
  finalized: 10,
  draft: 11,
} as const;
export const CONSULTATION_STATUSES: readonly number[] = Object.values(CONSULTATION_STATUS);

export interface ProvetUser {
  id: number;
  username: string;
  password: string;
  first_name: string;
  last_name: string;
  title: string;
  email: string;
  /** "Edit clinical notes on finalized consultations": neither seeded vet has it. */
  canEditFinalizedNotes: boolean;
}

export interface ProvetClient {
  id: number;
  title: string;
  firstname: string;
  lastname: string;
  email: string;
}

export interface ProvetPatient {
  id: number;
  client: number;
  name: string;
  species: string;
  breed: string;
  gender: string;
  date_of_birth: string | null;
}

export interface ProvetAppointment {
  id: number;
  start: number;
  end: number;
  title: string;
  complaint: string;
  user: number;
  additional_users: number[];
  client: number;
  patients: number[];
  consultation: number | null;
  department: number;
  /** Provet's appointment types: 1 is a consultation. */
  type: number;
  active: boolean;
}

export interface ProvetConsultation {
  id: number;
  client: number;
  patients: number[];
  complaint: string;
  admitted_time: number;
  started: number | null;
  finished: number | null;
  status: number;
  /** Provet's consultation types: 1 is an outpatient visit. */
  type: number;
  supervising_veterinarian: number;
  department: number;
}

export interface ProvetNote {
  id: number;
  consultation: number;
  patient: number;
  text: string;
  created: number;
  modified: number;
  created_user: number;
  modified_user: number | null;
}

export const DEPARTMENT = { id: 1, name: 'Sandbox Veterinary Clinic' } as const;

export interface DaySnapshot {
  day: string;
  appointments: ProvetAppointment[];
  consultations: ProvetConsultation[];
  notes: ProvetNote[];
  nextId: { consultation: number; note: number };
}

export function localDay(ms: number): string {
  const d = new Date(ms);
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
}

/** The seeded vets who can sign in on the double's sign-in page. */
export const PROVET_USERS = {
  demo: { username: 'hale', password: 'provet-demo' },
  colleague: { username: 'moreno', password: 'provet-colleague' },
} as const;

export class ProvetData {
  readonly users: ProvetUser[];
  readonly clients: ProvetClient[];
  readonly patients: ProvetPatient[];
  readonly appointments: ProvetAppointment[];
  readonly consultations: ProvetConsultation[];
  readonly notes: ProvetNote[] = [];
  /** The local day the appointments were seeded for, `YYYY-MM-DD`. */
  readonly day: string;
  private nextId = { consultation: 500, note: 900 };

  constructor(now: number) {
    this.day = localDay(now);
    this.users = [
      {
        id: 11,
        ...PROVET_USERS.demo,
        first_name: 'Alex',
        last_name: 'Hale',
        title: 'Dr',
        email: 'alex.hale@sandbox-clinic.test',
        canEditFinalizedNotes: false,
      },
      {
        id: 12,
        ...PROVET_USERS.colleague,
        first_name: 'Sam',
        last_name: 'Moreno',
        title: 'Dr',
        email: 'sam.moreno@sandbox-clinic.test',
        canEditFinalizedNotes: false,
      },
    ];
    const client = (id: number, title: string, firstname: string, lastname: string): ProvetClient => ({
      id,
      title,
      firstname,
      lastname,
      email: `${firstname}.${lastname}@example.test`.toLowerCase(),
    });
    this.clients = [
      client(101, 'Ms.', 'Emma', 'Virtanen'),
      client(102, 'Mr.', 'James', 'Okafor'),
      client(103, 'Ms.', 'Priya', 'Shah'),
      client(104, 'Mr.', 'Lars', 'Nieminen'),
      client(105, 'Ms.', 'Aino', 'Korhonen'),
      client(106, 'Mr.', 'Tom', 'Becker'),
    ];
    const dog = 'Dog (Canine - Domestic)';
    const cat = 'Cat (Feline - Domestic)';
    const patient = (id: number, client: number, name: string, species: string, breed: string, gender: string) => ({
      id,
      client,
      name,
      species,
      breed,
      gender,
      date_of_birth: null,
    });
    this.patients = [
      patient(201, 101, 'Bella', dog, 'Labrador Retriever', 'Female'),
      patient(202, 102, 'Luna', cat, 'Domestic Shorthair', 'Female'),
      patient(203, 103, 'Max', dog, 'Border Collie', 'Male'),
      patient(204, 103, 'Milo', cat, 'Maine Coon', 'Male'),
      patient(205, 104, 'Rocky', dog, 'German Shepherd', 'Male'),
      patient(206, 105, 'Nala', cat, 'Siamese', 'Female'),
      patient(207, 106, 'Oscar', dog, 'Beagle', 'Male'),
    ];

    // Today in the computer's local day: the vet's "today" is the clinic's wall clock.
    const day = new Date(now);
    const at = (hour: number, minute = 0, dayOffset = 0) =>
      new Date(day.getFullYear(), day.getMonth(), day.getDate() + dayOffset, hour, minute).getTime();
    const HALE = 11;
    const MORENO = 12;
    const consultation = (
      id: number,
      client: number,
      patients: number[],
      complaint: string,
      admitted: number,
      status: number,
      vet: number,
    ): ProvetConsultation => ({
      id,
      client,
      patients,
      complaint,
      admitted_time: admitted,
      started: status === CONSULTATION_STATUS.admitted ? null : admitted,
      finished: status === CONSULTATION_STATUS.finalized ? admitted + 30 * 60_000 : null,
      status,
      type: 1,
      supervising_veterinarian: vet,
      department: DEPARTMENT.id,
    });
    this.consultations = [
      consultation(401, 101, [201], 'Limping, left hind', at(9), CONSULTATION_STATUS.admitted, HALE),
      consultation(403, 103, [203, 204], 'Annual vaccinations', at(10), CONSULTATION_STATUS.inProgress, HALE),
      consultation(404, 104, [205], 'Ear scratching', at(8), CONSULTATION_STATUS.finalized, HALE),
      consultation(405, 105, [206], 'Weight loss', at(10), CONSULTATION_STATUS.admitted, MORENO),
      consultation(408, 101, [201], 'Lameness recheck', at(9, 0, -1), CONSULTATION_STATUS.finalized, HALE),
    ];
    const appointment = (
      id: number,
      [startH, startM]: [number, number],
      minutes: number,
      vet: number,
      client: number,
      patients: number[],
      complaint: string,
      consultationId: number | null,
      { active = true, dayOffset = 0, additional = [] as number[] } = {},
    ): ProvetAppointment => {
      const start = at(startH, startM, dayOffset);
      const owner = this.clients.find((c) => c.id === client);
      return {
        id,
        start,
        end: start + minutes * 60_000,
        title: `${owner?.firstname ?? ''} ${owner?.lastname ?? ''}`.trim(),
        complaint,
        user: vet,
        additional_users: additional,
        client,
        patients,
        consultation: consultationId,
        department: DEPARTMENT.id,
        type: 1,
        active,
      };
    };
    this.appointments = [
      appointment(304, [8, 0], 30, HALE, 104, [205], 'Ear scratching', 404),
      appointment(301, [9, 0], 30, HALE, 101, [201], 'Limping, left hind', 401),
      appointment(302, [9, 30], 30, HALE, 102, [202], 'Vomiting since yesterday', null),
      appointment(303, [10, 0], 45, HALE, 103, [203, 204], 'Annual vaccinations', 403),
      // The demo vet assists on one of the colleague's: listed under additional_users, not user.
      appointment(305, [10, 0], 30, MORENO, 105, [206], 'Weight loss', 405, { additional: [HALE] }),
      appointment(306, [11, 30], 30, MORENO, 106, [207], 'Itchy skin on the back', null),
      appointment(307, [14, 0], 30, HALE, 104, [205], 'Cancelled: ear recheck', null, { active: false }),
      appointment(308, [9, 0], 30, HALE, 101, [201], 'Lameness recheck', 408, { dayOffset: -1 }),
      appointment(309, [9, 0], 30, HALE, 102, [202], 'Follow-up', null, { dayOffset: 1 }),
    ];
  }

  user(id: number): ProvetUser | undefined {
    return this.users.find((u) => u.id === id);
  }

  /**
   * Checks the appointment's patients in: the consultation Provet opens at admission (status 0),
   * linked to the appointment. An appointment already checked in keeps its consultation.
   */
  checkIn(appointmentId: number, now: number): ProvetConsultation | null {
    const appointment = this.appointments.find((a) => a.id === appointmentId);
    if (!appointment) return null;
    const existing = this.consultations.find((c) => c.id === appointment.consultation);
    if (existing) return existing;
    this.nextId.consultation += 1;
    const made: ProvetConsultation = {
      id: this.nextId.consultation,
      client: appointment.client,
      patients: [...appointment.patients],
      complaint: appointment.complaint,
      admitted_time: now,
      started: null,
      finished: null,
      status: CONSULTATION_STATUS.admitted,
      type: 1,
      supervising_veterinarian: appointment.user,
      department: appointment.department,
    };
    this.consultations.push(made);
    appointment.consultation = made.id;
    return made;
  }

  /**
   * The front desk moves an appointment: to another time (another day, too), keeping its length,
   * or onto other pets (the owner of the first becomes the appointment's client). A consultation
   * already opened keeps the pets it was opened for. Null for no such appointment or pet.
   */
  moveAppointment(appointmentId: number, change: { start?: number; patients?: number[] }): ProvetAppointment | null {
    const appointment = this.appointments.find((a) => a.id === appointmentId);
    const pets = change.patients?.map((id) => this.patients.find((p) => p.id === id));
    if (!appointment || pets?.some((p) => p === undefined) || pets?.length === 0) return null;
    if (change.start !== undefined) {
      appointment.end = change.start + (appointment.end - appointment.start);
      appointment.start = change.start;
    }
    if (pets) {
      appointment.patients = pets.map((p) => p!.id);
      appointment.client = pets[0]!.client;
    }
    return appointment;
  }

  /** What changes during a day, as the double saves it. */
  snapshot(): DaySnapshot {
    return {
      day: this.day,
      appointments: this.appointments,
      consultations: this.consultations,
      notes: this.notes,
      nextId: this.nextId,
    };
  }

  /** Takes back a saved day: only the same local day, since the seed is today's. */
  restore(saved: DaySnapshot): boolean {
    if (saved.day !== this.day) return false;
    this.appointments.splice(0, this.appointments.length, ...saved.appointments);
    this.consultations.splice(0, this.consultations.length, ...saved.consultations);
    this.notes.splice(0, this.notes.length, ...saved.notes);
    this.nextId = { ...saved.nextId };
    return true;
  }

  addNote(note: Omit<ProvetNote, 'id'>): ProvetNote {
    this.nextId.note += 1;
    const made = { ...note, id: this.nextId.note };
    this.notes.push(made);
    return made;
  }
}
