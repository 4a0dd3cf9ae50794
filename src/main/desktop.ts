// The desktop side of a recording app: the global shortcut that starts and stops recording from
// any app, and the tray (menu-bar) icon that shows idle, recording or paused with the recorder's
// commands in its menu. The recorder itself lives in the window (MediaRecorder), so both send it
// commands (`recorder:command`); what they show comes from the recordings main keeps.
import { globalShortcut, Menu, nativeImage, Tray, type MenuItemConstructorOptions, type NativeImage } from 'electron';
import {
  shortcutCaveat,
  shortcutLabel,
  trayBitmap,
  trayModel,
  type RecorderAction,
  type RecorderActivity,
} from '../shared/desktop.ts';

export interface DesktopOptions {
  /** The recorder's state now. */
  activity: () => RecorderActivity;
  /** Sends a command to the window's recorder (opening or showing the window for a start). */
  command: (action: RecorderAction) => void;
  showWindow: () => void;
  quit: () => void;
  log: (line: string) => void;
}

/** The tray's image for a state: 16 px with its 2x form, a template image on macOS when idle. */
function trayImage(activity: RecorderActivity): NativeImage {
  const image = nativeImage.createEmpty();
  for (const scaleFactor of [1, 2]) {
    const size = 16 * scaleFactor;
    image.addRepresentation({
      scaleFactor,
      width: size,
      height: size,
      buffer: Buffer.from(trayBitmap(activity, size)),
    });
  }
  // macOS draws a template image in the menu bar's own colour (dark or light); the red and
  // amber of recording and paused are the point, so only the idle ring is a template.
  if (process.platform === 'darwin') image.setTemplateImage(activity === 'idle');
  return image;
}

export class Desktop {
  private readonly options: DesktopOptions;
  private tray: Tray | null = null;
  private shortcut = '';
  private shown: RecorderActivity | null = null;
  /** What Settings says where the desktop may not pass the shortcut on (a Wayland session); null elsewhere. */
  readonly caveat: string | null = shortcutCaveat(process.platform, process.env);

  constructor(options: DesktopOptions) {
    this.options = options;
  }

  /** Creates the tray; a desktop without one (some Linux desktops) only logs it. */
  start(shortcut: string): string | null {
    try {
      this.tray = new Tray(trayImage('idle'));
      this.tray.on('click', () => this.options.showWindow());
    } catch (e) {
      this.options.log(`tray: not available on this desktop (${(e as Error).message})`);
    }
    const refused = this.applyShortcut(shortcut);
    this.update();
    return refused;
  }

  /** Redraws the tray for the recorder's state; cheap when nothing changed. */
  update(): void {
    const activity = this.options.activity();
    if (!this.tray || this.tray.isDestroyed()) return;
    const { tooltip, items } = trayModel(activity, this.shortcut);
    if (activity !== this.shown) this.tray.setImage(trayImage(activity));
    this.shown = activity;
    this.tray.setToolTip(tooltip);
    const template: MenuItemConstructorOptions[] = items.map((item) =>
      item.id === 'separator'
        ? { type: 'separator' }
        : {
            id: item.id,
            label: item.label,
            enabled: item.enabled,
            // Shown only: the global shortcut does the work, the menu must not register it again.
            ...(item.accelerator ? { accelerator: item.accelerator, registerAccelerator: false } : {}),
            click: () => this.menuClick(item.id),
          },
    );
    this.tray.setContextMenu(Menu.buildFromTemplate(template));
  }

  private menuClick(id: string): void {
    if (id === 'start' || id === 'stop' || id === 'pause' || id === 'resume') this.options.command(id);
    else if (id === 'show') this.options.showWindow();
    else if (id === 'quit') this.options.quit();
  }

  /**
   * Makes `accelerator` the recording shortcut ('' = none). Null when done; else why not, with
   * the one in force before still registered.
   */
  applyShortcut(accelerator: string): string | null {
    const old = this.shortcut;
    if (accelerator === old) return null;
    if (old) globalShortcut.unregister(old);
    if (accelerator) {
      let registered = false;
      try {
        registered = globalShortcut.register(accelerator, this.pressed(accelerator));
      } catch (e) {
        this.options.log(`shortcut: ${accelerator} could not be registered (${(e as Error).message})`);
      }
      if (!registered) {
        if (old) this.restore(old);
        return `${shortcutLabel(accelerator, process.platform)} is already used by another app or by the system; choose another.`;
      }
    }
    this.shortcut = accelerator;
    this.options.log(accelerator ? `shortcut: ${accelerator} starts and stops recording` : 'shortcut: none');
    this.update();
    return null;
  }

  /**
   * What pressing `accelerator` does: toggles the recorder while it is the shortcut in force,
   * nothing once it is not. On a Wayland session `globalShortcut.unregister()` does not take
   * back a key the xdg-desktop-portal bound (electron/electron#52218), so the old keys of a
   * changed (or turned off) shortcut can still arrive; they must not start a recording.
   */
  private pressed(accelerator: string): () => void {
    return () => {
      if (this.shortcut !== accelerator) {
        this.options.log(`shortcut: ${accelerator} pressed, but it is no longer the recording shortcut; ignored`);
        return;
      }
      this.options.command('toggle');
    };
  }

  private restore(accelerator: string): void {
    try {
      if (globalShortcut.register(accelerator, this.pressed(accelerator))) return;
    } catch {
      // Logged below.
    }
    this.shortcut = '';
    this.options.log(`shortcut: ${accelerator} could not be registered again`);
  }

  dispose(): void {
    if (this.shortcut) globalShortcut.unregister(this.shortcut);
    this.shortcut = '';
    this.tray?.destroy();
    this.tray = null;
  }
}
