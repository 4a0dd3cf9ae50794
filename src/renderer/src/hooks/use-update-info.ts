// Where the app is with its updates, kept current by main's events: the update banner and
// Settings' Updates section both show it.
import { useEffect, useState } from 'react';
import type { UpdateInfo } from '../../../shared/updates.ts';
import { api } from '../api.ts';

/** Where the app is with its updates, kept current by main's events. */
export function useUpdateInfo(): UpdateInfo | null {
  const [info, setInfo] = useState<UpdateInfo | null>(null);
  useEffect(() => {
    let live = true;
    api.update
      .get()
      .then((i) => live && setInfo(i))
      .catch(() => undefined);
    const off = api.on('update:changed', (i) => setInfo(i));
    return () => {
      live = false;
      off();
    };
  }, []);
  return info;
}
