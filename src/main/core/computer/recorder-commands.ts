// The tray's and the global shortcut's commands on their way to the window's recorder. The
// recorder lives in the window's page, which hears a command only once it has subscribed to
// `recorder:command`: a window just opened (on macOS the app lives on with none, and a start
// from the tray or the shortcut opens one), or a page loading again, has not. A command sent then
// would reach no one, and the vet who asked to record would find the window open and nothing
// recorded. So a command for a recorder that does not listen yet is held, the last one only, and
// handed to the page when its recorder says it listens (`recorder:listening`), once. It is let go
// unheard when the window closes, when the page it waited for is replaced or gone (a start must
// not begin minutes after it was asked, when a failed page is tried again), and when someone else
// (or no one) sits in front: a start asked before a Switch user is not the next vet's to record.
import type { RecorderAction } from '../../../shared/desktop.ts';
import type { Actor, Actors } from '../sign-in/index.ts';
import type { Logger, Emit } from '../platform/index.ts';

export interface RecorderCommandsOptions {
  actors: Actors;
  emit: Emit;
  log: Logger;
}

/** Whether two actors are the same vet on the same service; two nobodies are the same. */
function sameVet(a: Actor | null, b: Actor | null): boolean {
  if (a === null || b === null) return a === b;
  return a.userId === b.userId && a.service === b.service;
}

export class RecorderCommands {
  private readonly options: RecorderCommandsOptions;
  /** Whether the window's page has said its recorder listens since it loaded. */
  private listening = false;
  /** Whether the window shows a page yet (false from its opening until its first page has loaded). */
  private paged = false;
  /**
   * The command waiting for the page's recorder; who was in front when it was asked; and whether
   * it came before the window had a page (it waits for the first one) or for the page it has.
   */
  private held: { action: RecorderAction; actor: Actor | null; forFirstPage: boolean } | null = null;

  constructor(options: RecorderCommandsOptions) {
    this.options = options;
  }

  /**
   * A command for the window's recorder: sent at once when it listens; else held for it (a later
   * command takes the place of the one before, as the vet's last word).
   */
  command(action: RecorderAction): void {
    if (this.listening) {
      this.options.emit('recorder:command', { action });
      return;
    }
    this.held = { action, actor: this.options.actors.current(), forFirstPage: !this.paged };
    this.options.log.info(`recorder: ${action} held until the window's recorder listens`);
  }

  /**
   * The window's recorder listens now (its page asks once it has subscribed): the command held
   * for it, once, if it is still the asking vet's window; null otherwise.
   */
  listen(actor: Actor | null): RecorderAction | null {
    this.listening = true;
    const held = this.held;
    this.held = null;
    if (!held) return null;
    if (!sameVet(held.actor, actor)) {
      this.options.log.info(`recorder: ${held.action} let go: another vet is in front`);
      return null;
    }
    this.options.log.info(`recorder: ${held.action} handed to the window's recorder`);
    return held.action;
  }

  /** A window opened: it has no page yet, and nothing listens until its page says so. */
  windowOpened(): void {
    this.listening = false;
    this.paged = false;
    this.drop('a new window opened');
  }

  /**
   * The window's page has loaded (Electron's did-navigate: the first, or again after a reload):
   * what the page before had subscribed to is gone with it. A command held for the window's
   * first page is this page's; one held for a page now replaced (a reload, a page that failed
   * and was tried again) is let go, for its vet may have asked minutes ago. A page that is not the
   * app's (`ours` false; the navigation guard lets none through) has no recorder to wait for.
   */
  pageLoaded(ours: boolean): void {
    this.listening = false;
    if (!ours) return;
    if (this.held?.forFirstPage) this.held.forFirstPage = false;
    else this.drop('the page it waited for was replaced');
    this.paged = true;
  }

  /** The window's page is gone (its renderer process ended): no one listens, and what waited for it is let go. */
  pageGone(): void {
    this.listening = false;
    this.drop('the page it waited for is gone');
  }

  /** The window closed: no one listens, and a command held for it is not a later window's. */
  windowClosed(): void {
    this.listening = false;
    this.paged = false;
    this.drop('the window closed');
  }

  /** Who is in front changed (a sign-in, a sign-out, a Switch user): a held command was not theirs. */
  sessionChanged(): void {
    if (this.held && !sameVet(this.held.actor, this.options.actors.current())) this.drop('the vet in front changed');
  }

  private drop(why: string): void {
    if (!this.held) return;
    this.options.log.info(`recorder: ${this.held.action} let go unheard: ${why}`);
    this.held = null;
  }
}
