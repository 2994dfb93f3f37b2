// One small query interface over both engines: PGlite (embedded, one process) and PostgreSQL
// through node-postgres (replicas share one trail). Both speak PostgreSQL's SQL, so the schema,
// the migrations and every query are written once.

export type EngineKind = 'embedded' | 'postgres';

export interface Queryable {
  query<T = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<T[]>;
}

/** What a LISTEN connection tells: each message, and whenever the link goes down or comes back. */
export interface ChannelHandlers {
  message(payload: string): void;
  /** `up` false: the connection was lost or could not be made (`detail` says why); it is retried. */
  link(up: boolean, detail: string | null): void;
}

/** A channel between processes (PostgreSQL LISTEN/NOTIFY) over a connection of its own. */
export interface Channel {
  /** NOTIFYs these payloads in one statement on the listening connection; rejects while it is down. */
  notify(payloads: readonly string[]): Promise<void>;
  close(): Promise<void>;
}

/** Reconnecting a lost LISTEN connection: the first retry after `firstMs`, doubling up to `maxMs`. */
export const LISTEN_RETRY = { firstMs: 500, maxMs: 5_000 };
/** A LISTEN connection that does not answer a ping within the timeout is taken as lost. */
const PING_EVERY_MS = 10_000;
const PING_TIMEOUT_MS = 5_000;

export interface Db extends Queryable {
  readonly engine: EngineKind;
  /** Runs `work` in one transaction on one connection. */
  transaction<T>(work: (tx: Queryable) => Promise<T>): Promise<T>;
  close(): Promise<void>;
  /**
   * PostgreSQL only: LISTEN on `channel` over a connection of its own, opened again for as long as
   * it takes whenever it is lost (a database restart, a network cut), with back-off.
   */
  listen?(channel: string, handlers: ChannelHandlers): Promise<Channel>;
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
    async listen(channel, handlers) {
      if (!/^[a-z_][a-z0-9_]*$/.test(channel)) throw new Error(`bad channel name ${channel}`);
      let stopped = false;
      let client: InstanceType<typeof pg.Client> | null = null;
      let retry: ReturnType<typeof setTimeout> | null = null;
      let delay = LISTEN_RETRY.firstMs;
      const schedule = () => {
        if (stopped || retry) return;
        // A little jitter: replicas that lost the database together do not all knock at once.
        retry = setTimeout(
          () => {
            retry = null;
            void connect();
          },
          delay * (0.8 + Math.random() * 0.4),
        );
        retry.unref();
        delay = Math.min(delay * 2, LISTEN_RETRY.maxMs);
      };
      const connect = async (): Promise<void> => {
        const next = new pg.Client({
          connectionString: url,
          connectionTimeoutMillis: 5000,
          query_timeout: PING_TIMEOUT_MS,
          keepAlive: true,
        });
        let lost = false;
        let ping: ReturnType<typeof setInterval> | null = null;
        const drop = (error: unknown) => {
          if (lost) return;
          lost = true;
          if (ping) clearInterval(ping);
          if (client === next) client = null;
          next.end().catch(() => {});
          if (stopped) return;
          handlers.link(false, error instanceof Error ? error.message : String(error));
          schedule();
        };
        next.on('notification', (message) => {
          if (message.channel === channel && message.payload) handlers.message(message.payload);
        });
        next.on('error', drop);
        next.on('end', () => drop(new Error('the connection closed')));
        try {
          await next.connect();
          await next.query(`LISTEN ${channel}`);
        } catch (error) {
          drop(error);
          return;
        }
        if (lost) return;
        if (stopped) {
          await next.end().catch(() => {});
          return;
        }
        client = next;
        delay = LISTEN_RETRY.firstMs;
        // A connection cut without a word (no FIN, no RST) is found by asking.
        ping = setInterval(() => {
          next.query('SELECT 1').catch(drop);
        }, PING_EVERY_MS);
        ping.unref();
        handlers.link(true, null);
      };
      await connect();
      return {
        async notify(payloads) {
          if (!client) throw new Error('the link to PostgreSQL is down');
          if (payloads.length === 0) return;
          await client.query('SELECT pg_notify($1, payload) FROM unnest($2::text[]) AS payload', [
            channel,
            payloads,
          ]);
        },
        async close() {
          stopped = true;
          if (retry) clearTimeout(retry);
          const open = client;
          client = null;
          await open?.end().catch(() => {});
        },
      };
    },
  };
}
