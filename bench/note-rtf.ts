// Reading rtf_output grows linearly: 1 MB and 5 MB documents read side by side in one run (a
// reader that copies strings per character, or backtracks, shows as a ratio far above 5).
import { rtfToSections } from '../src/shared/note/index.ts';

const para = String.raw`{\pard Temperature 38.9\'b0C, heart rate 96, \b weight\b0  32 kg \u8212? recheck in 48 h.\par}`;
const doc = (bytes: number) => `{\\rtf1\\ansi{\\fonttbl{\\f0 Arial;}}{\\pard\\b Findings\\par}${para.repeat(Math.ceil(bytes / para.length))}}`;

function best(rtf: string, runs = 5): number {
  let fastest = Infinity;
  for (let i = 0; i < runs; i += 1) {
    const started = performance.now();
    rtfToSections(rtf);
    fastest = Math.min(fastest, performance.now() - started);
  }
  return fastest;
}

const one = best(doc(1_000_000));
const five = best(doc(5_000_000));
const ratio = five / one;
console.log(`rtf_output read: 1 MB ${one.toFixed(0)} ms, 5 MB ${five.toFixed(0)} ms, ratio ${ratio.toFixed(2)} (linear is 5; goal: at most 7.5)`);
process.exitCode = ratio <= 7.5 ? 0 : 1;
