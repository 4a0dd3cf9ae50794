// The store names every scribe the clinic was sent and when: readable by its owner only, like
// any record of the clinic's patients.
import { chmodSync, closeSync, existsSync, mkdirSync, openSync } from 'node:fs';

/** Creates the folder (and any missing parents) as 0700; a folder that exists is left as it is. */
export function makePrivateFolder(dir: string): void {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
}

/**
 * Makes the file 0600 before SQLite opens it, creating it empty if need be: SQLite gives its
 * -wal and -shm files the database file's mode, and would create a missing file 0644. Files
 * an older receiver left readable are narrowed too.
 */
export function makePrivateFile(file: string, ...companions: string[]): void {
  closeSync(openSync(file, 'a', 0o600));
  chmodSync(file, 0o600);
  for (const other of companions) if (existsSync(other)) chmodSync(other, 0o600);
}
