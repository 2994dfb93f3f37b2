import { spawn } from 'node:child_process';
import { createServer } from 'node:net';

/**
 * A port nothing listens on now (the system picks it). The e2e journeys' servers take one each:
 * fixed ports (a base plus the worker's index) met each other once a worker had restarted, and
 * met whatever else the machine ran.
 */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() =>
        typeof address === 'object' && address
          ? resolve(address.port)
          : reject(new Error('no port')),
      );
    });
  });
}

export interface PortalProcess {
  /** Its process id (the flood bench reads its memory from /proc). */
  pid: number;
  /** What it has printed so far (its last 20,000 characters: the request log writes a line each). */
  output(): string;
  /** SIGTERM, then waits for it to exit. */
  stop(): Promise<void>;
}

/**
 * `server/start.ts --production` in a process of its own, as the e2e journeys and the benches
 * that need a portal server with settings of their own start it: it serves the dist/ that is there
 * and never rebuilds it (two servers rebuilding one dist/ at once serve each other half a build).
 * Ready once it says so itself: polling the port could reach another server already there.
 */
export async function startPortalProcess(
  env: NodeJS.ProcessEnv,
  options: { cwd?: string; timeoutMs?: number; mode?: 'production' | 'dev' } = {},
): Promise<PortalProcess> {
  // `dev` (Vite serves the pages) needs no dist/: for tests of the server's own routes.
  const mode = options.mode === 'dev' ? '--dev' : '--production';
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/start.ts', mode], {
    cwd: options.cwd,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const keep = (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-20_000);
  };
  child.stdout.on('data', keep);
  child.stderr.on('data', keep);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      await exited;
    }
  };
  try {
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`portal server did not start:\n${output}`)),
        options.timeoutMs ?? 120_000,
      );
      child.stdout.on('data', () => {
        if (output.includes('is running at')) {
          clearTimeout(timer);
          resolve();
        }
      });
      void exited.then(() => {
        clearTimeout(timer);
        reject(new Error(`portal server exited:\n${output}`));
      });
    });
  } catch (error) {
    await stop();
    throw error;
  }
  return { pid: child.pid as number, output: () => output, stop };
}
