// Reading rtf_output (src/shared/note/rtf.ts): 1 MB and 5 MB documents read in one run. Goals:
// 5 MB in under a second, and linear growth (a reader that copies strings per character, or a
// regular expression that backtracks, shows as a 5 MB / 1 MB ratio far above 5). Seconds, so it
// prints its figures and conditions and writes no report to bench/results.
//   npm run bench:note-rtf
import { conditions, conditionsMarkdown } from './support/conditions.ts';
import { fixed, verdict } from './support/stats.ts';
import { rtfToSections } from '../src/shared/note/index.ts';

const RUNS = 5;
const FIVE_MB_GOAL_MS = 1000;
const RATIO_GOAL = 7.5;

// A Word-like paragraph: a group, a code-page escape, bold, a \u with its fallback, a field.
const para = String.raw`{\pard Temperature 38.9\'b0C, heart rate 96, \b weight\b0  32 kg \u8212? recheck {\field{\*\fldinst HYPERLINK "https://example.org"}{\fldrslt in 48 h}}.\par}`;
const doc = (bytes: number) =>
  `{\\rtf1\\ansi{\\fonttbl{\\f0 Arial;}}{\\pard\\b Findings\\par}${para.repeat(Math.ceil(bytes / para.length))}}`;

function fastest(rtf: string): number {
  let best = Infinity;
  for (let i = 0; i < RUNS; i += 1) {
    const started = performance.now();
    const sections = rtfToSections(rtf);
    best = Math.min(best, performance.now() - started);
    if (sections[0]?.heading !== 'Findings') throw new Error('the benchmark document was misread');
  }
  return best;
}

const one = fastest(doc(1_000_000));
const five = fastest(doc(5_000_000));
const ratio = five / one;
const met5 = five < FIVE_MB_GOAL_MS;
const metRatio = ratio <= RATIO_GOAL;
console.log(`# rtf_output read\n\n${conditionsMarkdown(conditions())}\n`);
console.log(`| figure | value | goal | verdict |\n| --- | --- | --- | --- |`);
console.log(`| 1 MB, fastest of ${RUNS} | ${fixed(one)} ms | | |`);
console.log(`| 5 MB, fastest of ${RUNS} | ${fixed(five)} ms | < ${FIVE_MB_GOAL_MS} ms | ${verdict(met5)} |`);
console.log(`| 5 MB / 1 MB | ${fixed(ratio, 2)} | ≤ ${RATIO_GOAL} (linear is 5) | ${verdict(metRatio)} |`);
process.exitCode = met5 && metRatio ? 0 : 1;
