// Which replica watches: one at a time. On PostgreSQL the watcher holds a session-level advisory
// lock on a connection of its own; when its process dies the database ends that session and the
// lock is free for the next replica that asks (each asks once per interval). Embedded, this
// process is the only one.

export interface Lease {
  /** Whether this process holds the lease now; takes it when it is free. Never throws. */
  hold(): Promise<boolean>;
  /** Whether it was held at the last `hold()`. */
  held(): boolean;
  release(): Promise<void>;
}

/** The embedded database serves one process: it always watches. */
export function soleLease(): Lease {
  let released = false;
  return {
    hold: async () => !released,
    held: () => !released,
    release: async () => {
      released = true;
    },
  };
}

/** A connection of the lease's own (a pg Client): the lock lives as long as its session. */
export interface LeaseConnection {
  query(sql: string, params?: unknown[]): Promise<Record<string, unknown>[]>;
  end(): Promise<void>;
  /** Called once when the connection fails or ends. */
  onEnd(listener: () => void): void;
}

/** The advisory lock key of the watcher ("qi watch"). */
export const WATCH_LOCK_KEY = 27_000_037;

export function advisoryLease(
  connect: () => Promise<LeaseConnection>,
  options: { key?: number; log?: (line: string) => void } = {},
): Lease {
  const key = options.key ?? WATCH_LOCK_KEY;
  const log = options.log ?? ((line: string) => console.error(line));
  let connection: LeaseConnection | null = null;
  let holding = false;
  let stopped = false;

  const drop = () => {
    const was = connection;
    connection = null;
    if (holding) log('[watch] lost the watcher lease (its database connection ended)');
    holding = false;
    void was?.end().catch(() => {});
  };

  return {
    async hold() {
      if (stopped) return false;
      try {
        if (!connection) {
          const opened = await connect();
          opened.onEnd(() => {
            if (connection === opened) drop();
          });
          connection = opened;
        }
        if (holding) {
          // Still the same session: the lock is still ours.
          await connection.query('SELECT 1');
          return true;
        }
        const [row] = await connection.query('SELECT pg_try_advisory_lock($1) AS taken', [key]);
        holding = row?.taken === true;
        if (holding) log('[watch] this replica watches the systems now');
        return holding;
      } catch {
        drop();
        return false;
      }
    },
    held: () => holding,
    async release() {
      stopped = true;
      const was = connection;
      connection = null;
      holding = false;
      if (was) {
        await was.query('SELECT pg_advisory_unlock_all()').catch(() => {});
        await was.end().catch(() => {});
      }
    },
  };
}

/** A connection of its own to the PostgreSQL at `url`, for `advisoryLease`. */
export async function postgresLeaseConnection(url: string): Promise<LeaseConnection> {
  const { default: pg } = await import('pg');
  // Keep-alive: a replica cut off from the database loses its session (and the lock) in seconds.
  const client = new pg.Client({
    connectionString: url,
    connectionTimeoutMillis: 5000,
    keepAlive: true,
    keepAliveInitialDelayMillis: 5000,
  });
  const ended = new Set<() => void>();
  let done = false;
  const finish = () => {
    if (done) return;
    done = true;
    for (const listener of ended) listener();
  };
  client.on('error', finish);
  client.on('end', finish);
  await client.connect();
  return {
    query: async (sql, params) => (await client.query(sql, params)).rows,
    end: async () => {
      await client.end().catch(() => {});
      finish();
    },
    onEnd: (listener) => {
      ended.add(listener);
    },
  };
}
