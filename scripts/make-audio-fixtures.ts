// Builds the audio fixtures under test/fixtures/audio/:
//   consult.wav           a short spoken vet consult (espeak-ng + sox): 48 kHz mono 16-bit PCM,
//                         the format Chromium's --use-file-for-fake-audio-capture reads best
//   mediarecorder-5s/     what Chromium's MediaRecorder really emits for ~5 s of that WAV
//                         (audio/webm;codecs=opus, 32 kbps, 1 s timeslice), one file per chunk,
//                         plus manifest.json with the measured lengths
// Run: node scripts/make-audio-fixtures.ts   (needs espeak-ng, sox, ffmpeg, /usr/bin/chromium)
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright-core';

const root = join(import.meta.dirname, '..');
const outDir = join(root, 'test', 'fixtures', 'audio');
const chunksDir = join(outDir, 'mediarecorder-5s');
const chromiumPath = process.env['CHROMIUM_PATH'] ?? '/usr/bin/chromium';
const recordMs = 5000;

// Two voices so the consult sounds like two people; the sandbox never transcribes it, but a
// human listening to a demo or a failed e2e trace should hear a plausible consult.
const vet = { voice: 'en-gb', speed: 180, pitch: 45 };
const owner = { voice: 'en-us+f3', speed: 175, pitch: 60 };
const lines: Array<[typeof vet, string]> = [
  [vet, 'Morning. What brings Bella in today?'],
  [owner, 'She has vomited four times since yesterday and will not eat.'],
  [vet, 'Any diarrhoea? Could she have eaten something odd?'],
  [owner, 'No diarrhoea. She chewed a rubber toy on Sunday.'],
  [vet, 'Temperature thirty nine point one, and her belly is tender.'],
  [vet, 'Let us X-ray for a foreign body and start maropitant.'],
];

function run(cmd: string, args: string[]): string {
  const r = spawnSync(cmd, args, { encoding: 'utf8' });
  if (r.error) throw new Error(`${cmd}: ${r.error.message}`);
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')} exited ${r.status}: ${r.stderr}`);
  return `${r.stdout}${r.stderr}`;
}

function makeConsultWav(dest: string): void {
  const tmp = mkdtempSync(join(tmpdir(), 'vet-scribe-tts-'));
  try {
    const fmt = ['-r', '48000', '-c', '1', '-b', '16', '-e', 'signed-integer'];
    const parts = [join(tmp, 'lead.wav')];
    run('sox', ['-n', ...fmt, parts[0] ?? '', 'trim', '0', '1.0']);
    lines.forEach(([who, text], i) => {
      const raw = join(tmp, `line-${i}-raw.wav`);
      const part = join(tmp, `line-${i}.wav`);
      run('espeak-ng', ['-v', who.voice, '-s', String(who.speed), '-p', String(who.pitch), '-w', raw, text]);
      // espeak-ng pads each line with silence; trim it, then leave a short pause after each turn.
      const trim = ['silence', '1', '0.02', '0.5%'];
      run('sox', [raw, ...fmt, part, ...trim, 'reverse', ...trim, 'reverse', 'rate', '-v', '48000', 'pad', '0', '0.3']);
      parts.push(part);
    });
    run('sox', [...parts, ...fmt, dest, 'gain', '-n', '-3']);
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}

// getUserMedia needs a secure context; http://127.0.0.1 is one, about:blank is not reliably.
const page = `<!doctype html><meta charset="utf-8"><title>record</title><script>
window.record = async (ms) => {
  const stream = await navigator.mediaDevices.getUserMedia({ audio: true });
  const rec = new MediaRecorder(stream, { mimeType: 'audio/webm;codecs=opus', audioBitsPerSecond: 32000 });
  const chunks = [];
  let startedAt = 0;
  rec.ondataavailable = (e) => chunks.push(e.data);
  const stopped = new Promise((resolve) => { rec.onstop = resolve; });
  rec.onstart = () => { startedAt = performance.now(); };
  rec.start(1000);
  await new Promise((r) => setTimeout(r, ms));
  rec.stop();
  await stopped;
  const elapsedMs = Math.round(performance.now() - startedAt);
  stream.getTracks().forEach((t) => t.stop());
  const encoded = [];
  for (const c of chunks) {
    const bytes = new Uint8Array(await c.arrayBuffer());
    let s = '';
    for (const b of bytes) s += String.fromCharCode(b);
    encoded.push(btoa(s));
  }
  return { mimeType: rec.mimeType, elapsedMs, chunks: encoded };
};
</script>`;

interface Recorded {
  mimeType: string;
  elapsedMs: number;
  chunks: string[];
}

async function recordWithChromium(wav: string): Promise<Recorded> {
  const server = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(page);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const browser = await chromium.launch({
    executablePath: chromiumPath,
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--use-fake-ui-for-media-stream',
      '--use-fake-device-for-media-stream',
      `--use-file-for-fake-audio-capture=${wav}`,
      '--autoplay-policy=no-user-gesture-required',
      '--disable-background-networking',
      '--disable-component-update',
      '--no-first-run',
      '--disable-sync',
    ],
  });
  try {
    const tab = await browser.newPage();
    await tab.goto(`http://127.0.0.1:${port}/`);
    return await tab.evaluate(
      (ms) => (globalThis as unknown as { record(ms: number): Promise<Recorded> }).record(ms),
      recordMs,
    );
  } finally {
    await browser.close();
    server.close();
  }
}

