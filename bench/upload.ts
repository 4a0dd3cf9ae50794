// Upload benchmark: streaming PUT of 20 MB, 200 MB and 1 GB files to the sandbox on loopback,
// through the app's own client (ServiceClient.upload) and, alternately, through curl, each to a
// fresh presigned URL from the real workflow (sign in, create the recording session, generate upload URL).
// Reports median throughput of each, the ratio client/curl (goal >= 0.9), and the peak RSS of
// the client's process above its idle RSS (goal <= 60 MB whatever the size).
//   npm run bench:upload [-- --sizes 20MB,200MB,1GB --runs 5]
import { spawn, spawnSync } from 'node:child_process';
import { randomFillSync } from 'node:crypto';
import { closeSync, mkdtempSync, openSync, readdirSync, rmSync, statfsSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { ServiceClient } from '../src/main/core/service/client.ts';
import { progress, Report } from './support/report.ts';
import { startSandboxProcess } from './support/sandbox-process.ts';
import { fixed, median, verdict } from './support/stats.ts';
import type { UploadClientResult } from './support/upload-client.ts';

const { values: args } = parseArgs({
  options: { sizes: { type: 'string', default: '20MB,200MB,1GB' }, runs: { type: 'string', default: '5' } },
});
const MB = 1e6;
const RATIO_GOAL = 0.9;
const MEMORY_GOAL_MB = 60;

function parseSize(text: string): number {
  const m = /^(\d+(?:\.\d+)?)\s*(MB|GB)$/i.exec(text.trim());
  if (!m) throw new Error(`--sizes takes values such as 20MB or 1GB, not "${text}"`);
  return Math.round(Number(m[1]) * (m[2]!.toUpperCase() === 'GB' ? 1e9 : 1e6));
}
const sizes = args.sizes.split(',').map(parseSize);
const runs = Number(args.runs);
if (!Number.isInteger(runs) || runs < 1) throw new Error('--runs must be a whole number of at least 1');

if (spawnSync('curl', ['--version'], { stdio: 'ignore' }).status !== 0) {
  console.error('curl is needed for the comparison (Debian: apt-get install curl).');
  process.exit(2);
}

interface Ran {
  code: number | null;
  stdout: string;
  stderr: string;
}
function run(cmd: string, argv: string[]): Promise<Ran> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, argv, { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/** Random bytes, so nothing on the way (page cache, a compressing disk) gets an easy ride. */
function makeFile(path: string, size: number): void {
  const block = Buffer.alloc(4 * 1024 * 1024);
  const fd = openSync(path, 'w');
  try {
    for (let written = 0; written < size;) {
      const n = Math.min(block.length, size - written);
      randomFillSync(block, 0, n);
      writeSync(fd, block, 0, n);
      written += n;
    }
  } finally {
    closeSync(fd);
  }
}

const work = mkdtempSync(join(tmpdir(), 'vet-scribe-bench-upload-'));
const biggest = Math.max(...sizes);
// The source file and the sandbox's copy of it exist at once; keep a margin for everything else.
const { bavail, bsize } = statfsSync(work);
const free = bavail * bsize;
if (free < biggest * 2 + 1e9) {
  console.error(
    `Not enough free space in ${tmpdir()}: ${fixed(free / 1e9)} GB free, ${fixed((biggest * 2 + 1e9) / 1e9)} GB needed. Set TMPDIR elsewhere.`,
  );
  rmSync(work, { recursive: true, force: true });
  process.exit(2);
}

const report = new Report('upload', "Upload benchmark: the app's client vs curl, streaming PUT on loopback");
const sandboxDir = join(work, 'sandbox');
const sandbox = await startSandboxProcess({
  dataDir: sandboxDir,
  // A 1 GB PUT must not meet the size limit or an expired address.
  maxUploadBytes: biggest * 2,
  uploadTtlSeconds: 3600,
  rateLimitPerMinute: 0,
});
const uploadsDir = join(sandboxDir, 'uploads');
const clearUploads = () => {
  for (const f of readdirSync(uploadsDir)) rmSync(join(uploadsDir, f), { force: true });
};

const service = new ServiceClient({
  urls: () => ({
    agentsUrl: sandbox.urls.agents_url,
    scribeUrl: sandbox.urls.scribe_url,
    agentsApiUrl: sandbox.urls.agents_api_url,
  }),
});
const signIn = await service.signIn(sandbox.demo.email, sandbox.demo.password);
const token = signIn.accessToken;
const session = await service.createRecordingSession(token, {
  patientName: 'Benchmark',
  description: 'upload benchmark',
  recordingSessionDate: new Date().toISOString().slice(0, 10),
});
const freshUrl = async (_name: string) =>
  (await service.uploadUrl(token, { recordingSessionId: session.id })).uploadUrl;

interface SizeResult {
  size: number;
  client: UploadClientResult[];
  curlMBps: number[];
}
const results: SizeResult[] = [];
const clientScript = join(import.meta.dirname, 'support', 'upload-client.ts');
const startedAll = performance.now();

async function clientRun(file: string, size: number): Promise<UploadClientResult> {
  const url = await freshUrl('client.webm');
  const r = await run(process.execPath, [clientScript, url, file]);
  if (r.code !== 0) throw new Error(`client upload failed (exit ${r.code}): ${r.stderr.trim()}`);
  const result = JSON.parse(r.stdout.trim().split('\n').pop() ?? '{}') as UploadClientResult;
  if (result.bytes !== size) throw new Error(`client sent ${result.bytes} bytes of ${size}`);
  return result;
}

async function curlRun(file: string, size: number): Promise<number> {
  const url = await freshUrl('curl.webm');
  // curl -T with no Content-Type, exactly as the app's client PUTs to a presigned address.
  const r = await run('curl', [
    '-sS',
    '-T',
    file,
    '-o',
    '/dev/null',
    '-w',
    '%{http_code} %{time_total} %{size_upload}',
    url,
  ]);
  const [status, seconds, uploaded] = r.stdout.trim().split(' ');
  if (r.code !== 0 || status !== '200' || Number(uploaded) !== size)
    throw new Error(`curl upload failed (exit ${r.code}, HTTP ${status}, ${uploaded} bytes): ${r.stderr.trim()}`);
  return size / MB / Number(seconds);
}

try {
  for (const size of sizes) {
    const file = join(work, `upload-${size}.bin`);
    progress(`generating ${fixed(size / MB, 0)} MB of random bytes`);
    makeFile(file, size);
    const entry: SizeResult = { size, client: [], curlMBps: [] };
    results.push(entry);
    for (let i = 0; i < runs; i++) {
      // Alternate which goes first, so neither always meets a cache or writeback the other left.
      const order = i % 2 === 0 ? (['client', 'curl'] as const) : (['curl', 'client'] as const);
      for (const who of order) {
        if (who === 'client') {
          const r = await clientRun(file, size);
          entry.client.push(r);
          progress(
            `  ${fixed(size / MB, 0)} MB client #${i + 1}: ${fixed(size / MB / (r.ms / 1000))} MB/s, RSS idle ${fixed(r.idleRss / MB)} MB, peak +${fixed((r.peakSampledRss - r.idleRss) / MB)} MB (sampled), VmHWM +${r.vmHwm === null ? 'n/a' : fixed((r.vmHwm - r.idleRss) / MB)} MB`,
          );
        } else {
          const mbps = await curlRun(file, size);
          entry.curlMBps.push(mbps);
          progress(`  ${fixed(size / MB, 0)} MB curl   #${i + 1}: ${fixed(mbps)} MB/s`);
        }
        clearUploads();
      }
    }
    rmSync(file, { force: true });
  }
  const stats = await sandbox.stats();

  report.add(
    [
      '## Setup',
      '',
      `- sandbox (src/sandbox, \`startSandbox\`) in a process of its own on ${sandbox.origin}, uploads stored on disk in a temporary folder (deleted after each run), size limit raised to ${fixed((biggest * 2) / MB, 0)} MB, upload URLs valid 1 h`,
      `- each run gets a fresh presigned URL from the real workflow (sign-in, create the recording session, generate upload URL); no Content-Type, as the app sends it`,
      "- client: `ServiceClient.upload` (src/main/core/service/client.ts) in a fresh Node process per run, with a progress callback as the pipeline passes; one small request to the sandbox goes first (the app has always talked to the service before it uploads), so the process is as warm as the app's (undici loaded; the upload itself opens its own connection through node:http); its network set up as the app's (src/main/index.ts): the proxy asked for each address (DIRECT, a computer without a proxy) and the system store's roots beside Node's (src/main/core/service/network.ts)",
      '- curl: `curl -T <file> <url>`; throughput from its own `time_total`',
      `- ${runs} runs of each per size, alternating (client first on odd runs, curl first on even ones); files of random bytes; 1 MB = 10^6 bytes`,
      `- the sandbox counted ${stats.byRoute['PUT /storage/:key'] ?? 0} PUTs and ${stats.uploads} completed uploads`,
    ].join('\n'),
  );

  report.add('## Throughput');
  report.table(
    [
      'size',
      'client MB/s (runs)',
      'curl MB/s (runs)',
      'client median',
      'curl median',
      'client/curl (of the medians)',
      `goal >= ${RATIO_GOAL}`,
      "client/curl, median of each run's pair",
      'client CPU, % of one core (median)',
    ],
    results.map((r) => {
      const client = r.client.map((c) => r.size / MB / (c.ms / 1000));
      const ratio = median(client) / median(r.curlMBps);
      return [
        `${fixed(r.size / MB, 0)} MB`,
        client.map((x) => fixed(x)).join(', '),
        r.curlMBps.map((x) => fixed(x)).join(', '),
        fixed(median(client)),
        fixed(median(r.curlMBps)),
        fixed(ratio, 3),
        verdict(ratio >= RATIO_GOAL),
        fixed(median(client.map((c, i) => c / (r.curlMBps[i] ?? Number.NaN))), 3),
        fixed(median(r.client.map((c) => (100 * c.cpuMs) / c.ms)), 0),
      ];
    }),
  );

  report.add(
    [
      '## Memory of the client process',
      '',
      "Idle RSS is taken in the upload process before the upload starts; the peak is the larger of RSS sampled every 20 ms during the upload and the kernel's VmHWM at the end" +
        (results.every((r) => r.client.every((c) => c.hwmResetBeforeUpload))
          ? ' (VmHWM reset through /proc/self/clear_refs just before the upload, so it covers the upload only).'
          : ' (VmHWM could not be reset, so it also covers startup).'),
    ].join('\n'),
  );
  report.table(
    [
      'size',
      'idle RSS (median)',
      'peak − idle, sampled (runs)',
      'VmHWM − idle (runs)',
      'worst peak − idle',
      `goal <= ${MEMORY_GOAL_MB} MB`,
    ],
    results.map((r) => {
      const sampled = r.client.map((c) => (c.peakSampledRss - c.idleRss) / MB);
      const hwm = r.client.map((c) => (c.vmHwm === null ? Number.NaN : (c.vmHwm - c.idleRss) / MB));
      const worst = Math.max(...sampled, ...hwm.filter(Number.isFinite));
      return [
        `${fixed(r.size / MB, 0)} MB`,
        `${fixed(median(r.client.map((c) => c.idleRss / MB)))} MB`,
        sampled.map((x) => fixed(x)).join(', '),
        hwm.map((x) => fixed(x)).join(', '),
        `${fixed(worst)} MB`,
        verdict(worst <= MEMORY_GOAL_MB),
      ];
    }),
  );
  report.add(
    'The pair of a run is its client upload and its curl upload, made one right after the other: their ratio is less swayed by other work on the machine coming and going during the benchmark.',
  );
  report.add(`Wall time: ${fixed((performance.now() - startedAll) / 1000)} s.`);
  report.write();
} finally {
  await sandbox.close();
  rmSync(work, { recursive: true, force: true });
}
