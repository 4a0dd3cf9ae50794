// Puts text on the system clipboard. The async Clipboard API first; where it is refused (an
// Electron session that does not grant `clipboard-sanitized-write`, a window without focus)
// the older copy command on a hidden text field, which needs no permission.
export async function copyText(text: string): Promise<void> {
  let refusal: unknown = null;
  if (typeof navigator.clipboard?.writeText === 'function') {
    try {
      await navigator.clipboard.writeText(text);
      return;
    } catch (e) {
      refusal = e;
    }
  }
  if (copyWithCommand(text)) return;
  throw new Error(
    refusal instanceof Error && refusal.message ? refusal.message : 'this window has no access to the clipboard',
  );
}

function copyWithCommand(text: string): boolean {
  if (typeof document.execCommand !== 'function') return false;
  const field = document.createElement('textarea');
  field.value = text;
  field.setAttribute('readonly', '');
  field.className = 'visually-hidden';
  const focused = document.activeElement as HTMLElement | null;
  document.body.append(field);
  field.select();
  let copied: boolean;
  try {
    copied = document.execCommand('copy');
  } catch {
    copied = false;
  }
  field.remove();
  focused?.focus();
  return copied;
}
