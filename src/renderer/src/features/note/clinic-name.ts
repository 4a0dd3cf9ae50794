// The clinic's name for the printed note's header, as the service has the organization
// (GET /organizations/get), read once per signed-in vet. A clinic whose name cannot be read
// prints without it: the page is still the vet's note.
import { useEffect, useState } from 'react';
import { api } from '../../api.ts';
import { useSession } from '../../stores/session.ts';

const known = new Map<string, Promise<string | null>>();

export function useClinicName(): string | null {
  const userId = useSession((s) => s.session.user?.id ?? null);
  const [name, setName] = useState<{ userId: string; name: string | null } | null>(null);
  useEffect(() => {
    if (userId === null) return;
    let current = true;
    let asked = known.get(userId);
    if (!asked) {
      asked = api.org.get().then(
        (o) => o.name.trim() || null,
        () => null,
      );
      known.set(userId, asked);
    }
    void asked.then((n) => current && setName({ userId, name: n }));
    return () => {
      current = false;
    };
  }, [userId]);
  return name !== null && name.userId === userId ? name.name : null;
}
