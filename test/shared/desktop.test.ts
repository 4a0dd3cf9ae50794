// The desktop conventions as plain functions: the global shortcut's syntax and words, the key
// press that makes one, the tray's menu for each recorder state, and the tray icon's pixels.
import { describe, expect, it } from 'vitest';
import {
  acceleratorFromKeyPress,
  DEFAULT_RECORD_SHORTCUT,
  shortcutLabel,
  shortcutProblem,
  trayBitmap,
  trayModel,
  type KeyPress,
} from '../../src/shared/desktop.ts';
import { DEFAULT_SETTINGS, settingsPatchSchema } from '../../src/shared/settings.ts';

describe('shortcutProblem', () => {
  it('takes Electron accelerators with a modifier, and none at all', () => {
    for (const ok of [
      DEFAULT_RECORD_SHORTCUT,
      'CmdOrCtrl+Alt+R',
      'Control+Shift+F9',
      'F9',
      'Alt+Space',
      'Super+1',
      'Ctrl+Plus',
      'Ctrl++',
      'MediaPlayPause',
      'Ctrl+Shift+num5',
      '',
    ]) {
      expect(shortcutProblem(ok), ok).toBeNull();
    }
    expect(DEFAULT_SETTINGS.recordShortcut).toBe('CommandOrControl+Shift+R');
  });

  it('says what is wrong with each kind of bad one', () => {
    expect(shortcutProblem('R')).toBe('needs Ctrl, Alt or Cmd with R, or every app would lose that key');
    expect(shortcutProblem('Shift+R')).toBe('needs Ctrl, Alt or Cmd with R, or every app would lose that key');
    expect(shortcutProblem('Ctrl+Shift')).toBe('needs a key besides Ctrl, Alt, Shift and Cmd (as in Ctrl+Shift+R)');
    expect(shortcutProblem('Ctrl+Hyper+R')).toBe('"Hyper" is not a modifier key (use Ctrl, Alt, Shift or Cmd)');
    expect(shortcutProblem('Ctrl+A+B')).toBe('has more than one key that is not Ctrl, Alt, Shift or Cmd ("A" and "B")');
    expect(shortcutProblem('Ctrl+Banana')).toBe('"Banana" is not a key Electron knows');
    expect(shortcutProblem('Ctrl+Ctrl+R')).toBe('names Ctrl twice');
    expect(shortcutProblem('Ctrl+ +R')).toMatch(/is not a key combination/);
    expect(shortcutProblem('Ctrl+F25')).toBe('"F25" is not a key Electron knows');
  });

  it('is the settings check: a bad shortcut is refused with its words', () => {
    const bad = settingsPatchSchema.safeParse({ recordShortcut: 'Shift+R' });
    expect(bad.success).toBe(false);
    expect(bad.error?.issues[0]).toMatchObject({
      path: ['recordShortcut'],
      message: 'needs Ctrl, Alt or Cmd with R, or every app would lose that key',
    });
    expect(settingsPatchSchema.parse({ recordShortcut: ' Alt+F2 ' })).toEqual({ recordShortcut: 'Alt+F2' });
  });
});

describe('shortcutLabel', () => {
  it('reads as the platform writes it', () => {
    expect(shortcutLabel(DEFAULT_RECORD_SHORTCUT, 'win32')).toBe('Ctrl+Shift+R');
    expect(shortcutLabel(DEFAULT_RECORD_SHORTCUT, 'darwin')).toBe('Cmd+Shift+R');
    expect(shortcutLabel('Alt+Super+f5', 'linux')).toBe('Alt+Super+F5');
    expect(shortcutLabel('Option+r', 'darwin')).toBe('Option+R');
    expect(shortcutLabel('Ctrl++', 'linux')).toBe('Ctrl+Plus');
    expect(shortcutLabel('', 'linux')).toBe('none');
  });
});

