// The static demo's Insights page: its worker answers portal-api/insights over the simulated
// history, and the in-memory figures it computes are those the server's SQL computes over the
// same records (so the demo shows what a real portal would).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Db, openEmbedded } from '../server/db/engine';
import { migrate } from '../server/db/migrations';
import { parseInsightsQuery } from '../server/insights/core';
import { memoryInsights } from '../server/insights/memory';
import { sqlInsights } from '../server/insights/queries';
import { writeRecords } from '../server/insights/test-records';
import { demoBackends } from './backends';
import { HISTORY_DAYS, simulatedHistory } from './insights-history';
import { createDemoPortal } from './portal';

const NOW = Date.parse('2026-12-04T15:20:00Z');
const DAY = 86_400_000;

describe('the demo’s simulated history', () => {
  const history = simulatedHistory(NOW);

  it('is a few days of every kind of question, the same for the same hour', () => {
    expect(history.questions.length).toBeGreaterThan(HISTORY_DAYS * 10);
    const statuses = new Set(history.questions.map((q) => q.status));
    for (const status of ['resolved', 'expired', 'cancelled', 'pending']) {
      expect(statuses, status).toContain(status);
    }
    expect(new Set(history.questions.map((q) => q.sourceId))).toEqual(
      new Set(['reflexio', 'vertesia', 'bilby']),
    );
    expect(simulatedHistory(NOW + 60_000)).toEqual(history);
  });

  it('is what the worker’s portal-api/insights answers', async () => {
    const portal = await createDemoPortal({
      backends: demoBackends(),
      cookie: async () => null,
      load: async () => undefined,
      save: async () => {},
      log: () => {},
      now: () => NOW,
    });
    try {
      const query = `from=${new Date(NOW - 7 * DAY).toISOString()}&to=${new Date(NOW).toISOString()}&tz=UTC`;
      const reply = await portal.api(
        new Request(`https://demo.example/portal-api/insights?${query}`),
        '/portal-api/insights',
      );
      expect(reply.status).toBe(200);
      const body = (await reply.json()) as {
        total: { asked: number; responded: number; missed: number };
        reviewers: { top: unknown[] };
      };
      expect(body.total.asked).toBe(history.questions.length);
      expect(body.total.responded).toBeGreaterThan(0);
      expect(body.total.missed).toBeGreaterThan(0);
      expect(body.reviewers.top.length).toBeGreaterThan(1);
    } finally {
      await portal.colleague.reset();
      await portal.team.close();
    }
  });

  describe('computed in memory as the database computes it', () => {
    let db: Db;
    beforeAll(async () => {
      db = await openEmbedded(null);
      await migrate(db);
      await writeRecords(db, history);
    }, 60_000);
    afterAll(() => db?.close());

    it.each([
      ['the last 5 days, Paris', `from=${new Date(NOW - 5 * DAY).toISOString()}&tz=Europe/Paris`],
      ['the last 24 hours by the hour', `from=${new Date(NOW - DAY).toISOString()}&tz=UTC`],
      [
        'one system in New York',
        `from=${new Date(NOW - 3 * DAY).toISOString()}&tz=America/New_York&source=vertesia`,
      ],
      ['one tag', `from=${new Date(NOW - 5 * DAY).toISOString()}&tz=UTC&tag=billing`],
    ])('%s', async (_, query) => {
      const parsed = parseInsightsQuery(
        new URLSearchParams(`${query}&to=${new Date(NOW).toISOString()}`),
      );
      if ('error' in parsed) throw new Error(parsed.error);
      const fromSql = await sqlInsights(db).figures(parsed.filter, { perReviewer: true });
      const fromMemory = await memoryInsights(
        () => history,
        () => NOW,
      ).figures(parsed.filter, { perReviewer: true });
      // "Now" is the database's clock there, the demo's here; the rest must be the same.
      const { now: _sqlNow, ...sql } = fromSql;
      const { now: _memoryNow, ...memory } = fromMemory;
      expect(memory).toEqual(sql);
      expect(sql.total.asked).toBeGreaterThan(0);
    });
  });
});
