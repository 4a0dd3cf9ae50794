// The REST resources the double serves, as Provet writes them: each record with its `id` and
// `url`, relations as full URLs (an `expose_<field>` parameter inlines one), times in ISO 8601
// with the instance's offset, and the fields a list may be filtered on.
import type {
  ProvetAppointment,
  ProvetClient,
  ProvetConsultation,
  ProvetData,
  ProvetNote,
  ProvetPatient,
  ProvetUser,
} from './data.ts';
import { DEPARTMENT } from './data.ts';
import type { Filterable } from './filters.ts';

/** What a serializer needs: where the instance's API is, and the records to inline from. */
export interface Context {
  /** `<origin>/provet/<provet_id>/api/0.1/` */
  api: string;
  data: ProvetData;
  /** The relations the request asked to inline (`expose_<field>`). */
  expose: Set<string>;
}

export type Json = Record<string, unknown>;

export interface Resource<T extends { id: number }> {
  records: (data: ProvetData) => readonly T[];
  serialize: (record: T, ctx: Context) => Json;
  filters: Filterable<T>;
}

/** A time as Provet writes it: local wall-clock time with its offset, to the second. */
export function isoTime(ms: number | null): string | null {
  if (ms === null) return null;
  const d = new Date(ms);
  const pad = (n: number) => String(Math.abs(n)).padStart(2, '0');
  const offset = -d.getTimezoneOffset();
  const sign = offset >= 0 ? '+' : '-';
  return (
    `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}:` +
    `${pad(d.getSeconds())}${sign}${pad(Math.trunc(offset / 60))}:${pad(offset % 60)}`
  );
}

export const link = (ctx: Context, resource: string, id: number | null) =>
  id === null ? null : `${ctx.api}${resource}/${id}/`;

/** A relation: its URL, or with `expose_<field>` the related record itself. */
function relation<R extends { id: number }>(
  ctx: Context,
  field: string,
  resource: string,
  id: number | null,
  find: (id: number) => R | undefined,
  serialize: (record: R, ctx: Context) => Json,
): unknown {
  if (id === null) return null;
  if (!ctx.expose.has(field)) return link(ctx, resource, id);
  const record = find(id);
  // Inlined records do not inline further.
  return record ? serialize(record, { ...ctx, expose: new Set() }) : link(ctx, resource, id);
}

const userJson = (u: ProvetUser, ctx: Context): Json => ({
  id: u.id,
  url: link(ctx, 'user', u.id),
  username: u.username,
  title: u.title,
  first_name: u.first_name,
  last_name: u.last_name,
  email: u.email,
});

const clientJson = (c: ProvetClient, ctx: Context): Json => ({
  id: c.id,
  url: link(ctx, 'client', c.id),
  title: c.title,
  firstname: c.firstname,
  lastname: c.lastname,
  email: c.email,
});

const patientJson = (p: ProvetPatient, ctx: Context): Json => ({
  id: p.id,
  url: link(ctx, 'patient', p.id),
  client: relation(ctx, 'client', 'client', p.client, (id) => ctx.data.clients.find((c) => c.id === id), clientJson),
  name: p.name,
  species: p.species,
  breed: p.breed,
  gender: p.gender,
  date_of_birth: p.date_of_birth,
});

const consultationJson = (c: ProvetConsultation, ctx: Context): Json => ({
  id: c.id,
  url: link(ctx, 'consultation', c.id),
  client: relation(ctx, 'client', 'client', c.client, (id) => ctx.data.clients.find((x) => x.id === id), clientJson),
  patients: c.patients.map((id) =>
    relation(ctx, 'patients', 'patient', id, (pid) => ctx.data.patients.find((p) => p.id === pid), patientJson),
  ),
  complaint: c.complaint,
  admitted_time: isoTime(c.admitted_time),
  started: isoTime(c.started),
  finished: isoTime(c.finished),
  status: c.status,
  type: c.type,
  supervising_veterinarian: relation(
    ctx,
    'supervising_veterinarian',
    'user',
    c.supervising_veterinarian,
    (id) => ctx.data.user(id),
    userJson,
  ),
  department: link(ctx, 'department', c.department),
});

