// A benchmark's report: Markdown printed to the terminal as it is built and, at the end,
// written to bench/results/<name>.md (overwritten), from where bench/RESULTS.md gathers them.
import { mkdirSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { conditions, conditionsMarkdown, type Conditions } from './conditions.ts';

export const RESULTS_DIR = join(import.meta.dirname, '..', 'results');

export class Report {
  readonly conditions: Conditions;
  private readonly parts: string[] = [];
  private readonly name: string;

  constructor(name: string, title: string) {
    this.name = name;
    this.conditions = conditions();
    this.add(`# ${title}\n\n${conditionsMarkdown(this.conditions)}`);
  }

  add(markdown: string): void {
    this.parts.push(markdown.trimEnd());
    process.stdout.write(`\n${markdown.trimEnd()}\n`);
  }

  table(headers: string[], rows: (string | number)[][]): void {
    const line = (cells: (string | number)[]) => `| ${cells.map(String).join(' | ')} |`;
    this.add([line(headers), line(headers.map(() => '---')), ...rows.map(line)].join('\n'));
  }

  /** Writes the whole report, ending with the load at the end; returns the file's path. */
  write(): string {
    this.add(`Load average (1 min) at the end: ${(Math.round((loadavg()[0] ?? 0) * 100) / 100).toString()}.`);
    mkdirSync(RESULTS_DIR, { recursive: true });
    const file = join(RESULTS_DIR, `${this.name}.md`);
    writeFileSync(file, `${this.parts.join('\n\n')}\n`);
    process.stdout.write(`\nwritten to ${file}\n`);
    return file;
  }
}

/** Progress for the person watching; not part of the report. */
export function progress(line: string): void {
  process.stderr.write(`${line}\n`);
}
