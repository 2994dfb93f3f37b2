// A throwaway PostgreSQL server for tests: TEST_DATABASE_URL when set, else one started with
// Debian's binaries (initdb, pg_ctl) as the `postgres` user in a temporary folder on a free port.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';

export interface TestPostgres {
  /** A fresh, empty database on the server: one per call, so tests do not see each other's rows. */
  createDatabase(): Promise<string>;
  stop(): Promise<void>;
  /**
   * A server this process started (not TEST_DATABASE_URL's): `down` stops it as an outage would
   * (pg_ctl stop -m fast: connections are cut), `up` starts it again on the same port.
   */
  outage: { down(): void; up(): void } | null;
}

/** Whether a server of its own can be started here (the outage tests need one to stop). */
export function ownPostgresAvailable(): boolean {
  return binDir() !== null || (Boolean(process.env.CI) && !process.env.TEST_DATABASE_URL);
}

function binDir(): string | null {
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return null;
  const versions = readdirSync(root)
    .filter((name) => existsSync(path.join(root, name, 'bin', 'initdb')))
    .sort((a, b) => Number(b) - Number(a));
  return versions[0] ? path.join(root, versions[0], 'bin') : null;
}

/** Whether a real PostgreSQL can be had here (CI installs it: see .ci/run). */
/**
 * Whether the PostgreSQL tests can run here. On CI they always run: .ci/run installs the server,
 * and a missing one fails them instead of skipping them unseen.
 */
export function postgresAvailable(): boolean {
  return Boolean(process.env.TEST_DATABASE_URL) || binDir() !== null || Boolean(process.env.CI);
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() =>
        typeof address === 'object' && address ? resolve(address.port) : reject(),
      );
    });
  });
}

const asRoot = typeof process.getuid === 'function' && process.getuid() === 0;

function run(bin: string, args: string[]): void {
  // initdb refuses root: run as the postgres user when this process is root.
  if (asRoot) execFileSync('runuser', ['-u', 'postgres', '--', bin, ...args], { stdio: 'pipe' });
  else execFileSync(bin, args, { stdio: 'pipe' });
}

let counter = 0;

export async function startTestPostgres(options: { own?: boolean } = {}): Promise<TestPostgres> {
  const given = options.own ? undefined : process.env.TEST_DATABASE_URL;
  let adminUrl: string;
  let stopServer = async () => {};
  let outage: TestPostgres['outage'] = null;
  if (given) {
    adminUrl = given;
  } else {
    const bin = binDir();
    if (!bin)
      throw new Error('No PostgreSQL binaries: install postgresql or set TEST_DATABASE_URL');
    const dir = mkdtempSync(path.join(tmpdir(), 'qi-pg-'));
    if (asRoot) execFileSync('chown', ['postgres', dir]);
    const port = await freePort();
    const data = path.join(dir, 'data');
    run(path.join(bin, 'initdb'), ['-D', data, '-A', 'trust', '-U', 'postgres', '--no-sync']);
    const start = () =>
      run(path.join(bin, 'pg_ctl'), [
        '-D',
        data,
        '-o',
        `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off`,
        '-l',
        path.join(dir, 'log'),
        '-w',
        'start',
      ]);
    start();
    outage = {
      down: () => run(path.join(bin, 'pg_ctl'), ['-D', data, '-m', 'fast', '-w', 'stop']),
      up: start,
    };
    adminUrl = `postgres://postgres@127.0.0.1:${port}/postgres`;
    stopServer = async () => {
      try {
        run(path.join(bin, 'pg_ctl'), ['-D', data, '-m', 'immediate', '-w', 'stop']);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    };
  }
  const created: string[] = [];
  return {
    async createDatabase() {
      const name = `qi_test_${process.pid}_${Date.now()}_${counter++}`;
      const admin = new pg.Client({ connectionString: adminUrl });
      await admin.connect();
      try {
        await admin.query(`CREATE DATABASE ${name}`);
      } finally {
        await admin.end();
      }
      created.push(name);
      const url = new URL(adminUrl);
      url.pathname = `/${name}`;
      return url.href;
    },
    async stop() {
      if (given) {
        const admin = new pg.Client({ connectionString: adminUrl });
        await admin.connect();
        for (const name of created) {
          await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`).catch(() => {});
        }
        await admin.end();
      }
      await stopServer();
    },
    outage,
  };
}
