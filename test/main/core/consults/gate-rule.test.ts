// The access rule itself, as a table: who may see, act on or claim a consult, from the owner
// written on disk and the account signed in.
import { describe, expect, it } from 'vitest';
import { accessTo } from '../../../../src/main/core/consults/gate.ts';
import type { ConsultOwner } from '../../../../src/shared/ipc.ts';
import type { User } from '../../../../src/shared/service/index.ts';

const here = 'https://scribe.example';
const vet = (id: string, org: string, email = `${id}@clinic.test`): User => ({
  id,
  organizationId: org,
  name: `Dr ${id}`,
  email,
});
const owner = (u: User, service = here): ConsultOwner => ({
  userId: u.id,
  organizationId: u.organizationId,
  name: u.name,
  email: u.email,
  service,
});
const unsent = { sent: false, legacySender: null };

describe('accessTo', () => {
  const a = vet('a', 'org-1');
  const colleague = vet('c', 'org-1');
  const other = vet('o', 'org-2');

  it('gives a consult to its own clinic, on its own service, and to no one else', () => {
    expect(accessTo(owner(a), a, here, unsent)).toBe('full');
    expect(accessTo(owner(a), colleague, here, unsent)).toBe('full');
    expect(accessTo(owner(a), other, here, unsent)).toBe('none');
    expect(accessTo(owner(a), null, here, unsent)).toBe('none');
  });

  it('offers a consult recorded under another service only to the same vet, by e-mail, case aside', () => {
    expect(accessTo(owner(a, 'sandbox'), vet('a2', 'org-9', 'A@Clinic.test'), here, unsent)).toBe('claim');
    expect(accessTo(owner(a, 'sandbox'), other, here, unsent)).toBe('none');
    expect(accessTo(owner(a, 'sandbox'), null, here, unsent)).toBe('none');
    expect(accessTo({ ...owner(a, 'sandbox'), email: '' }, vet('x', 'org-1', ''), here, unsent)).toBe('none');
  });

  it('a consult no one owns: the person at the computer signed out keeps it while unsent; a vet signed in may only claim it', () => {
    expect(accessTo(null, null, here, unsent)).toBe('full');
    expect(accessTo(null, null, here, { sent: true, legacySender: null })).toBe('none');
    expect(accessTo(null, other, here, unsent)).toBe('claim');
    // An older version's job names its sender: only that vet may take it.
    expect(accessTo(null, a, here, { sent: true, legacySender: 'a' })).toBe('claim');
    expect(accessTo(null, other, here, { sent: true, legacySender: 'a' })).toBe('none');
    expect(accessTo(null, null, here, { sent: false, legacySender: 'a' })).toBe('none');
  });
});
