// DATA_DIR belongs to one server at a time, and only a folder that is empty (or absent) becomes a
// new trail. The lock is a Unix domain socket the holder listens on: while it lives, a connect
// succeeds; once it has died, however it died (kill -9, the OOM killer), the kernel refuses the
// connect. Staleness is the kernel's word, never a process id compared: a container's server is
// process 1 at every start, so a recorded "1" always looked alive.
import { randomUUID } from 'node:crypto';
import {
  existsSync,
  linkSync,
  lstatSync,
  readdirSync,
  renameSync,
  rmSync,
  unlinkSync,
} from 'node:fs';
import { connect, createServer, type Server } from 'node:net';
import path from 'node:path';

export class DataDirError extends Error {
  override readonly name = 'DataDirError';
}

const SOCKET = 'portal.sock';
/** The lock file of earlier versions (a process id): ignored, and removed once the socket is held. */
const LEGACY_LOCK = 'portal.lock';
/** The embedded database's own folder inside DATA_DIR. */
export const DATABASE_FOLDER = 'pglite';
/** What a DATA_DIR may hold besides the database without being someone else's folder. */
const OURS = new Set([
  SOCKET,
  LEGACY_LOCK,
  DATABASE_FOLDER,
  `${DATABASE_FOLDER}.new`,
  'lost+found',
]);
// sun_path holds 108 bytes on Linux, 104 on macOS, with its final NUL.
const MAX_SOCKET_PATH = 103;

export interface DataDirLock {
  /** Whether the socket in DATA_DIR is still this process's (a third server racing could move it). */
  held(): Promise<boolean>;
  release(): void;
}

/** The socket's address as short as it can be said: absolute, or relative to the working folder. */
function socketAddress(file: string): string {
  const relative = path.relative(process.cwd(), file);
  const shortest = relative.length < file.length ? relative : file;
  if (Buffer.byteLength(shortest) > MAX_SOCKET_PATH) {
    throw new DataDirError(
      `DATA_DIR ${path.dirname(file)} is too long a path for its lock (${SOCKET}, at most ${MAX_SOCKET_PATH} bytes): use a shorter one.`,
    );
  }
  return shortest;
}

type Probe = 'alive' | 'dead' | 'gone';

/** Whether something listens on the socket at `address`: the kernel answers, no process id asked. */
function probe(address: string): Promise<Probe> {
  return new Promise((resolve, reject) => {
    const socket = connect(address);
    socket.once('connect', () => {
      socket.destroy();
      resolve('alive');
    });
    socket.once('error', (error: NodeJS.ErrnoException) => {
      socket.destroy();
      if (error.code === 'ECONNREFUSED') resolve('dead');
      else if (error.code === 'ENOENT') resolve('gone');
      else
        reject(
          new DataDirError(
            `The lock ${address} in DATA_DIR could not be checked: ${error.message}`,
          ),
        );
    });
  });
}

/** The token a holder answers every connection with (`held()` asks its own socket). */
function ask(address: string): Promise<string | null> {
  return new Promise((resolve) => {
    let text = '';
    const socket = connect(address);
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => {
      text += chunk;
    });
    socket.once('end', () => resolve(text.trim()));
    socket.once('error', () => resolve(null));
  });
}

function listen(address: string, token: string): Promise<Server | null> {
  return new Promise((resolve, reject) => {
    const server = createServer((socket) => {
      // A probe hangs up without reading: that is no error of the holder's.
      socket.on('error', () => {});
      socket.end(`${token}\n`);
    });
    server.once('error', (error: NodeJS.ErrnoException) => {
      if (error.code === 'EADDRINUSE') resolve(null);
      else reject(new DataDirError(`DATA_DIR could not be locked (${address}): ${error.message}`));
    });
    server.listen(address, () => {
      // The lock never keeps the process alive on its own.
      server.unref();
      resolve(server);
    });
  });
}

