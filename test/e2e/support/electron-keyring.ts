// A Secret Service of one test's own: a private D-Bus session with an unlocked GNOME Keyring,
// both kept in the test's folder. The app keeps its session under one fixed keychain entry, so
// two apps on one keyring would sign each other out; on a private bus each test owns its entry,
// and the entry outlives a killed app, as the desktop keyring does.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { setTimeout as sleep } from 'node:timers/promises';

const START_TIMEOUT_MS = 10_000;

/** An address where no bus listens: libsecret fails at once and the app keeps tokens in memory. */
export const NO_BUS = 'unix:path=/nonexistent/vet-scribe-no-bus';

function have(cmd: string): boolean {
  return spawnSync('sh', ['-c', `command -v ${cmd}`], { stdio: 'ignore' }).status === 0;
}

async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = once(child, 'exit');
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 3_000);
  await exited;
  clearTimeout(timer);
}

export class PrivateKeyring {
  /** DBUS_SESSION_BUS_ADDRESS for the app. */
  readonly address: string;
  private readonly children: ChildProcess[];

  private constructor(address: string, children: ChildProcess[]) {
    this.address = address;
    this.children = children;
  }

  /** Starts one under `dir`, or answers null where its D-Bus or keyring tools are missing. */
  static async start(dir: string): Promise<PrivateKeyring | null> {
    if (!['dbus-daemon', 'dbus-send', 'gnome-keyring-daemon'].every(have)) return null;
    const runtime = join(dir, 'run');
    mkdirSync(runtime, { recursive: true, mode: 0o700 });
    mkdirSync(join(dir, 'data'), { recursive: true });

    const bus = spawn('dbus-daemon', ['--session', '--nofork', '--print-address=1'], {
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    const children: ChildProcess[] = [bus];
    try {
      const address = await Promise.race([
        once(createInterface({ input: bus.stdout }), 'line').then(([line]) => String(line).trim()),
        sleep(START_TIMEOUT_MS).then(() => Promise.reject(new Error('dbus-daemon printed no address'))),
      ]);
      const env = {
        ...process.env,
        DBUS_SESSION_BUS_ADDRESS: address,
        XDG_DATA_HOME: join(dir, 'data'),
        XDG_RUNTIME_DIR: runtime,
      };
      const keyring = spawn('gnome-keyring-daemon', ['--foreground', '--unlock', '--components=secrets'], {
        env,
        stdio: ['pipe', 'ignore', 'ignore'],
      });
      children.push(keyring);
      // --unlock reads the new keyring's password from stdin.
      keyring.stdin.end('test');
      const deadline = Date.now() + START_TIMEOUT_MS;
      while (!PrivateKeyring.served(address)) {
        if (Date.now() > deadline || keyring.exitCode !== null)
          throw new Error('gnome-keyring-daemon did not serve org.freedesktop.secrets');
        await sleep(50);
      }
      return new PrivateKeyring(address, children);
    } catch (e) {
      await Promise.all(children.reverse().map(stopChild));
      throw e;
    }
  }

  private static served(address: string): boolean {
    const r = spawnSync(
      'dbus-send',
      [
        '--session',
        '--dest=org.freedesktop.DBus',
        '--print-reply',
        '/org/freedesktop/DBus',
        'org.freedesktop.DBus.NameHasOwner',
        'string:org.freedesktop.secrets',
      ],
      { env: { ...process.env, DBUS_SESSION_BUS_ADDRESS: address }, encoding: 'utf8' },
    );
    return r.status === 0 && /boolean true/.test(r.stdout);
  }

  async stop(): Promise<void> {
    for (const child of [...this.children].reverse()) await stopChild(child);
  }
}
