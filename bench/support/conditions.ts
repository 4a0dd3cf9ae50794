// The conditions a benchmark ran under, printed and written beside its figures: figures from a
// shared 2-core VM and from a quiet workstation are not the same figures.
import { readFileSync } from 'node:fs';
import { cpus, loadavg, release, totalmem } from 'node:os';

export interface Conditions {
  date: string;
  cpu: string;
  cores: number;
  ramGiB: number;
  os: string;
  node: string;
  /** 1-minute load average when the benchmark started: other work on the machine skews times. */
  load1: number;
}

function osName(): string {
  try {
    const pretty = /^PRETTY_NAME="?([^"\n]*)"?$/m.exec(readFileSync('/etc/os-release', 'utf8'))?.[1];
    if (pretty) return `${pretty} (${process.platform} ${release()})`;
  } catch {
    // not Linux, or no os-release: the platform name is enough
  }
  return `${process.platform} ${release()}`;
}

export function conditions(): Conditions {
  const list = cpus();
  return {
    date: new Date().toISOString(),
    cpu: list[0]?.model.trim() ?? 'unknown',
    cores: list.length,
    ramGiB: Math.round((totalmem() / 1024 ** 3) * 10) / 10,
    os: osName(),
    node: process.version,
    load1: Math.round((loadavg()[0] ?? 0) * 100) / 100,
  };
}

export function conditionsMarkdown(c: Conditions): string {
  return [
    `- date: ${c.date}`,
    `- machine: ${c.cpu}, ${c.cores} cores, ${c.ramGiB} GiB RAM`,
    `- OS: ${c.os}`,
    `- Node: ${c.node}`,
    `- load average (1 min) at start: ${c.load1}`,
  ].join('\n');
}
