// The security scan: Electronegativity over `src` (and the npm scripts of package.json, which
// could pass Chromium switches to Electron). Every finding must be answered by an entry of
// security/electronegativity-exceptions.json — same check, same file, same line of code — with
// a written reason; any other finding fails the scan (exit 1), and so does an entry that no
// longer answers a finding, so the file cannot keep excusing code that has changed.
//
// The scanner is called through its programmatic API: its command line needs an old
// `commander` that it does not declare, and the one installed here does not start it.
// It runs offline: it fetches translations and Electron's release list with `got`, which is
// replaced before the scanner loads by a stub that refuses; the release-list check is left
// out (test/main/security-checklist-window.test.ts, item 16, checks the Electron version), and any
// socket the process opens anyway fails the scan.
import { subscribe } from 'node:diagnostics_channel';
import { readFileSync } from 'node:fs';
import { createRequire, Module } from 'node:module';
import { join, relative, sep } from 'node:path';
import { z } from 'zod';

const root = join(import.meta.dirname, '..');
const exceptionsFile = join(root, 'security', 'electronegativity-exceptions.json');
const scannerDir = join(root, 'node_modules', '@doyensec', 'electronegativity');
const scannerRequire = createRequire(join(scannerDir, 'dist', 'runner.js'));

interface Issue {
  id: string;
  file: string;
  location: { line: number; column: number };
  description: string;
  sample?: string;
  manualReview?: boolean;
}
interface ScanResult {
  globalChecks: number;
  atomicChecks: number;
  errors: { file: string; message: string; tolerable: boolean }[];
  issues: Issue[];
}
type Run = (options: Record<string, unknown>, forCli: boolean) => Promise<ScanResult>;

const exceptionsSchema = z.object({
  exceptions: z.array(
    z.object({
      check: z.string().regex(/^[A-Z0-9_]+$/),
      file: z.string().min(1),
      code: z.string(),
      reason: z.string().min(30),
    }),
  ),
});
type Exception = z.infer<typeof exceptionsSchema>['exceptions'][number];

let sockets = 0;
subscribe('net.client.socket', () => {
  sockets += 1;
});

function cutOffGot(): void {
  const refuse = (): Promise<never> => Promise.reject(new Error('the security scan runs offline'));
  const stub = Object.assign(refuse, { head: refuse, get: refuse });
  const path = scannerRequire.resolve('got');
  const module = new Module(path);
  module.filename = path;
  module.exports = stub;
  module.loaded = true;
  scannerRequire.cache[path] = module;
}

/** The scanner prints one line when its translation download fails; that download is ours to cut. */
async function quietly<T>(work: () => Promise<T>): Promise<T> {
  const log = console.log;
  console.log = (...args: unknown[]) => {
    if (args.length === 1 && args[0] === 'Could not retrieve updated translations for the current locale') return;
    log(...args);
  };
  try {
    return await work();
  } finally {
    console.log = log;
  }
}

const collapse = (text: string) => text.replace(/\s+/g, ' ').trim();

const lineCache = new Map<string, string[]>();
/** What a finding points at: the scanner's own sample, else the line of code at its location. */
function evidence(issue: Issue, file: string): string {
  if (issue.sample && issue.sample.trim() !== '') return collapse(issue.sample);
  if (file === 'N/A' || issue.location.line < 1) return '';
  let lines = lineCache.get(file);
  if (!lines) {
    lines = readFileSync(join(root, file), 'utf8').split('\n');
    lineCache.set(file, lines);
  }
  return collapse(lines[issue.location.line - 1] ?? '');
}

function repoPath(scannedFrom: string, file: string): string {
  if (file === 'N/A') return file;
  return relative(root, join(scannedFrom, file)).split(sep).join('/');
}

async function main(): Promise<number> {
  const exceptions: Exception[] = exceptionsSchema.parse(JSON.parse(readFileSync(exceptionsFile, 'utf8'))).exceptions;
  cutOffGot();
  const run = scannerRequire('./runner.js') as Run;
  const { list_files: listFiles } = scannerRequire('./util/index.js') as {
    list_files: (dir: string) => Promise<string[]>;
  };
  const scannerVersion = (JSON.parse(readFileSync(join(scannerDir, 'package.json'), 'utf8')) as { version: string })
    .version;
  const electronVersion = (
    JSON.parse(readFileSync(join(root, 'node_modules', 'electron', 'package.json'), 'utf8')) as { version: string }
  ).version;

  const base = {
    isSarif: false,
    isRelative: true,
    isVerbose: true,
    electronVersionOverride: electronVersion,
    parserPlugins: [],
  };
  const srcDir = join(root, 'src');
  const src = await quietly(() =>
    run({ ...base, input: srcDir, customScan: [], excludeFromScan: ['availablesecurityfixesglobalcheck'] }, false),
  );
  // The JSON checks alone: the source-wide checks (CSP, navigation, permissions) would report
  // their absence from a lone package.json.
  const pkg = await quietly(() =>
    run(
      {
        ...base,
        input: join(root, 'package.json'),
        customScan: ['customargumentsjsoncheck', 'securitywarningsdisabledjsoncheck'],
        excludeFromScan: [],
      },
      false,
    ),
  );
  const files = (await listFiles(srcDir)).length + 1;

  const findings = [
    ...src.issues.map((issue) => ({ issue, file: repoPath(srcDir, issue.file) })),
    ...pkg.issues.map((issue) => ({ issue, file: repoPath(root, issue.file) })),
  ];
  const errors = [...src.errors, ...pkg.errors];
  console.log(
    `security scan: electronegativity ${scannerVersion}, ${src.globalChecks + src.atomicChecks} checks over ${files} files (src, package.json), Electron ${electronVersion}`,
  );

  const used = new Set<Exception>();
  const unanswered: string[] = [];
  for (const { issue, file } of findings) {
    const code = evidence(issue, file);
    const answer = exceptions.find((e) => e.check === issue.id && e.file === file && collapse(e.code) === code);
    if (answer) {
      used.add(answer);
      continue;
    }
    const where = file === 'N/A' ? 'whole app' : `${file}:${issue.location.line}`;
    unanswered.push(
      `  ${issue.id}${issue.manualReview ? ' (review)' : ''}  ${where}\n    ${collapse(issue.description)}\n    code: ${code || '(none)'}`,
    );
  }
  const stale = exceptions.filter((e) => !used.has(e));

  for (const line of unanswered) console.log(`unanswered finding:\n${line}`);
  for (const e of stale)
    console.log(
      `exception answers no finding (remove it or bring it up to date):\n  ${e.check}  ${e.file}\n    code: ${e.code}`,
    );
  for (const e of errors)
    console.log(`${e.tolerable ? 'parse warning' : 'not scanned (parse error)'}: ${e.file}: ${e.message}`);
  if (sockets > 0) console.log(`the scan opened ${sockets} network connection(s); it must run offline`);
  console.log(
    `security scan: ${findings.length} findings, ${findings.length - unanswered.length} answered, ${unanswered.length} unanswered`,
  );

  const failed =
    unanswered.length > 0 || stale.length > 0 || errors.some((e) => !e.tolerable) || sockets > 0 || files < 2;
  return failed ? 1 : 0;
}

process.exitCode = await main();
