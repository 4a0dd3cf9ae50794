// Main's notices above every view, each one line so the view under it (a note) keeps the first
// screen: a notice longer than the line ends in "…" and shows whole under the pointer or the
// keyboard (assistive technology reads it whole anyway). The vet may put each away; a notice
// about this computer's keychain says the same at every start until IT changes the computer, so
// its dismissal is kept in the window's storage and it stays away after a restart. After a
// Dismiss the cursor goes on to the control that came after the notice, not to the page's body.
import { useEffect, useRef, useState } from 'react';
import type { Notice } from '../../../shared/ipc.ts';

const KEPT = 'vet-scribe.dismissed-notices';
/** The notices that say the same at every start (the keychain's): those whose dismissal is kept. */
const LASTING = /keychain/i;

/** What the storage holds, if it is what `keep` writes: at most 50 texts of at most 2,000 characters. */
function keptList(value: unknown): string[] | null {
  if (!Array.isArray(value) || value.length > 50) return null;
  return value.every((m) => typeof m === 'string' && m.length <= 2000) ? (value as string[]) : null;
}

// The window's first script carries no zod (test/architecture/window-imports.test.ts): the
// stored list is checked by hand, which its shape makes a few lines.
function readKept(): string[] {
  try {
    return keptList(JSON.parse(localStorage.getItem(KEPT) ?? '[]')) ?? [];
  } catch {
    // No storage (a locked-down profile) or unreadable JSON: the notices are shown again.
    return [];
  }
}

function keep(messages: readonly string[]): void {
  try {
    localStorage.setItem(KEPT, JSON.stringify(messages.filter((m) => LASTING.test(m)).slice(-50)));
  } catch {
    // Not kept: it is dismissed for this run only.
  }
}

const FOCUSABLE = 'button, [href], input, select, textarea, summary, [tabindex]:not([tabindex="-1"])';

/** The first control after `el` in the page's order, outside it. */
function controlAfter(el: HTMLElement): HTMLElement | null {
  for (const c of document.querySelectorAll<HTMLElement>(FOCUSABLE)) {
    if (el.contains(c) || c.hasAttribute('disabled')) continue;
    if (el.compareDocumentPosition(c) & Node.DOCUMENT_POSITION_FOLLOWING) return c;
  }
  return null;
}

export function MainNotices({ notices }: { notices: readonly Notice[] }) {
  const [dismissed, setDismissed] = useState<readonly string[]>(readKept);
  const next = useRef<HTMLElement | null>(null);

  useEffect(() => {
    if (!next.current) return;
    next.current.focus();
    next.current = null;
  }, [dismissed]);

  return (
    <>
      {notices
        .filter((n) => !dismissed.includes(n.message))
        .map((n) => (
          <div
            key={n.message}
            className={`notice notice-${n.level} notice-dismissable notice-line`}
            role={n.level === 'info' ? 'status' : 'alert'}
          >
            <p title={n.message}>{n.message}</p>
            <button
              type="button"
              className="link"
              aria-label="Dismiss notice"
              onClick={(e) => {
                const notice = e.currentTarget.parentElement;
                next.current = notice ? controlAfter(notice) : null;
                const all = [...dismissed, n.message];
                keep(all);
                setDismissed(all);
              }}
            >
              Dismiss
            </button>
          </div>
        ))}
    </>
  );
}