/**
 * Moves a lock found dead out of the way. Two servers starting at once on a stale lock may both
 * have found it dead: each moves the file to a name of its own first (a rename is atomic, so only
 * one gets any given file) and checks what it moved. If that was the other's new, live socket, it
 * is put back.
 */
async function clearStale(file: string, address: string): Promise<void> {
  const moved = `${address}.${process.pid}.${randomUUID().slice(0, 8)}`;
  try {
    renameSync(address, moved);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw new DataDirError(
      `The stale lock ${file} could not be moved: ${(error as Error).message}`,
    );
  }
  if ((await probe(moved)) === 'alive') {
    try {
      linkSync(moved, address);
    } catch {
      // A third server has bound meanwhile: it keeps the lock, and the one moved here finds
      // out through held() before it serves.
    }
  }
  rmSync(moved, { force: true });
}

/**
 * Takes DATA_DIR for this process: refused while another server holds it, taken over when the
 * one that held it has died.
 */
export async function lockDataDir(dataDir: string): Promise<DataDirLock> {
  const file = path.join(dataDir, SOCKET);
  const address = socketAddress(file);
  const token = `${process.pid} ${randomUUID()}`;
  for (let tries = 0; tries < 5; tries++) {
    const server = await listen(address, token);
    if (server) {
      const { ino } = lstatSync(address);
      const release = () => {
        process.off('exit', release);
        server.close();
        // Only our own socket: never one a later server has put there.
        try {
          if (lstatSync(address).ino === ino) unlinkSync(address);
        } catch {
          // Already gone.
        }
      };
      // However the process ends short of kill -9 (a signal's exit, an error), the file goes too;
      // after kill -9 it stays, and the next start finds it dead.
      process.on('exit', release);
      rmSync(path.join(dataDir, LEGACY_LOCK), { force: true });
      return { held: async () => (await ask(address)) === token, release };
    }
    const found = await probe(address);
    if (found === 'alive') {
      throw new DataDirError(
        `Another portal server is using DATA_DIR ${dataDir} (it listens on ${SOCKET} there): the embedded database serves one process. Stop it, give this one its own DATA_DIR, or set DATABASE_URL so several servers share a PostgreSQL.`,
      );
    }
    if (found === 'dead') await clearStale(file, address);
  }
  throw new DataDirError(`Could not lock DATA_DIR ${dataDir} (${file}): try again.`);
}

function isEmptyFolder(folder: string): boolean {
  return readdirSync(folder).length === 0;
}

/**
 * What the embedded database's folder is: `new` (absent or empty: a trail may be made there) or
 * `existing` (PostgreSQL's data, opened as it is). Anything else is refused, untouched: a folder
 * that lost its PG_VERSION, or a DATA_DIR that holds someone else's files, would otherwise be
 * initialised over and start an empty trail.
 */
export function databaseFolderState(dataDir: string): 'new' | 'existing' {
  const folder = path.join(dataDir, DATABASE_FOLDER);
  const fix =
    'Restore it from a backup, or point DATA_DIR at an empty folder to start a new trail.';
  if (!existsSync(folder)) {
    const foreign = readdirSync(dataDir).filter(
      (name) => !OURS.has(name) && !name.startsWith(`${SOCKET}.`),
    );
    if (foreign.length > 0) {
      throw new DataDirError(
        `DATA_DIR ${dataDir} is not empty and holds no trail (${foreign.slice(0, 3).join(', ')}${foreign.length > 3 ? ', …' : ''}): nothing was changed. Point DATA_DIR at the folder that holds ${DATABASE_FOLDER}/, or at an empty one.`,
      );
    }
    return 'new';
  }
  if (!lstatSync(folder).isDirectory()) {
    throw new DataDirError(`${folder} is not a folder: nothing was changed. ${fix}`);
  }
  if (isEmptyFolder(folder)) return 'new';
  if (!existsSync(path.join(folder, 'PG_VERSION'))) {
    throw new DataDirError(
      `The embedded database in ${folder} is damaged (no PG_VERSION): nothing was changed. ${fix}`,
    );
  }
  return 'existing';
}
