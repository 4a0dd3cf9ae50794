// What a failing disk means to the vet. File-system errors carry errno codes and paths; the
// window gets one plain sentence and a code of its own instead, and nothing of the path.

export type DiskErrorCode = 'disk_full' | 'read_only' | 'io';

const FULL = new Set(['ENOSPC', 'EDQUOT', 'EFBIG']);
const READ_ONLY = new Set(['EROFS', 'EACCES', 'EPERM']);
const IO = new Set(['EIO', 'ENXIO', 'EBUSY', 'EMFILE', 'ENFILE', 'ENOTDIR', 'EISDIR', 'ENOENT']);

/** The kind of a file-system error, found anywhere in its causes; null for anything else. */
export function diskErrorCode(e: unknown): DiskErrorCode | null {
  let current: unknown = e;
  for (let depth = 0; current instanceof Error && depth < 8; depth++) {
    const code = (current as NodeJS.ErrnoException).code ?? '';
    if (FULL.has(code)) return 'disk_full';
    if (READ_ONLY.has(code)) return 'read_only';
    if (IO.has(code) && typeof (current as NodeJS.ErrnoException).syscall === 'string') return 'io';
    current = (current as { cause?: unknown }).cause;
  }
  return null;
}

/** The sentence for the vet; `kept` says what is safe (the recording so far, the settings...). */
export function diskErrorMessage(code: DiskErrorCode, kept = 'What was saved before is kept.'): string {
  if (code === 'disk_full') return `The disk is full: free some space on this computer. ${kept}`;
  if (code === 'read_only')
    return `The app's data folder cannot be written (the disk is read-only, or its permissions changed). ${kept}`;
  return `The disk could not be written. ${kept}`;
}
