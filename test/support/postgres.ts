// A throwaway PostgreSQL cluster for one test file: initdb into a temporary folder, started on a
// free port of 127.0.0.1, stopped and deleted afterwards. Debian's server refuses to run as
// root, so as root its tools run as the postgres user. Durability is off (fsync, full pages):
// nothing here outlives the file, and the tests measure concurrency, not disks.
import { spawnSync } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';

const DEBIAN_BINARIES = '/usr/lib/postgresql';

/** The folder holding initdb and pg_ctl: Debian's 15 first, else its newest, else pg_config's. */
export function findPostgresBin(): string | null {
  const usable = (bin: string) => existsSync(join(bin, 'initdb')) && existsSync(join(bin, 'pg_ctl'));
  const versions = existsSync(DEBIAN_BINARIES)
    ? readdirSync(DEBIAN_BINARIES)
        .filter((v) => /^\d+$/.test(v))
        .sort((a, b) => Number(b) - Number(a))
    : [];
  for (const version of ['15', ...versions]) {
    const bin = join(DEBIAN_BINARIES, version, 'bin');
    if (usable(bin)) return bin;
  }
  const config = spawnSync('pg_config', ['--bindir'], { encoding: 'utf8' });
  const bin = config.status === 0 ? config.stdout.trim() : '';
  return bin && usable(bin) ? bin : null;
}

/** Why these tests cannot start a PostgreSQL here, or null when they can. */
export function postgresMissing(): string | null {
  if (findPostgresBin() === null) {
    return `no PostgreSQL server binaries (initdb, pg_ctl) under ${DEBIAN_BINARIES}/<version>/bin or pg_config --bindir: install Debian's postgresql package`;
  }
  if (process.getuid?.() === 0 && spawnSync('id', ['-u', 'postgres']).status !== 0)
    return 'running as root without a postgres user to run the server as';
  return null;
}

export interface TestPostgres {
  port: number;
  /** Creates an empty database and answers its URL (with a password that trust ignores). */
  createDatabase(name: string): Promise<string>;
  stop(): Promise<void>;
}

export async function startPostgres(): Promise<TestPostgres> {
  const bin = findPostgresBin();
  if (bin === null) throw new Error(postgresMissing() ?? 'no PostgreSQL');
  const asRoot = process.getuid?.() === 0;
  const dir = mkdtempSync(join(tmpdir(), 'vet-scribe-pg-'));
  if (asRoot) {
    const id = (flag: string) => Number(spawnSync('id', [flag, 'postgres'], { encoding: 'utf8' }).stdout.trim());
    chownSync(dir, id('-u'), id('-g'));
  }
  const spawnTool = (tool: string, args: string[]) => {
    const [command, ...rest] = asRoot
      ? ['runuser', '-u', 'postgres', '--', join(bin, tool), ...args]
      : [join(bin, tool), ...args];
    return spawnSync(command ?? '', rest, { encoding: 'utf8', timeout: 60_000 });
  };
  const run = (tool: string, args: string[]): void => {
    const done = spawnTool(tool, args);
    if (done.status !== 0)
      throw new Error(`${tool} failed (status ${done.status}): ${done.stderr || done.stdout || done.error?.message}`);
  };
  const data = join(dir, 'data');
  const log = join(dir, 'server.log');
  try {
    run('initdb', ['-D', data, '-A', 'trust', '-U', 'postgres', '-E', 'UTF8', '--no-sync']);
    let port = 0;
    // Another process may take the free port before the server does: try another.
    for (let attempt = 1; ; attempt++) {
      port = await freePort();
      const settings = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c full_page_writes=off -c synchronous_commit=off`;
      try {
        run('pg_ctl', ['-D', data, '-l', log, '-o', settings, '-w', '-t', '60', 'start']);
        break;
      } catch (e) {
        if (attempt >= 3) throw e;
      }
    }
    const url = (database: string) => `postgres://postgres:trust-ignores-this@127.0.0.1:${port}/${database}`;
    return {
      port,
      async createDatabase(name) {
        const admin = new pg.Client({ connectionString: url('postgres') });
        await admin.connect();
        try {
          await admin.query(`CREATE DATABASE "${name}"`);
        } finally {
          await admin.end();
        }
        return url(name);
      },
      async stop() {
        try {
          run('pg_ctl', ['-D', data, '-m', 'immediate', '-w', 'stop']);
        } finally {
          rmSync(dir, { recursive: true, force: true });
        }
      },
    };
  } catch (e) {
    const serverLog = existsSync(log) ? `\nserver log:\n${readFileSync(log, 'utf8')}` : '';
    spawnTool('pg_ctl', ['-D', data, '-m', 'immediate', 'stop']);
    rmSync(dir, { recursive: true, force: true });
    throw new Error(`${(e as Error).message}${serverLog}`, { cause: e });
  }
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}