const appointmentJson = (a: ProvetAppointment, ctx: Context): Json => ({
  id: a.id,
  url: link(ctx, 'appointment', a.id),
  start: isoTime(a.start),
  end: isoTime(a.end),
  title: a.title,
  complaint: a.complaint,
  reason: null,
  type: a.type,
  active: a.active,
  user: relation(ctx, 'user', 'user', a.user, (id) => ctx.data.user(id), userJson),
  additional_users: a.additional_users.map((id) =>
    relation(ctx, 'additional_users', 'user', id, (uid) => ctx.data.user(uid), userJson),
  ),
  client: relation(ctx, 'client', 'client', a.client, (id) => ctx.data.clients.find((c) => c.id === id), clientJson),
  patients: a.patients.map((id) =>
    relation(ctx, 'patients', 'patient', id, (pid) => ctx.data.patients.find((p) => p.id === pid), patientJson),
  ),
  consultation: relation(
    ctx,
    'consultation',
    'consultation',
    a.consultation,
    (id) => ctx.data.consultations.find((c) => c.id === id),
    consultationJson,
  ),
  department: link(ctx, 'department', a.department),
});

export const noteJson = (n: ProvetNote, ctx: Context): Json => ({
  id: n.id,
  url: `${ctx.api}consultation/${n.consultation}/consultationnote/${n.id}/`,
  consultation: link(ctx, 'consultation', n.consultation),
  patient: relation(
    ctx,
    'patient',
    'patient',
    n.patient,
    (id) => ctx.data.patients.find((p) => p.id === id),
    patientJson,
  ),
  text: n.text,
  created: isoTime(n.created),
  modified: isoTime(n.modified),
  created_user: link(ctx, 'user', n.created_user),
  modified_user: link(ctx, 'user', n.modified_user),
});

const id = { kind: 'int', get: (r: { id: number }) => r.id } as const;

export const RESOURCES = {
  appointment: {
    records: (d) => d.appointments,
    serialize: appointmentJson,
    filters: {
      id,
      start: { kind: 'datetime', get: (a) => a.start },
      end: { kind: 'datetime', get: (a) => a.end },
      user: { kind: 'relation', get: (a) => a.user },
      additional_users: { kind: 'relations', get: (a) => a.additional_users },
      client: { kind: 'relation', get: (a) => a.client },
      patients: { kind: 'relations', get: (a) => a.patients },
      consultation: { kind: 'relation', get: (a) => a.consultation },
      department: { kind: 'relation', get: (a) => a.department },
      type: { kind: 'int', get: (a) => a.type },
      active: { kind: 'bool', get: (a) => a.active },
      title: { kind: 'text', get: (a) => a.title },
      complaint: { kind: 'text', get: (a) => a.complaint },
    },
  } satisfies Resource<ProvetAppointment>,
  patient: {
    records: (d) => d.patients,
    serialize: patientJson,
    filters: {
      id,
      client: { kind: 'relation', get: (p) => p.client },
      name: { kind: 'text', get: (p) => p.name },
    },
  } satisfies Resource<ProvetPatient>,
  client: {
    records: (d) => d.clients,
    serialize: clientJson,
    filters: {
      id,
      firstname: { kind: 'text', get: (c) => c.firstname },
      lastname: { kind: 'text', get: (c) => c.lastname },
    },
  } satisfies Resource<ProvetClient>,
  user: {
    records: (d) => d.users,
    serialize: userJson,
    filters: { id, username: { kind: 'text', get: (u) => u.username } },
  } satisfies Resource<ProvetUser>,
  consultation: {
    records: (d) => d.consultations,
    serialize: consultationJson,
    filters: {
      id,
      client: { kind: 'relation', get: (c) => c.client },
      patients: { kind: 'relations', get: (c) => c.patients },
      status: { kind: 'int', get: (c) => c.status },
      supervising_veterinarian: { kind: 'relation', get: (c) => c.supervising_veterinarian },
      admitted_time: { kind: 'datetime', get: (c) => c.admitted_time },
      complaint: { kind: 'text', get: (c) => c.complaint },
    },
  } satisfies Resource<ProvetConsultation>,
  department: {
    records: () => [DEPARTMENT],
    serialize: (d, ctx) => ({ id: d.id, url: link(ctx, 'department', d.id), name: d.name }),
    filters: { id },
  } satisfies Resource<{ id: number; name: string }>,
} as const;

export type ResourceName = keyof typeof RESOURCES;

export const NOTE_FILTERS: Filterable<ProvetNote> = {
  id,
  patient: { kind: 'relation', get: (n) => n.patient },
};
