// Gathers the last report of each benchmark (bench/results/<name>.md) into bench/RESULTS.md,
// with a summary of every goal first. Nothing is typed in: each line of the summary is read
// from the report it names.
//   node bench/gather-results.ts
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const DIR = import.meta.dirname;
const NAMES = [
  'upload',
  'recording',
  'startup',
  'startup-busy',
  'pipeline',
  'faults',
  'consults-list',
  'day',
  'startup-engine',
  'stop-upload',
  'stop-upload-latency-150',
  'pims',
  'relay',
] as const;

const sections: string[] = [];
const goals: string[] = [];
for (const name of NAMES) {
  const file = join(DIR, 'results', `${name}.md`);
  if (!existsSync(file)) throw new Error(`no report for ${name}: run npm run bench:${name} first`);
  const text = readFileSync(file, 'utf8').trim();
  const date = /^- date: (.+)$/m.exec(text)?.[1] ?? 'unknown date';
  // Every table row that carries a verdict.
  const verdicts = text.split('\n').filter((l) => l.startsWith('|') && /\b(NOT met|met)\b/.test(l));
  const missed = verdicts.filter((l) => l.includes('NOT met')).length;
  goals.push(`| ${name} | ${date} | ${verdicts.length - missed} | ${missed} |`);
  // The report's headings go one level down under its own section.
  sections.push(text.replace(/^(#+) /gm, '#$1 '));
}

const out = [
  '# Benchmark results',
  '',
  'One run of each benchmark on one machine, as its report wrote it (`npm run bench:<name>`, then',
  '`node bench/gather-results.ts`). Conditions are given in each report; what fell short of its',
  'goal says **NOT met** in its table.',
  '',
  '| benchmark | run at | verdicts met | verdicts NOT met |',
  '| --- | --- | --- | --- |',
  ...goals,
  '',
  // What the runs showed and what was done about it, written after reading the reports.
  ...(existsSync(join(DIR, 'results', 'notes.md'))
    ? [readFileSync(join(DIR, 'results', 'notes.md'), 'utf8').trim(), '']
    : []),
  ...sections.flatMap((s) => [s, '']),
].join('\n');
writeFileSync(join(DIR, 'RESULTS.md'), out);
console.log(`bench/RESULTS.md: ${NAMES.length} reports`);
