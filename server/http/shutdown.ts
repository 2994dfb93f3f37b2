import type { Server } from 'node:http';
import { logJson } from '../lib/log';

export interface ShutdownOptions {
  /** Hard limit: connections still open then are cut and the process exits 1 (default 10 s). */
  timeoutMs?: number;
  /** Stops what else keeps the process alive (the mock's simulator and sweeper, event streams). */
  beforeClose?: () => void;
  /**
   * Runs once every request in flight has been answered, before the exit (the audit trail's
   * database: an answer in flight still records its outcome).
   */
  afterClose?: () => Promise<void> | void;
  exit?: (code: number) => void;
}

/**
 * Graceful stop on SIGTERM (Kubernetes, docker stop) and SIGINT (Ctrl+C): stop accepting
 * connections, let requests in flight finish, close keep-alive connections as soon as they are
 * idle, run `afterClose`, then exit 0; whatever is still open after `timeoutMs` is cut and the process exits 1. A
 * second signal exits at once.
 */
export function closeGracefullyOnSignals(server: Server, options: ShutdownOptions = {}): void {
  const stop = gracefulStop(server, options);
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
}

/** The stop itself (see closeGracefullyOnSignals); call it again to exit at once. */
export function gracefulStop(
  server: Server,
  options: ShutdownOptions = {},
): (signal: NodeJS.Signals) => void {
  const timeoutMs = options.timeoutMs ?? 10_000;
  const exit = options.exit ?? ((code: number) => process.exit(code));
  let stopping = false;
  const stop = (signal: NodeJS.Signals) => {
    if (stopping) {
      exit(1);
      return;
    }
    stopping = true;
    logJson({ event: 'shutdown', signal, timeoutMs });
    options.beforeClose?.();
    const deadline = setTimeout(() => {
      logJson({ event: 'shutdown-timeout', timeoutMs });
      server.closeAllConnections();
      exit(1);
    }, timeoutMs);
    // A response finished on a keep-alive connection leaves it idle, not closed: close those
    // as they appear, so a client holding one open does not hold the shutdown up.
    const idleSweep = setInterval(() => server.closeIdleConnections(), 100);
    // Requests still arriving on open connections are told to close after their response.
    server.on('request', (_req, res) => res.setHeader('Connection', 'close'));
    server.close(() => {
      clearInterval(idleSweep);
      void Promise.resolve()
        .then(options.afterClose)
        .catch((error: unknown) =>
          logJson({ event: 'shutdown-close-failed', error: String(error) }),
        )
        .finally(() => {
          clearTimeout(deadline);
          logJson({ event: 'stopped' });
          exit(0);
        });
    });
    server.closeIdleConnections();
  };
  return stop;
}
