// CPU time of processes from /proc (Linux only): utime + stime of every thread of a process,
// which is what `top` charges it. Used to tell how much of a core the window and the engine
// take while they record.
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';

let ticksPerSecond: number | null = null;

function clockTicks(): number {
  if (ticksPerSecond === null) {
    const r = spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' });
    const n = Number(r.stdout?.trim());
    // 100 is the value of every Linux build in use; getconf only confirms it.
    ticksPerSecond = r.status === 0 && Number.isInteger(n) && n > 0 ? n : 100;
  }
  return ticksPerSecond;
}

interface Stat {
  ppid: number;
  cpuSeconds: number;
}

function readStat(pid: number): Stat | null {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name (field 2) may hold spaces and parentheses: count fields after its last ')'.
    const rest = text.slice(text.lastIndexOf(')') + 2).split(' ');
    // rest[0] is field 3 (state); utime and stime are fields 14 and 15.
    const ppid = Number(rest[1]);
    const ticks = Number(rest[11]) + Number(rest[12]);
    return { ppid, cpuSeconds: ticks / clockTicks() };
  } catch {
    return null;
  }
}

/** User + system CPU seconds a process has used so far; NaN if it is gone. */
export function cpuSeconds(pid: number): number {
  return readStat(pid)?.cpuSeconds ?? Number.NaN;
}

function cmdline(pid: number): string[] {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean);
  } catch {
    return [];
  }
}

function allPids(): number[] {
  return readdirSync('/proc')
    .filter((n) => /^\d+$/.test(n))
    .map(Number);
}

export interface ProcInfo {
  pid: number;
  args: string[];
}

/** Every process below `root` (children, their children, ...). */
export function descendants(root: number): ProcInfo[] {
  const parent = new Map<number, number>();
  for (const pid of allPids()) {
    const s = readStat(pid);
    if (s) parent.set(pid, s.ppid);
  }
  const found: ProcInfo[] = [];
  const below = new Set([root]);
  // Parents may have larger pids than children after pid wrap-around: loop until stable.
  for (let grew = true; grew;) {
    grew = false;
    for (const [pid, ppid] of parent) {
      if (!below.has(pid) && below.has(ppid)) {
        below.add(pid);
        found.push({ pid, args: cmdline(pid) });
        grew = true;
      }
    }
  }
  return found;
}

/** The Chromium process kind from its `--type=` switch; the browser process has none. */
export function chromiumType(args: string[]): string {
  // Chromium's child processes rewrite their title, so the switches may come as one string.
  const line = args.join(' ');
  const type = /(?:^|\s)--type=(\S+)/.exec(line)?.[1] ?? 'browser';
  if (type !== 'utility') return type;
  const sub = /(?:^|\s)--utility-sub-type=(\S+)/.exec(line)?.[1];
  return sub ? `utility (${sub})` : type;
}

/** The child of this process whose command line holds `marker` (e.g. the host's data folder). */
export function childWith(marker: string): number | null {
  return descendants(process.pid).find((p) => p.args.some((a) => a.includes(marker)))?.pid ?? null;
}
