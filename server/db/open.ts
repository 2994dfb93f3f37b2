import {
  closeSync,
  existsSync,
  mkdirSync,
  openSync,
  readFileSync,
  rmSync,
  writeSync,
} from 'node:fs';
import path from 'node:path';
import { type Db, openEmbedded, openPostgres } from './engine';
import { migrate } from './migrations';

/** Where the trail is kept: PostgreSQL at `databaseUrl`, else PGlite in `dataDir`. */
export interface TrailLocation {
  databaseUrl?: string | null;
  dataDir: string;
}

export class TrailOpenError extends Error {
  override readonly name = 'TrailOpenError';
}

/** `postgres://user:***@host/db`: a database URL as it can be printed. */
export function redactDatabaseUrl(value: string): string {
  return value.replace(/^([a-z][a-z0-9+.-]*:\/\/[^:/?#@]*):[^@/?#]*@/i, '$1:***@');
}

/** DATABASE_URL checked at start-up: a one-line problem, or null when it is usable. */
export function databaseUrlProblem(value: string): string | null {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return `DATABASE_URL is not a valid URL: ${redactDatabaseUrl(value)}`;
  }
  if (url.protocol !== 'postgres:' && url.protocol !== 'postgresql:') {
    return `DATABASE_URL must start with postgres:// or postgresql://, not ${url.protocol}`;
  }
  return null;
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Takes `<dataDir>/portal.lock` for this process. The embedded database is for one process: a
 * second server on the same folder is refused, naming the first; a lock left by a process that
 * has died is taken over. Returns the release function.
 */
export function lockDataDir(dataDir: string): () => void {
  const file = path.join(dataDir, 'portal.lock');
  for (let tries = 0; tries < 2; tries++) {
    try {
      const fd = openSync(file, 'wx');
      writeSync(fd, String(process.pid));
      closeSync(fd);
      const release = () => {
        process.off('exit', release);
        rmSync(file, { force: true });
      };
      // However the process ends (a signal's exit, an error), the lock goes with it.
      process.on('exit', release);
      return release;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const pid = Number(readFileSync(file, 'utf8').trim());
      if (Number.isSafeInteger(pid) && pid > 0 && alive(pid)) {
        throw new TrailOpenError(
          `Another portal server (process ${pid}) is using DATA_DIR ${dataDir}: the embedded database serves one process. Stop it, give this one its own DATA_DIR, or set DATABASE_URL so several servers share a PostgreSQL.`,
        );
      }
      rmSync(file, { force: true });
    }
  }
  throw new TrailOpenError(`Could not lock DATA_DIR ${dataDir} (${file}).`);
}

function oneLine(error: unknown): string {
  return ((error instanceof Error ? error.message : String(error)).split('\n')[0] ?? '').trim();
}

/** Opens the trail's database and brings its schema up to date; a TrailOpenError says why not. */
export async function openTrail(location: TrailLocation): Promise<{ db: Db; where: string }> {
  if (location.databaseUrl) {
    const shown = redactDatabaseUrl(location.databaseUrl);
    let db: Db | null = null;
    try {
      db = await openPostgres(location.databaseUrl);
      await migrate(db);
      return { db, where: `PostgreSQL at ${shown}` };
    } catch (error) {
      await db?.close().catch(() => {});
      throw new TrailOpenError(
        `The audit trail's database (DATABASE_URL ${shown}) could not be used: ${oneLine(error)}`,
      );
    }
  }
  const dir = path.resolve(location.dataDir);
  try {
    if (!existsSync(dir)) mkdirSync(dir, { recursive: true });
  } catch (error) {
    throw new TrailOpenError(`DATA_DIR ${dir} could not be created: ${oneLine(error)}`);
  }
  const release = lockDataDir(dir);
  let db: Db | null = null;
  try {
    db = await openEmbedded(path.join(dir, 'pglite'));
    await migrate(db);
  } catch (error) {
    await db?.close().catch(() => {});
    release();
    throw new TrailOpenError(
      `The embedded audit database in DATA_DIR ${dir} could not be opened: ${oneLine(error)}`,
    );
  }
  const opened = db;
  const close = async () => {
    try {
      await opened.close();
    } finally {
      release();
    }
  };
  return { db: { ...opened, close }, where: `embedded database in ${dir}` };
}
