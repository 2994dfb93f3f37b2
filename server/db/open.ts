import { existsSync, mkdirSync, renameSync, rmSync } from 'node:fs';
import path from 'node:path';
import { redactSecrets, redactUrl } from '../lib/redact-url';
import {
  DATABASE_FOLDER,
  DataDirError,
  type DataDirLock,
  databaseFolderState,
  lockDataDir,
} from './data-dir';
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

/** `postgres://***@host/db`: a database URL as it can be printed. */
export function redactDatabaseUrl(value: string): string {
  return redactUrl(value);
}

/** DATABASE_URL checked at start-up: a one-line problem, or null when it is usable. */
export function databaseUrlProblem(value: string): string | null {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    // Not echoed: where a parser cannot tell the parts apart, it cannot tell the password either.
    return 'DATABASE_URL is not a valid URL: write it as postgres://user:password@host:5432/database, with any @ # ? / : % in the password percent-encoded (@ is %40).';
  }
  if (url.protocol !== 'postgres:' && url.protocol !== 'postgresql:') {
    return `DATABASE_URL must start with postgres:// or postgresql://, not ${url.protocol}`;
  }
  return null;
}

function oneLine(error: unknown): string {
  return ((error instanceof Error ? error.message : String(error)).split('\n')[0] ?? '').trim();
}

/** The DATA_DIR problem as it is said at start-up; anything else passes through. */
function asOpenError(error: unknown): unknown {
  return error instanceof DataDirError ? new TrailOpenError(error.message) : error;
}

/**
 * A new embedded database, made in a folder of its own and moved into place once whole: a first
 * start stopped half-way (PGlite's initdb takes seconds) leaves no half-made database that a
 * later start would have to refuse.
 */
async function createDatabase(dir: string): Promise<void> {
  const target = path.join(dir, DATABASE_FOLDER);
  const building = path.join(dir, `${DATABASE_FOLDER}.new`);
  rmSync(building, { recursive: true, force: true });
  const made = await openEmbedded(building);
  await made.close();
  // An empty folder may be there already (a volume's mount point): rename replaces an empty one.
  renameSync(building, target);
}

/** Opens the trail's database and brings its schema up to date; a TrailOpenError says why not. */
export async function openTrail(location: TrailLocation): Promise<{ db: Db; where: string }> {
  if (location.databaseUrl) {
    const url = location.databaseUrl;
    const shown = redactDatabaseUrl(url);
    let db: Db | null = null;
    try {
      db = await openPostgres(url);
      await migrate(db);
      return { db, where: `PostgreSQL at ${shown}` };
    } catch (error) {
      await db?.close().catch(() => {});
      throw new TrailOpenError(
        `The audit trail's database (DATABASE_URL ${shown}) could not be used: ${redactSecrets(oneLine(error), url)}`,
      );
    }
  }
  const dir = path.resolve(location.dataDir);
  try {
    if (!existsSync(dir)) mkdirSync(dir, { recursive: true });
  } catch (error) {
    throw new TrailOpenError(`DATA_DIR ${dir} could not be created: ${oneLine(error)}`);
  }
  const lock: DataDirLock = await lockDataDir(dir).catch((error: unknown) => {
    throw asOpenError(error);
  });
  let db: Db | null = null;
  try {
    if (databaseFolderState(dir) === 'new') await createDatabase(dir);
    db = await openEmbedded(path.join(dir, DATABASE_FOLDER));
    await migrate(db);
    // A third server racing this one on a stale lock could have moved this one's socket away.
    if (!(await lock.held()))
      throw new DataDirError(
        `Another portal server took DATA_DIR ${dir} while this one started: the embedded database serves one process.`,
      );
  } catch (error) {
    await db?.close().catch(() => {});
    lock.release();
    if (error instanceof DataDirError) throw asOpenError(error);
    throw new TrailOpenError(
      `The embedded audit database in DATA_DIR ${dir} could not be opened, and was left as it is: ${oneLine(error)}`,
    );
  }
  const opened = db;
  const close = async () => {
    try {
      await opened.close();
    } finally {
      lock.release();
    }
  };
  return { db: { ...opened, close }, where: `embedded database in ${dir}` };
}
