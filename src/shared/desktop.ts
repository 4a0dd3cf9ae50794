// The desktop conventions of a recording app, as plain data and functions shared by main (which
// registers the global shortcut and draws the tray) and the window (which edits the shortcut and
// obeys the commands): Electron's accelerator syntax, how a shortcut reads, and the tray's menu.

/** Starts and stops recording from any app (Settings can change it; '' turns it off). */
export const DEFAULT_RECORD_SHORTCUT = 'CommandOrControl+Shift+R';

const MODIFIERS: Record<string, 'command' | 'control' | 'commandOrControl' | 'alt' | 'altGr' | 'shift' | 'super'> = {
  command: 'command',
  cmd: 'command',
  control: 'control',
  ctrl: 'control',
  commandorcontrol: 'commandOrControl',
  cmdorctrl: 'commandOrControl',
  alt: 'alt',
  option: 'alt',
  altgr: 'altGr',
  shift: 'shift',
  super: 'super',
  meta: 'super',
};

const NAMED_KEYS = [
  'Plus',
  'Space',
  'Tab',
  'Capslock',
  'Numlock',
  'Scrolllock',
  'Backspace',
  'Delete',
  'Insert',
  'Return',
  'Enter',
  'Up',
  'Down',
  'Left',
  'Right',
  'Home',
  'End',
  'PageUp',
  'PageDown',
  'Escape',
  'Esc',
  'PrintScreen',
  'VolumeUp',
  'VolumeDown',
  'VolumeMute',
  'MediaNextTrack',
  'MediaPreviousTrack',
  'MediaStop',
  'MediaPlayPause',
  'num0',
  'num1',
  'num2',
  'num3',
  'num4',
  'num5',
  'num6',
  'num7',
  'num8',
  'num9',
  'numdec',
  'numadd',
  'numsub',
  'nummult',
  'numdiv',
];
const NAMED = new Map(NAMED_KEYS.map((k) => [k.toLowerCase(), k]));
const PUNCTUATION = new Set([...')!@#$%^&*(:;:+=<,_->.?/~`{][|\\}"\'']);

/** The key of an accelerator in Electron's spelling, or null if Electron has no such key. */
function keyName(word: string): string | null {
  if (/^[a-z0-9]$/i.test(word)) return word.toUpperCase();
  if (/^F([1-9]|1[0-9]|2[0-4])$/i.test(word)) return word.toUpperCase();
  if (word.length === 1 && PUNCTUATION.has(word)) return word;
  return NAMED.get(word.toLowerCase()) ?? null;
}

// Keys a vet types or needs while recording: a global shortcut on them alone would take them
// from every other app.
const NEEDS_MODIFIER = (key: string) =>
  !/^F([1-9]|1[0-9]|2[0-4])$/.test(key) && !key.startsWith('Media') && !key.startsWith('Volume');

/**
 * Why an accelerator cannot be a global shortcut, in words; null when it can. '' is allowed
 * (no shortcut).
 */
export function shortcutProblem(accelerator: string): string | null {
  if (accelerator === '') return null;
  if (accelerator.length > 100) return 'is too long';
  const words = accelerator.split('+');
  // "Ctrl++" means Ctrl and the plus key.
  if (accelerator.endsWith('++')) words.splice(words.length - 2, 2, 'Plus');
  if (words.some((w) => w.trim() === ''))
    return `"${accelerator}" is not a key combination (a "+" joins the keys, as in Ctrl+Shift+R)`;
  const key = words.at(-1) as string;
  const modifiers = words.slice(0, -1);
  const seen = new Set<string>();
  for (const m of modifiers) {
    const kind = MODIFIERS[m.toLowerCase()];
    if (!kind)
      return keyName(m)
        ? `has more than one key that is not Ctrl, Alt, Shift or Cmd ("${m}" and "${key}")`
        : `"${m}" is not a modifier key (use Ctrl, Alt, Shift or Cmd)`;
    if (seen.has(kind)) return `names ${m} twice`;
    seen.add(kind);
  }
  if (MODIFIERS[key.toLowerCase()]) return 'needs a key besides Ctrl, Alt, Shift and Cmd (as in Ctrl+Shift+R)';
  const name = keyName(key);
  if (!name) return `"${key}" is not a key Electron knows`;
  if (NEEDS_MODIFIER(name) && ![...seen].some((k) => k !== 'shift')) {
    return `needs Ctrl, Alt or Cmd with ${name}, or every app would lose that key`;
  }
  return null;
}