/** ffprobe's format=duration, verbatim ("N/A" when the container declares none). */
function probeDuration(file: string): string {
  return run('ffprobe', ['-v', 'error', '-show_entries', 'format=duration', '-of', 'default=nw=1:nk=1', file]).trim();
}

/** The timestamp at which a full decode ends: the reference length of the audio. */
function decodedMs(file: string): number {
  const log = run('ffmpeg', ['-hide_banner', '-nostats', '-i', file, '-f', 'null', '-progress', 'pipe:1', '-']);
  const times = [...log.matchAll(/out_time_us=(\d+)/g)].map((m) => Number(m[1]));
  const last = times.at(-1);
  if (last === undefined) throw new Error(`ffmpeg reported no time for ${file}`);
  return Math.round(last / 1000);
}

mkdirSync(outDir, { recursive: true });
const wav = join(outDir, 'consult.wav');
makeConsultWav(wav);
console.log(`consult.wav: ${statSync(wav).size} bytes, ${run('soxi', ['-D', wav]).trim()} s`);

const recorded = await recordWithChromium(wav);
rmSync(chunksDir, { recursive: true, force: true });
mkdirSync(chunksDir, { recursive: true });
const buffers = recorded.chunks.map((b64) => Buffer.from(b64, 'base64'));
buffers.forEach((buf, i) => writeFileSync(join(chunksDir, `chunk-${String(i).padStart(3, '0')}.bin`), buf));

// The store builds exactly this concatenation; it is probed here, not committed.
const tmp = mkdtempSync(join(tmpdir(), 'vet-scribe-webm-'));
try {
  const raw = join(tmp, 'raw.webm');
  writeFileSync(raw, Buffer.concat(buffers));
  const manifest = {
    mimeType: recorded.mimeType,
    timesliceMs: 1000,
    audioBitsPerSecond: 32000,
    recordMs,
    elapsedMs: recorded.elapsedMs,
    decodedMs: decodedMs(raw),
    rawFfprobeDuration: probeDuration(raw),
    chunks: readdirSync(chunksDir)
      .filter((f) => f.endsWith('.bin'))
      .sort()
      .map((file) => ({ file, bytes: statSync(join(chunksDir, file)).size })),
  };
  writeFileSync(join(chunksDir, 'manifest.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  console.log(JSON.stringify(manifest, null, 2));
} finally {
  rmSync(tmp, { recursive: true, force: true });
}
