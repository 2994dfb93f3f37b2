// One small query interface over both engines: PGlite (embedded, one process) and PostgreSQL
// through node-postgres (replicas share one trail). Both speak PostgreSQL's SQL, so the schema,
// the migrations and every query are written once.

export type EngineKind = 'embedded' | 'postgres';

export interface Queryable {
  query<T = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<T[]>;
}

export interface Db extends Queryable {
  readonly engine: EngineKind;
  /** Runs `work` in one transaction on one connection. */
  transaction<T>(work: (tx: Queryable) => Promise<T>): Promise<T>;
  close(): Promise<void>;
  /** PostgreSQL only: LISTEN on `channel` over a connection of its own; returns the stop function. */
  listen?(channel: string, onMessage: (payload: string) => void): Promise<() => Promise<void>>;
}

/** PGlite in `dataDir`, or in memory when `dataDir` is null (tests). */
export async function openEmbedded(dataDir: string | null): Promise<Db> {
  const { PGlite } = await import('@electric-sql/pglite');
  // Trigrams for the Activity page's search (migration 2), as PostgreSQL's contrib has them.
  const { pg_trgm } = await import('@electric-sql/pglite/contrib/pg_trgm');
  const options = { extensions: { pg_trgm } };
  const pg = dataDir ? await PGlite.create(dataDir, options) : await PGlite.create(options);
  const run = async <T>(
    target: { query: (sql: string, params?: unknown[]) => Promise<{ rows: unknown[] }> },
    sql: string,
    params?: unknown[],
  ) => (await target.query(sql, params)).rows as T[];
  return {
    engine: 'embedded',
    query: (sql, params) => run(pg, sql, params),
    transaction: (work) =>
      pg.transaction((tx) => work({ query: (sql, params) => run(tx, sql, params) })),
    close: () => pg.close(),
  };
}

/** A pool of connections to the PostgreSQL server at `url` (`postgres://…`). */
export async function openPostgres(url: string): Promise<Db> {
  const { default: pg } = await import('pg');
  // bigint counts and ids arrive as strings by default: they stay well within a double here.
  pg.types.setTypeParser(20, (value: string) => Number(value));
  const pool = new pg.Pool({ connectionString: url, max: 5, connectionTimeoutMillis: 5000 });
  // An idle connection that drops (a database restart) must not crash the server.
  pool.on('error', (error: Error) => console.error(`[db] ${error.message}`));
  return {
    engine: 'postgres',
    query: async (sql, params) => (await pool.query(sql, params)).rows,
    async transaction(work) {
      const client = await pool.connect();
      try {
        await client.query('BEGIN');
        const result = await work({
          query: async (sql, params) => (await client.query(sql, params)).rows,
        });
        await client.query('COMMIT');
        return result;
      } catch (error) {
        await client.query('ROLLBACK').catch(() => {});
        throw error;
      } finally {
        client.release();
      }
    },
    close: () => pool.end(),
    async listen(channel, onMessage) {
      if (!/^[a-z_][a-z0-9_]*$/.test(channel)) throw new Error(`bad channel name ${channel}`);
      let stopped = false;
      let client: InstanceType<typeof pg.Client> | null = null;
      // A dropped connection (a database restart) is opened again, a second later.
      const connect = async (): Promise<void> => {
        const next = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5000 });
        next.on('notification', (message) => {
          if (message.channel === channel && message.payload) onMessage(message.payload);
        });
        next.on('error', (error: Error) => {
          console.error(`[db] listen: ${error.message}`);
          next.end().catch(() => {});
          if (!stopped) setTimeout(() => void connect().catch(() => {}), 1000).unref();
        });
        await next.connect();
        await next.query(`LISTEN ${channel}`);
        client = next;
      };
      await connect();
      return async () => {
        stopped = true;
        await client?.end().catch(() => {});
      };
    },
  };
}