/**
 * What Settings says where the desktop, not the app, decides whether a global shortcut reaches
 * it; null where Electron's globalShortcut answers for itself (Windows, macOS, Linux on X11).
 *
 * On a Linux Wayland session Electron goes through the xdg-desktop-portal GlobalShortcuts
 * portal: `globalShortcut.register()` answers true before the portal has bound anything, and
 * the portal may refuse the bind without telling the app (electron/electron#52218), GNOME may
 * never bind it at all (electron/electron#48669), and `unregister()` does not take a bound key
 * back, so the keys of a shortcut changed since start-up can stay taken until a restart. The
 * app cannot tell which of these happened, so it says so and points at what always works.
 */
export function shortcutCaveat(platform: string, env: Readonly<Record<string, string | undefined>>): string | null {
  if (platform !== 'linux') return null;
  const wayland = env['XDG_SESSION_TYPE']?.toLowerCase() === 'wayland' || Boolean(env['WAYLAND_DISPLAY']);
  if (!wayland) return null;
  return WAYLAND_SHORTCUT_CAVEAT;
}

export const WAYLAND_SHORTCUT_CAVEAT =
  'This desktop (a Wayland session) decides for itself whether Vet Scribe gets a shortcut that works in every app, and it may never pass the keys on without telling Vet Scribe. If pressing the shortcut does nothing, start and stop recording from the tray icon or from this window. After a change, the old keys may stay taken (they no longer do anything) until Vet Scribe restarts.';

/** An accelerator as the vet reads it on this platform: Ctrl+Shift+R, or Cmd+Shift+R on a Mac. */
export function shortcutLabel(accelerator: string, platform: string): string {
  if (accelerator === '') return 'none';
  const mac = platform === 'darwin' || platform === 'mac';
  return accelerator
    .replace(/\+\+$/, '+Plus')
    .split('+')
    .map((w) => {
      const kind = MODIFIERS[w.toLowerCase()];
      if (kind === 'commandOrControl') return mac ? 'Cmd' : 'Ctrl';
      if (kind === 'command') return 'Cmd';
      if (kind === 'control') return 'Ctrl';
      if (kind === 'alt') return mac ? 'Option' : 'Alt';
      if (kind === 'altGr') return 'AltGr';
      if (kind === 'shift') return 'Shift';
      if (kind === 'super') return mac ? 'Cmd' : 'Super';
      return keyName(w) ?? w;
    })
    .join('+');
}

/** The parts of a keyboard event a shortcut is made from (the DOM's KeyboardEvent has them). */
export interface KeyPress {
  key: string;
  code: string;
  ctrlKey: boolean;
  altKey: boolean;
  shiftKey: boolean;
  metaKey: boolean;
}

const CODE_KEYS: Record<string, string> = {
  Space: 'Space',
  Tab: 'Tab',
  Backspace: 'Backspace',
  Delete: 'Delete',
  Insert: 'Insert',
  Enter: 'Enter',
  NumpadEnter: 'Enter',
  ArrowUp: 'Up',
  ArrowDown: 'Down',
  ArrowLeft: 'Left',
  ArrowRight: 'Right',
  Home: 'Home',
  End: 'End',
  PageUp: 'PageUp',
  PageDown: 'PageDown',
  Escape: 'Escape',
  PrintScreen: 'PrintScreen',
  Minus: '-',
  Equal: '=',
  BracketLeft: '[',
  BracketRight: ']',
  Backslash: '\\',
  Semicolon: ';',
  Quote: "'",
  Comma: ',',
  Period: '.',
  Slash: '/',
  Backquote: '`',
};

/**
 * The accelerator a key press makes, in Electron's spelling with CommandOrControl for the
 * platform's main modifier; null while only modifiers are down. From the key's position
 * (`code`), so Shift+R is R and not the "r"/"R" the layout types.
 */
