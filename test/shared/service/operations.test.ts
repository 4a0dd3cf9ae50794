// The table of the service's operations (src/shared/service/operations.ts) against what is
// written of them elsewhere: docs/service.md's table of operations (its numbers, names, methods,
// paths and base addresses), the published operations the app does not call, which the same page
// names in a sentence, and the sandbox, which must serve every one of them where the table says.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  EXTRA_OPERATIONS,
  OPERATIONS,
  operationNumber,
  operationTarget,
  SERVICE_OPERATIONS,
  type ApiOperation,
  type OperationSpec,
  type PublishedOperation,
} from '../../../src/shared/service/index.ts';
import { buildRouter, type ServerParts } from '../../../src/sandbox/server.ts';
import { sandboxPath } from '../../../src/sandbox/routes/common.ts';

const SERVICE_MD = resolve(import.meta.dirname, '../../../docs/service.md');

/** How docs/service.md names each base address in its table. */
const BASE_WORDS: Record<OperationSpec['base'], string> = {
  agentsUrl: 'sign-in host',
  scribeUrl: 'scribing API',
  agentsApiUrl: 'agents API',
  presigned: 'cloud storage',
};

/** An operation's method and path as the page writes them: `GET /templates/all?page=&limit=`. */
function methodAndPath(spec: OperationSpec): string {
  if (spec.base === 'presigned') return `${spec.method} <presigned url>`;
  const query = 'query' in spec && spec.query ? `?${spec.query.map((key) => `${key}=`).join('&')}` : '';
  return `${spec.method} ${spec.path}${query}`;
}

interface DocRow {
  line: number;
  number: string;
  name: string;
  methodAndPath: string;
  base: string;
}

/** The rows of the table under "## The operations", cells stripped of their backticks. */
function documentedRows(markdown: string): DocRow[] {
  const lines = markdown.split('\n');
  const start = lines.findIndex((l) => l.trim() === '## The operations');
  if (start < 0) throw new Error('docs/service.md has no "## The operations" section');
  const rows: DocRow[] = [];
  let inTable = false;
  for (let i = start + 1; i < lines.length; i += 1) {
    const line = lines[i]!.trim();
    if (line.startsWith('## ')) break;
    if (!line.startsWith('|')) {
      if (inTable) break;
      continue;
    }
    inTable = true;
    const cells = line
      .slice(1, -1)
      .split('|')
      .map((c) => c.trim().replace(/^`|`$/g, ''));
    if (cells[0] === '#' || /^-+$/.test(cells[0] ?? '')) continue;
    const [number = '', name = '', path = '', base = ''] = cells;
    rows.push({ line: i + 1, number, name, methodAndPath: path, base });
  }
  return rows;
}

/** What differs between the page's rows and the table, one sentence per difference. */
function differences(rows: readonly DocRow[]): string[] {
  const problems: string[] = [];
  const called = [...OPERATIONS, ...EXTRA_OPERATIONS];
  const documented = rows.map((r) => r.name);
  for (const name of called)
    if (!documented.includes(name)) problems.push(`docs/service.md has no row for the operation ${name}`);
  rows.forEach((row, i) => {
    const where = `docs/service.md line ${row.line} (${row.name})`;
    if (!(called as readonly string[]).includes(row.name)) {
      problems.push(`${where}: no operation of the app is called ${row.name}`);
      return;
    }
    const name = row.name as (typeof called)[number];
    if (called[i] !== name) problems.push(`${where}: the table of operations has ${called[i]} at this place`);
    const number = operationNumber(name) === 0 ? '–' : String(operationNumber(name));
    if (row.number !== number) problems.push(`${where}: numbered "${row.number}", the code numbers it "${number}"`);
    const spec: OperationSpec = SERVICE_OPERATIONS[name];
    if (row.methodAndPath !== methodAndPath(spec))
      problems.push(`${where}: says "${row.methodAndPath}", the table of operations "${methodAndPath(spec)}"`);
    if (row.base !== BASE_WORDS[spec.base])
      problems.push(`${where}: says it is on the ${row.base}, the table of operations on the ${BASE_WORDS[spec.base]}`);
  });
  return problems;
}

