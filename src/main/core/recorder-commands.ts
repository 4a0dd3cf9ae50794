// The tray's and the global shortcut's commands on their way to the window's recorder. The
// recorder lives in the window's page, which hears a command only once it has subscribed to
// `recorder:command`: a window just opened (on macOS the app lives on with none, and a start
// from the tray or the shortcut opens one), or a page loading again, has not. A command sent then
// would reach no one, and the vet who asked to record would find the window open and nothing
// recorded. So a command for a recorder that does not listen yet is held, the last one only, and
// handed to the page when its recorder says it listens (`recorder:listening`), once. It is let go
// unheard when the window closes, and when someone else (or no one) sits in front: a start asked
// before a Switch user is not the next vet's to record.
import type { RecorderAction } from '../../shared/desktop.ts';
import type { Actor, Actors } from './actor.ts';
import type { Logger } from './log.ts';
import type { Emit } from './ports.ts';

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
  /** Whether the window's page has said its recorder listens since it last loaded. */
  private listening = false;
  /** The command waiting for the page's recorder, and who was in front when it was asked. */
  private held: { action: RecorderAction; actor: Actor | null } | null = null;

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
    this.held = { action, actor: this.options.actors.current() };
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

  /** The window's page is loading (again): what it had subscribed to is gone with the page before. */
  pageLoading(): void {
    this.listening = false;
  }

  /** The window closed: no one listens, and a command held for it is not a later window's. */
  windowClosed(): void {
    this.listening = false;
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
