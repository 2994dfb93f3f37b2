import { afterAll, describe, expect, it } from 'vitest';
import { type Db, openEmbedded, openPostgres } from '../db/engine';
import { migrate } from '../db/migrations';
import { postgresAvailable, startTestPostgres, type TestPostgres } from '../db/test-postgres';
import { listClaims, takeClaim } from './queries';

let server: TestPostgres | null = null;
const opened: Db[] = [];
afterAll(async () => {
  for (const db of opened) await db.close();
  await server?.stop();
});

/** `replicas` connections to one database: one PGlite, or as many pools to one PostgreSQL. */
const engines: { name: string; open: (replicas: number) => Promise<Db[]> }[] = [
  {
    name: 'embedded (PGlite)',
    open: async () => {
      const db = await openEmbedded(null);
      await migrate(db);
      return [db];
    },
  },
  {
    name: 'PostgreSQL',
    open: async (replicas) => {
      server ??= await startTestPostgres();
      const url = await server.createDatabase();
      const dbs = await Promise.all(Array.from({ length: replicas }, () => openPostgres(url)));
      await migrate(dbs[0] as Db);
      return dbs;
    },
  },
];

describe.each(engines)('MAX_CLAIMS on $name', ({ name, open }) => {
  it.skipIf(name === 'PostgreSQL' && !postgresAvailable())(
    'holds when one reviewer claims 60 questions at once, across replicas',
    async () => {
      const dbs = await open(2);
      opened.push(...dbs);
      const max = 50;
      const results = await Promise.all(
        Array.from({ length: 60 }, (_, i) =>
          takeClaim(
            dbs[i % dbs.length] as Db,
            { sourceId: 'reflexio', questionId: `q${i}`, reviewer: 'alice@x', reviewerName: null },
            15,
            max,
          ),
        ),
      );
      const held = (await listClaims(dbs[0] as Db)).filter((c) => c.reviewer === 'alice@x');
      expect(held.length).toBe(max);
      expect(results.filter((r) => r.ok).length).toBe(max);
      expect(results.filter((r) => !r.ok && r.reason === 'limit').length).toBe(10);
    },
    60_000,
  );
});