const published = Object.keys(SERVICE_OPERATIONS) as PublishedOperation[];
const calledNames: readonly string[] = [...OPERATIONS, ...EXTRA_OPERATIONS];

describe('the table of operations', () => {
  it('agrees with the table of docs/service.md, operation by operation', () => {
    const rows = documentedRows(readFileSync(SERVICE_MD, 'utf8'));
    expect(rows.length).toBeGreaterThan(0);
    expect(differences(rows)).toEqual([]);
  });

  it('names each difference with the line and the operation', () => {
    // Rows as the page would have them, written from the table, then made wrong.
    const rows: DocRow[] = calledNames.map((name, i) => {
      const spec: OperationSpec = SERVICE_OPERATIONS[name as PublishedOperation];
      const n = operationNumber(name as (typeof OPERATIONS)[number]);
      return {
        line: 60 + i,
        number: n === 0 ? '–' : String(n),
        name,
        methodAndPath: methodAndPath(spec),
        base: BASE_WORDS[spec.base],
      };
    });
    expect(differences(rows)).toEqual([]);
    const wrong = rows.map((r) =>
      r.name === 'scribe-get' ? { ...r, methodAndPath: 'GET /scribe/fetch/{id}', base: 'agents API' } : r,
    );
    expect(differences(wrong)).toEqual([
      'docs/service.md line 68 (scribe-get): says "GET /scribe/fetch/{id}", the table of operations "GET /scribe/get/{id}"',
      'docs/service.md line 68 (scribe-get): says it is on the agents API, the table of operations on the scribing API',
    ]);
    expect(differences(rows.map((r) => (r.name === 'upload' ? { ...r, number: '8' } : r)))).toEqual([
      'docs/service.md line 66 (upload): numbered "8", the code numbers it "7"',
    ]);
    expect(differences(rows.filter((r) => r.name !== 'chat'))).toEqual([
      'docs/service.md has no row for the operation chat',
      'docs/service.md line 78 (scribe-all): the table of operations has chat at this place',
      'docs/service.md line 79 (recording-sessions-all): the table of operations has scribe-all at this place',
    ]);
  });

  it('holds the operations the app calls, then those it does not', () => {
    expect(published.slice(0, calledNames.length)).toEqual(calledNames);
    expect(published.slice(calledNames.length)).toEqual([
      'recording-session-get',
      'chat-agent',
      'fast-ddx-agent',
      'fast-treatment-plan-agent',
    ]);
  });

  it('has docs/service.md name each published operation the app does not call', () => {
    const markdown = readFileSync(SERVICE_MD, 'utf8');
    for (const name of published.filter((n) => !calledNames.includes(n)))
      expect(markdown, name).toContain(`\`${methodAndPath(SERVICE_OPERATIONS[name])}\``);
  });

  it('builds a call’s path and query from the table', () => {
    expect(operationTarget('templates', {}, { page: 2, limit: 50 })).toBe('/templates/all?page=2&limit=50');
    expect(operationTarget('scribe-get', { id: 'a b/c' })).toBe('/scribe/get/a%20b%2Fc');
    expect(operationTarget('recording-session-create')).toBe('/recording-sessions/create');
    expect(() => operationTarget('scribe-get')).toThrow('the path parameter "id" is missing');
  });

  it('is what the sandbox serves, each operation at its method and path', () => {
    const router = buildRouter({ options: {}, store: { state: {} }, auth: {}, counters: {} } as unknown as ServerParts);
    const api = published.filter((n): n is ApiOperation => SERVICE_OPERATIONS[n].base !== 'presigned');
    for (const name of api) {
      const { method } = SERVICE_OPERATIONS[name];
      const path = sandboxPath(name).replace(/:[^/]+/g, 'x');
      expect(() => router.match(method, path), `${name}: ${method} ${path}`).not.toThrow();
    }
    expect(sandboxPath('scribe-get')).toBe('/scribe/scribe/get/:id');
    expect(sandboxPath('chat')).toBe('/agents/chat');
    expect(sandboxPath('ddx-agent')).toBe('/agents-api/ddx_agent_v2');
  });
});
