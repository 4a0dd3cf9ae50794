// Copy note: the note on the clipboard three ways at once (plain text, HTML and the service's
// RTF), so a practice-management system keeps headings and paragraphs whichever it pastes.
// Main writes them where it has a clipboard (Electron's clipboard.write); where it has none
// (the browser host) it answers `written: false` and the window writes them with ClipboardItem.
import type { NoteFormats } from '../../../shared/ipc.ts';
import { api } from '../api.ts';
import { copyText } from '../copy-text.ts';

/** Chromium's name for a custom clipboard format: RTF is not one of the web's standard three. */
export const WEB_RTF = 'web text/rtf';

/** What reached the clipboard. */
export type CopyOutcome = 'all' | 'text-and-html' | 'text';

export const COPY_WORDS: Record<CopyOutcome, string> = {
  all: 'Copied',
  'text-and-html': 'Copied with its headings, but without RTF: this window cannot put RTF on the clipboard.',
  text: 'Copied as plain text only: this window cannot put formatted text on the clipboard.',
};

function item(flavours: Record<string, string>): ClipboardItem {
  return new ClipboardItem(
    Object.fromEntries(Object.entries(flavours).map(([type, text]) => [type, new Blob([text], { type })])),
  );
}

/** Writes the flavours with the async Clipboard API, dropping the ones this window refuses. */
export async function writeFlavours(formats: Pick<NoteFormats, 'text' | 'html' | 'rtf'>): Promise<CopyOutcome> {
  const clipboard = typeof navigator !== 'undefined' ? navigator.clipboard : undefined;
  if (typeof ClipboardItem === 'function' && typeof clipboard?.write === 'function') {
    const supports = (type: string) => typeof ClipboardItem.supports !== 'function' || ClipboardItem.supports(type);
    if (supports(WEB_RTF)) {
      try {
        await clipboard.write([
          item({ 'text/plain': formats.text, 'text/html': formats.html, [WEB_RTF]: formats.rtf }),
        ]);
        return 'all';
      } catch {
        // Refused with the custom format: the standard two are still worth having.
      }
    }
    try {
      await clipboard.write([item({ 'text/plain': formats.text, 'text/html': formats.html })]);
      return 'text-and-html';
    } catch {
      // Refused altogether: the plain text below may still go through.
    }
  }
  await copyText(formats.text);
  return 'text';
}

/** Copies the note the vet sees (the edit when there is one), or one more document of the consult, in its three flavours. */
export async function copyNote(id: string, documentId?: string): Promise<CopyOutcome> {
  const which = documentId === undefined ? { id } : { id, documentId };
  // Noted in the trail alongside (no later: the window's right to write the clipboard is short);
  // when it cannot be noted, nothing is copied.
  const [formats] = await Promise.all([
    api.consults.noteFormats(which),
    api.consults.noteUsed({ ...which, action: 'copied' }),
  ]);
  const { written } = await api.clipboard.write({ text: formats.text, html: formats.html, rtf: formats.rtf });
  if (written) return 'all';
  return writeFlavours(formats);
}
