// Stop while the recording session asked for during the consult is still on its way: the engine
// in a child process (support/early-recording-session-child.ts) talks to the sandbox through a recording
// proxy that holds the create's answer back. Stop answers without waiting for it, the job is on
// disk by then, and a kill -9 right after leaves a consult the next start sends exactly once, on
// the session the service made; a kill at any moment of Stop never leaves the trail saying "sent"
// without a job on disk.
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startSandbox } from '../../../../src/sandbox/index.ts';
import { tempDir } from '../../../support/core.ts';
import { startRecordingProxy } from '../../../support/recording-proxy.ts';
import { closedAfterEach } from '../support.ts';

const CHILD = join(import.meta.dirname, '../../../support/early-recording-session-child.ts');

const atEnd = closedAfterEach();

interface Child {
  process: ChildProcessWithoutNullStreams;
  /** Everything it printed so far. */
  out: () => string;
  /** Resolves with the first match of `pattern` in what it prints, or null after `ms`. */
  waitFor: (pattern: RegExp, ms: number) => Promise<RegExpMatchArray | null>;
  kill: () => Promise<void>;
}

function spawnChild(args: string[]): Child {
  const child = spawn(process.execPath, [CHILD, ...args], { stdio: ['pipe', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stdout.on('data', (c: Buffer) => (out += c.toString()));
  child.stderr.on('data', (c: Buffer) => (err += c.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const kill = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    await exited;
  };
  atEnd(kill);
  return {
    process: child,
    out: () => out,
    async waitFor(pattern, ms) {
      for (const end = Date.now() + ms; Date.now() < end;) {
        const m = pattern.exec(out);
        if (m) return m;
        if (child.exitCode !== null) throw new Error(`the child exited (${child.exitCode}):\n${out}\n${err}`);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      return null;
    },
    kill,
  };
}

/** A sandbox behind a recording proxy that carries out every POST /recording-sessions/create and holds its answer. */
async function createsHeld() {
  const sandbox = await startSandbox({ scribeSeconds: 0.3, rateLimitPerMinute: 0 });
  atEnd(() => sandbox.close());
  const proxy = await startRecordingProxy(sandbox);
  atEnd(() => proxy.close());
  proxy.fate = (r) => (r.path.endsWith('/recording-sessions/create') ? 'hold' : undefined);
  return { sandbox, proxy };
}

describe('Stop while the session made during the consult is still on its way', () => {
  it('answers without waiting for it, and a kill -9 right after leaves a consult the next start sends exactly once', async () => {
    const { sandbox, proxy } = await createsHeld();
    const dataDir = tempDir('vet-scribe-early-kill-');
    const urls = JSON.stringify({ ...proxy.urls, ...sandbox.demo });

    const recording = spawnChild(['record', dataDir, urls, 'Kill Bella']);
    const id = (await recording.waitFor(/^recording (\S+)$/m, 30_000))?.[1] ?? '';
    expect(id).not.toBe('');
    // The service has made the session; its answer is held.
    for (const end = Date.now() + 10_000; proxy.held() === 0 && Date.now() < end;)
      await new Promise((resolve) => setTimeout(resolve, 20));
    expect(proxy.held()).toBe(1);
    recording.process.stdin.write('stop\n');
    // A loose bound: Stop makes no call to the service, so even a busy machine answers well within it.
    const stopped = await recording.waitFor(/^(stopped \d+|refused .*)$/m, 2000);
    await recording.kill();
    expect(stopped?.[1] ?? 'no answer', `Stop had not answered after 2 s:\n${recording.out()}`).toMatch(
      /^stopped \d+$/,
    );
    // The answer the killed process waited for goes nowhere.
    proxy.fate = null;
    proxy.release();

    const next = spawnChild(['run', dataDir, urls]);
    const completed = await next.waitFor(new RegExp(`^completed ${id}$`, 'm'), 30_000);
    await next.kill();
    expect(completed, `the consult was not sent after the restart:\n${next.out()}`).not.toBeNull();
    // Sent once: one session (the one made while recording), one upload to it, one scribe request.
    const creates = proxy.find('POST', '/recording-sessions/create');
    expect(creates).toHaveLength(1);
    const recordingSessionId = (creates[0]?.answer as { public_id?: string } | undefined)?.public_id ?? '';
    const puts = proxy.seen.filter((r) => r.method === 'PUT');
    expect(puts).toHaveLength(1);
    expect(decodeURIComponent(puts[0]?.path ?? '')).toContain(`recordings/${recordingSessionId}/`);
    const scribes = proxy.find('POST', '/scribe/request');
    expect(
      scribes.map((r) => (r.json as { recording_session_public_id?: string }).recording_session_public_id),
    ).toEqual([recordingSessionId]);
  }, 90_000);
  it('a kill at any moment of Stop never leaves the trail saying "sent" without the job on disk', async () => {
    const { sandbox, proxy } = await createsHeld();
    const urls = JSON.stringify({ ...proxy.urls, ...sandbox.demo });
    const seen: string[] = [];
    // Kills a few milliseconds apart, so they fall at different points of Stop; the last one after
    // Stop should have answered, whatever the machine is doing.
    for (const pause of [15, 30, 45, 60, 80, 120, 1000]) {
      const dataDir = tempDir('vet-scribe-early-kill-');
      const held = proxy.held();
      const child = spawnChild(['record', dataDir, urls, 'Kill Bella']);
      const id = (await child.waitFor(/^recording (\S+)$/m, 30_000))?.[1] ?? '';
      for (const end = Date.now() + 10_000; proxy.held() === held && Date.now() < end;)
        await new Promise((resolve) => setTimeout(resolve, 20));
      child.process.stdin.write('stop\n');
      await new Promise((resolve) => setTimeout(resolve, pause));
      await child.kill();
      const folder = join(dataDir, 'recordings', id);
      const trail = existsSync(join(folder, 'trail.jsonl')) ? readFileSync(join(folder, 'trail.jsonl'), 'utf8') : '';
      const sent = trail.split('\n').some((line) => line.includes('"action":"sent"'));
      const job = existsSync(join(folder, 'job.json'));
      seen.push(`${pause} ms: ${sent ? 'sent' : 'not sent'}, ${job ? 'job' : 'no job'}`);
      expect(!sent || job, seen.join('; ')).toBe(true);
    }
    console.log(`kills during Stop: ${seen.join('; ')}`);
  }, 120_000);
});
