// Where the cursor goes when a note opens: on its title, so the keyboard and a screen reader
// start at the note and not at the top of the page (Open note's own button is gone or hidden by
// then, which would leave the cursor on the page's body). A cursor already in the note's view
// (a pet's tab that opened this pet's consult) is left where it is.
import { useEffect, type RefObject } from 'react';

export function useFocusOnOpen(heading: RefObject<HTMLElement | null>, shown: boolean): void {
  useEffect(() => {
    const el = heading.current;
    if (!shown || !el) return;
    const view = el.closest('.note-view');
    const at = document.activeElement;
    if (at && at !== document.body && view?.contains(at)) return;
    el.focus({ preventScroll: true });
    // Once per note opened: a later render (a job's update) leaves the cursor alone.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [shown]);
}