export function acceleratorFromKeyPress(press: KeyPress, platform: string): string | null {
  let key: string | null;
  const letter = /^Key([A-Z])$/.exec(press.code);
  const digit = /^(?:Digit|Numpad)([0-9])$/.exec(press.code);
  if (letter) key = letter[1] ?? null;
  else if (digit) key = press.code.startsWith('Numpad') ? `num${digit[1]}` : (digit[1] ?? null);
  else if (/^F([1-9]|1[0-9]|2[0-4])$/.test(press.code)) key = press.code;
  else key = CODE_KEYS[press.code] ?? null;
  if (!key) return null;
  const mac = platform === 'darwin' || platform === 'mac';
  const parts: string[] = [];
  if (mac ? press.metaKey : press.ctrlKey) parts.push('CommandOrControl');
  if (mac && press.ctrlKey) parts.push('Control');
  if (!mac && press.metaKey) parts.push('Super');
  if (press.altKey) parts.push('Alt');
  if (press.shiftKey) parts.push('Shift');
  parts.push(key);
  return parts.join('+');
}

/** The recorder as the tray and the shortcut see it. */
export type RecorderActivity = 'idle' | 'recording' | 'paused';

/** What the tray, the global shortcut or the dock asks of the window's recorder. */
export type RecorderAction = 'toggle' | 'start' | 'stop' | 'pause' | 'resume';
export const RECORDER_ACTIONS: readonly RecorderAction[] = ['toggle', 'start', 'stop', 'pause', 'resume'];

export interface TrayItem {
  id: 'status' | 'start' | 'pause' | 'resume' | 'stop' | 'show' | 'quit' | 'separator';
  label: string;
  enabled: boolean;
  /** The shortcut shown beside the item, in Electron's spelling. */
  accelerator?: string;
}

/** The tray's tooltip and menu for the recorder's state; main turns it into Electron's Menu. */
export function trayModel(activity: RecorderActivity, shortcut: string): { tooltip: string; items: TrayItem[] } {
  const words = { idle: 'Not recording', recording: 'Recording', paused: 'Recording paused' }[activity];
  const capturing = activity !== 'idle';
  const items: TrayItem[] = [
    { id: 'status', label: words, enabled: false },
    { id: 'separator', label: '', enabled: false },
    {
      id: 'start',
      label: 'Start recording…',
      enabled: !capturing,
      ...(shortcut && !capturing ? { accelerator: shortcut } : {}),
    },
    activity === 'paused'
      ? { id: 'resume', label: 'Resume', enabled: true }
      : { id: 'pause', label: 'Pause', enabled: activity === 'recording' },
    {
      id: 'stop',
      label: 'Stop recording',
      enabled: capturing,
      ...(shortcut && capturing ? { accelerator: shortcut } : {}),
    },
    { id: 'separator', label: '', enabled: false },
    { id: 'show', label: 'Show Vet Scribe', enabled: true },
    { id: 'quit', label: 'Quit Vet Scribe', enabled: true },
  ];
  return { tooltip: `Vet Scribe — ${words.toLowerCase()}`, items };
}

/**
 * The tray icon's pixels, drawn rather than shipped so the three states need no image files:
 * a ring when idle, a filled red dot when recording, an amber dot with a pause sign when
 * paused. BGRA, premultiplied, `size` x `size` (Electron's nativeImage.createFromBitmap).
 */
export function trayBitmap(activity: RecorderActivity, size: number): Uint8Array {
  const pixels = new Uint8Array(size * size * 4);
  const c = (size - 1) / 2;
  const outer = size * 0.44;
  const ring = size * 0.12;
  const colour = { idle: [40, 40, 40], recording: [214, 40, 40], paused: [214, 140, 20] }[activity];
  const [r, g, b] = colour as [number, number, number];
  for (let y = 0; y < size; y++) {
    for (let x = 0; x < size; x++) {
      const d = Math.hypot(x - c, y - c);
      // Coverage of the pixel by the shape, with a one-pixel soft edge.
      let alpha = Math.max(0, Math.min(1, outer + 0.5 - d));
      if (activity === 'idle') alpha *= Math.max(0, Math.min(1, d - (outer - ring) + 0.5));
      if (activity === 'paused') {
        const bar = size * 0.09;
        const half = size * 0.2;
        const inBar =
          Math.abs(y - c) <= half && (Math.abs(x - (c - size * 0.12)) <= bar || Math.abs(x - (c + size * 0.12)) <= bar);
        if (inBar) alpha = 0;
      }
      const i = (y * size + x) * 4;
      pixels[i] = Math.round(b * alpha);
      pixels[i + 1] = Math.round(g * alpha);
      pixels[i + 2] = Math.round(r * alpha);
      pixels[i + 3] = Math.round(255 * alpha);
    }
  }
  return pixels;
}