describe('acceleratorFromKeyPress', () => {
  const press = (code: string, mods: Partial<KeyPress> = {}): KeyPress => ({
    key: '',
    code,
    ctrlKey: false,
    altKey: false,
    shiftKey: false,
    metaKey: false,
    ...mods,
  });

  it('makes the accelerator from the key position, with the platform main modifier as CommandOrControl', () => {
    expect(acceleratorFromKeyPress(press('KeyR', { ctrlKey: true, shiftKey: true }), 'linux')).toBe(
      'CommandOrControl+Shift+R',
    );
    expect(acceleratorFromKeyPress(press('KeyR', { metaKey: true, shiftKey: true }), 'darwin')).toBe(
      'CommandOrControl+Shift+R',
    );
    expect(acceleratorFromKeyPress(press('KeyR', { metaKey: true, ctrlKey: true }), 'darwin')).toBe(
      'CommandOrControl+Control+R',
    );
    expect(acceleratorFromKeyPress(press('Digit4', { altKey: true }), 'win32')).toBe('Alt+4');
    expect(acceleratorFromKeyPress(press('Numpad4', { ctrlKey: true }), 'win32')).toBe('CommandOrControl+num4');
    expect(acceleratorFromKeyPress(press('F9'), 'linux')).toBe('F9');
    expect(acceleratorFromKeyPress(press('ArrowUp', { ctrlKey: true, metaKey: true }), 'linux')).toBe(
      'CommandOrControl+Super+Up',
    );
    expect(acceleratorFromKeyPress(press('Slash', { ctrlKey: true }), 'linux')).toBe('CommandOrControl+/');
  });

  it('is null while only modifiers are down, or for a key Electron has no name for', () => {
    expect(acceleratorFromKeyPress(press('ShiftLeft', { shiftKey: true }), 'linux')).toBeNull();
    expect(acceleratorFromKeyPress(press('ControlLeft', { ctrlKey: true }), 'linux')).toBeNull();
    expect(acceleratorFromKeyPress(press('IntlBackslash', { ctrlKey: true }), 'linux')).toBeNull();
  });
});

describe('trayModel', () => {
  const enabled = (m: ReturnType<typeof trayModel>) => m.items.filter((i) => i.enabled).map((i) => i.id);

  it('idle: Start (with the shortcut shown), Show and Quit', () => {
    const m = trayModel('idle', DEFAULT_RECORD_SHORTCUT);
    expect(m.tooltip).toBe('Vet Scribe — not recording');
    expect(m.items[0]).toEqual({ id: 'status', label: 'Not recording', enabled: false });
    expect(enabled(m)).toEqual(['start', 'show', 'quit']);
    expect(m.items.find((i) => i.id === 'start')?.accelerator).toBe(DEFAULT_RECORD_SHORTCUT);
  });

  it('recording: Pause and Stop (the shortcut on Stop)', () => {
    const m = trayModel('recording', DEFAULT_RECORD_SHORTCUT);
    expect(m.tooltip).toBe('Vet Scribe — recording');
    expect(enabled(m)).toEqual(['pause', 'stop', 'show', 'quit']);
    expect(m.items.find((i) => i.id === 'stop')?.accelerator).toBe(DEFAULT_RECORD_SHORTCUT);
    expect(m.items.find((i) => i.id === 'start')?.accelerator).toBeUndefined();
  });

  it('paused: Resume in place of Pause; no shortcut shown when there is none', () => {
    const m = trayModel('paused', '');
    expect(m.tooltip).toBe('Vet Scribe — recording paused');
    expect(enabled(m)).toEqual(['resume', 'stop', 'show', 'quit']);
    expect(m.items.some((i) => i.accelerator)).toBe(false);
  });
});

describe('trayBitmap', () => {
  const at = (px: Uint8Array, size: number, x: number, y: number) => {
    const i = (y * size + x) * 4;
    return { b: px[i], g: px[i + 1], r: px[i + 2], a: px[i + 3] };
  };

  it('draws BGRA pixels of the asked size: a red dot when recording, transparent corners', () => {
    const px = trayBitmap('recording', 16);
    expect(px).toHaveLength(16 * 16 * 4);
    expect(at(px, 16, 8, 8)).toEqual({ b: 40, g: 40, r: 214, a: 255 });
    expect(at(px, 16, 0, 0).a).toBe(0);
  });

  it('idle is a ring (a hole in the middle); paused an amber dot with the pause bars cut out', () => {
    const idle = trayBitmap('idle', 32);
    expect(at(idle, 32, 16, 16).a).toBe(0);
    expect(at(idle, 32, 16, 3).a).toBeGreaterThan(200);
    const paused = trayBitmap('paused', 32);
    expect(at(paused, 32, 12, 15).a).toBe(0);
    expect(at(paused, 32, 16, 15)).toEqual({ b: 20, g: 140, r: 214, a: 255 });
  });
});
