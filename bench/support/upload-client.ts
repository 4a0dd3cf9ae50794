// One upload through the app's own client (ServiceClient.upload), alone in its process so its
// memory can be measured: idle RSS before the upload, RSS sampled every 20 ms during it, and
// the kernel's high-water mark (VmHWM) at the end. Prints one JSON line. By the time the app
// uploads it has already talked to the service (sign-in, session, upload URL), so one small
// request to the same origin goes first, so the process is as warm as the app's (the upload itself
// opens its own connection, through node:http: src/main/core/service/upload.ts).
//   node upload-client.ts <presigned-url> <file> <content-type>
import { readFileSync, writeFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { request } from 'undici';
import * as tls from 'node:tls';
import { Network, trustedRoots } from '../../src/main/core/service/network.ts';
import { ServiceClient } from '../../src/main/core/service/client.ts';

export interface UploadClientResult {
  bytes: number;
  ms: number;
  /** CPU time (user + system) this process spent during the upload. */
  cpuMs: number;
  idleRss: number;
  peakSampledRss: number;
  samples: number;
  /** VmHWM at the end, in bytes; since the upload began when the peak could be reset. */
  vmHwm: number | null;
  hwmResetBeforeUpload: boolean;
}

// No content type given: none is sent, as the pipeline PUTs (curl -T).
const [url = '', file = '', givenType = ''] = process.argv.slice(2);
const contentType = givenType === '' ? null : givenType;

function vmHwm(): number | null {
  try {
    const kb = /^VmHWM:\s+(\d+) kB$/m.exec(readFileSync('/proc/self/status', 'utf8'))?.[1];
    return kb ? Number(kb) * 1024 : null;
  } catch {
    return null;
  }
}

/** Linux resets the peak RSS when "5" is written to clear_refs, so VmHWM then covers the upload only. */
function resetHwm(): boolean {
  try {
    writeFileSync('/proc/self/clear_refs', '5');
    return true;
  } catch {
    return false;
  }
}

// The network as the app sets it up (src/main/index.ts): the proxy asked for the address (a
// computer without one: DIRECT, after a round trip as to Chromium's resolver) and the roots of
// the system store beside Node's.
const client = new ServiceClient({
  urls: () => ({ agentsUrl: url, scribeUrl: url, agentsApiUrl: url }),
  network: new Network({
    resolveProxy: () => new Promise((resolve) => setImmediate(() => resolve('DIRECT'))),
    ca: () => trustedRoots(tls),
  }),
});
await (await request(`${new URL(url).origin}/scribe/templates/all`)).body.dump();
// Startup's garbage is left behind before the idle figure is taken.
await sleep(300);
const hwmResetBeforeUpload = resetHwm();
const idleRss = process.memoryUsage.rss();
let peak = idleRss;
let samples = 0;
const sampler = setInterval(() => {
  peak = Math.max(peak, process.memoryUsage.rss());
  samples += 1;
}, 20);
let sent = 0;
const cpuBefore = process.cpuUsage();
const started = performance.now();
await client.upload(url, file, contentType, {
  // As the pipeline does: every chunk reports its progress.
  onProgress: (p) => {
    sent = p.sent;
  },
});
const ms = performance.now() - started;
const cpu = process.cpuUsage(cpuBefore);
clearInterval(sampler);
peak = Math.max(peak, process.memoryUsage.rss());
const result: UploadClientResult = {
  bytes: sent,
  ms,
  cpuMs: (cpu.user + cpu.system) / 1000,
  idleRss,
  peakSampledRss: peak,
  samples,
  vmHwm: vmHwm(),
  hwmResetBeforeUpload,
};
process.stdout.write(`${JSON.stringify(result)}\n`);
