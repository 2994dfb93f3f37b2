// Each Insights figure against numbers worked out by hand (in the comments), on the embedded
// engine, on a real PostgreSQL, and on the demo's in-memory version of the same definitions.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Db, openEmbedded, openPostgres } from '../db/engine';
import { migrate } from '../db/migrations';
import { postgresAvailable, startTestPostgres, type TestPostgres } from '../db/test-postgres';
import { type InsightsFilter, type InsightsStore, parseInsightsQuery } from './core';
import {
  type ClaimRecord,
  type EntryRecord,
  type MemoryRecords,
  memoryInsights,
  type QuestionRecord,
} from './memory';
import { sqlInsights } from './queries';
import { writeRecords } from './test-records';

const NOW = Date.now();
const soon = (minutes: number) => new Date(NOW + minutes * 60_000).toISOString();

function question(
  sourceId: string,
  questionId: string,
  firstSeen: string,
  more: Partial<QuestionRecord> = {},
): QuestionRecord {
  return {
    sourceId,
    questionId,
    kind: sourceId,
    asked: `What about ${questionId}?`,
    agent: null,
    user: null,
    tags: [],
    expiresAt: null,
    status: 'pending',
    firstSeen,
    closedSeen: null,
    ...more,
  };
}

const D1 = '2026-03-01T';
const D2 = '2026-03-02T';
const D3 = '2026-03-03T';

/**
 * Nine questions first seen from 1 to 3 March (UTC), one before and one after, and four pending
 * now. Letters as in the comments below.
 */
const questions: QuestionRecord[] = [
  // Day 1. A: answered after 120 s.
  question('reflexio', 'r1', `${D1}10:00:00Z`, {
    user: 'u1',
    tags: ['billing'],
    status: 'resolved',
    closedSeen: `${D1}10:02:30Z`,
  }),
  // B: a refused answer at 11:05 does not count; the accepted one at 11:10 does: 600 s.
  question('reflexio', 'r2', `${D1}11:00:00Z`, {
    user: 'u1',
    tags: ['billing', 'urgent'],
    status: 'resolved',
    closedSeen: `${D1}11:10:30Z`,
  }),
  // C: expired; only a claim (not an answer): missed.
  question('vertesia', 'v1', `${D1}12:00:00Z`, {
    agent: 'planner',
    status: 'expired',
    expiresAt: `${D1}12:30:00Z`,
    closedSeen: `${D1}12:31:00Z`,
  }),
  // D: gone from the list after its expiry, no action: missed.
  question('vertesia', 'v2', `${D1}13:00:00Z`, {
    agent: 'planner',
    status: 'closed',
    expiresAt: `${D1}13:20:00Z`,
    closedSeen: `${D1}13:25:00Z`,
  }),
  // Day 2. E: cancelled by the agent, no action: closed otherwise.
  question('bilby', 'c1:t1', `${D2}09:00:00Z`, {
    tags: ['Support chat'],
    status: 'cancelled',
    closedSeen: `${D2}09:30:00Z`,
  }),
  // F: answered after 1800 s, its outcome never recorded (counts: not refused).
  question('reflexio', 'r3', `${D2}10:00:00Z`, {
    user: 'u2',
    status: 'resolved',
    closedSeen: `${D2}10:30:05Z`,
  }),
  // G: not applicable after 30 s.
  question('reflexio', 'r4', `${D2}11:00:00Z`, {
    user: 'u2',
    status: 'not_applicable',
    closedSeen: `${D2}11:00:40Z`,
  }),
  // Day 3. H: still pending, no action: waiting.
  question('reflexio', 'r5', `${D3}08:00:00Z`, {
    user: 'u1',
    tags: ['billing'],
    expiresAt: soon(600),
  }),
  // I: answered 10 s before the watcher first saw it: a wait of 0.
  question('vertesia', 'v3', `${D3}09:00:00Z`, {
    agent: 'writer',
    status: 'resolved',
    closedSeen: `${D3}09:00:30Z`,
  }),
  // Outside the range: J before it (its answer on 1 March is in the range), K after it.
  question('reflexio', 'r0', '2026-02-28T23:00:00Z', {
    status: 'resolved',
    closedSeen: `${D1}00:10:30Z`,
  }),
  question('reflexio', 'r9', '2026-03-04T01:00:00Z', { expiresAt: soon(600) }),
  // Pending now: L expires in 5 minutes, nobody's; M in 5, claimed; N in 20.
  question('reflexio', 'r10', new Date(NOW - 3_600_000).toISOString(), { expiresAt: soon(5) }),
  question('vertesia', 'v4', new Date(NOW - 3_600_000).toISOString(), { expiresAt: soon(5) }),
  question('reflexio', 'r11', new Date(NOW - 3_600_000).toISOString(), { expiresAt: soon(20) }),
];

const entry = (
  at: string,
  reviewer: string,
  sourceId: string,
  questionId: string,
  action: string,
  status: number | null,
): EntryRecord => ({ at, reviewer, reviewerName: null, sourceId, questionId, action, status });

const entries: EntryRecord[] = [
  entry(`${D1}00:10:00Z`, 'alice', 'reflexio', 'r0', 'answer', 200),
  entry(`${D1}10:02:00Z`, 'alice', 'reflexio', 'r1', 'answer', 200),
  entry(`${D1}11:05:00Z`, 'alice', 'reflexio', 'r2', 'answer', 409),
  entry(`${D1}11:10:00Z`, 'carol', 'reflexio', 'r2', 'answer', 200),
  entry(`${D1}12:10:00Z`, 'bob', 'vertesia', 'v1', 'claim', 200),
  entry(`${D2}10:30:00Z`, 'bob', 'reflexio', 'r3', 'answer', null),
  entry(`${D2}11:00:30Z`, 'alice', 'reflexio', 'r4', 'not-applicable', 200),
  entry(`${D3}08:59:50Z`, 'alice', 'vertesia', 'v3', 'answer', 200),
  // After the range.
  entry('2026-03-04T02:00:00Z', 'alice', 'reflexio', 'r9', 'claim', 200),
];

const claims: ClaimRecord[] = [
  { sourceId: 'vertesia', questionId: 'vertesia:v4', expiresAt: soon(15) },
];

async function fill(db: Db): Promise<void> {
  for (const table of ['watched_questions', 'audit_entries', 'audit_outcomes', 'claims']) {
    await db.query(`DELETE FROM ${table}`);
  }
  await writeRecords(db, { questions, entries, claims });
}

function filter(query: string): InsightsFilter {
  const parsed = parseInsightsQuery(new URLSearchParams(query));
  if ('error' in parsed) throw new Error(parsed.error);
  return parsed.filter;
}

const RANGE = 'from=2026-03-01T00:00:00Z&to=2026-03-04T00:00:00Z&tz=UTC';
const EMPTY = {
  asked: 0,
  responded: 0,
  missed: 0,
  closedOtherwise: 0,
  waiting: 0,
  medianWaitSeconds: null,
  p90WaitSeconds: null,
};

let server: TestPostgres | null = null;
afterAll(async () => {
  await server?.stop();
});

const records: MemoryRecords = { questions, entries, claims };
const stores: {
  name: string;
  open: () => Promise<{ store: InsightsStore; close(): Promise<void> }>;
}[] = [
  {
    name: 'embedded (PGlite)',
    open: async () => {
      const db = await openEmbedded(null);
      await migrate(db);
      await fill(db);
      return { store: sqlInsights(db), close: () => db.close() };
    },
  },
  {
    name: 'PostgreSQL',
    open: async () => {
      server ??= await startTestPostgres();
      const db = await openPostgres(await server.createDatabase());
      await migrate(db);
      await fill(db);
      return { store: sqlInsights(db), close: () => db.close() };
    },
  },
  {
    name: 'memory (the static demo)',
    open: async () => ({ store: memoryInsights(() => records), close: async () => {} }),
  },
];

describe.each(stores)('the Insights figures on $name', ({ name, open }) => {
  const skip = name === 'PostgreSQL' && !postgresAvailable();
  let store: InsightsStore;
  let close = async () => {};
  beforeAll(async () => {
    if (skip) return;
    ({ store, close } = await open());
  }, 60_000);
  afterAll(() => close());
  const figures = (query: string, perReviewer = true) =>
    store.figures(filter(query), { perReviewer });

  it.skipIf(skip)(
    'waits per day: median and 90th percentile from first seen to the first action',
    async () => {
      const insights = await figures(RANGE);
      expect(insights.buckets).toEqual([
        // A 120 s, B 600 s: median 360, p90 120 + 0.9 × 480 = 552. C and D missed.
        {
          label: '2026-03-01',
          asked: 4,
          responded: 2,
          missed: 2,
          closedOtherwise: 0,
          waiting: 0,
          medianWaitSeconds: 360,
          p90WaitSeconds: 552,
        },
        // G 30 s, F 1800 s: median 915, p90 30 + 0.9 × 1770 = 1623. E closed otherwise.
        {
          label: '2026-03-02',
          asked: 3,
          responded: 2,
          missed: 0,
          closedOtherwise: 1,
          waiting: 0,
          medianWaitSeconds: 915,
          p90WaitSeconds: 1623,
        },
        // I 0 s (answered before first seen); H waiting.
        {
          label: '2026-03-03',
          asked: 2,
          responded: 1,
          missed: 0,
          closedOtherwise: 0,
          waiting: 1,
          medianWaitSeconds: 0,
          p90WaitSeconds: 0,
        },
      ]);
      // Waits 0, 30, 120, 600, 1800: median 120; p90 at 3.6: 600 + 0.6 × 1200 = 1320.
      expect(insights.total).toEqual({
        asked: 9,
        responded: 5,
        missed: 2,
        closedOtherwise: 1,
        waiting: 1,
        medianWaitSeconds: 120,
        p90WaitSeconds: 1320,
      });
    },
  );

  it.skipIf(skip)(
    'missed: closed by expiry with no reviewer action, the last closed first',
    async () => {
      const insights = await figures(RANGE);
      expect(insights.missed).toEqual([
        {
          sourceId: 'vertesia',
          kind: 'vertesia',
          questionId: 'v2',
          asked: 'What about v2?',
          agent: 'planner',
          firstSeen: '2026-03-01T13:00:00.000Z',
          closedSeen: '2026-03-01T13:25:00.000Z',
          expiresAt: '2026-03-01T13:20:00.000Z',
        },
        {
          sourceId: 'vertesia',
          kind: 'vertesia',
          questionId: 'v1',
          asked: 'What about v1?',
          agent: 'planner',
          firstSeen: '2026-03-01T12:00:00.000Z',
          closedSeen: '2026-03-01T12:31:00.000Z',
          expiresAt: '2026-03-01T12:30:00.000Z',
        },
      ]);
    },
  );

  it.skipIf(skip)('where the work comes from: per system, agent or user, and tag', async () => {
    const insights = await figures(RANGE);
    expect(insights.bySystem).toEqual([
      { key: 'reflexio', questions: 5 },
      { key: 'vertesia', questions: 3 },
      { key: 'bilby', questions: 1 },
    ]);
    // The unnamed (E) last among equals.
    expect(insights.byAgent).toEqual({
      top: [
        { key: 'u1', questions: 3 },
        { key: 'planner', questions: 2 },
        { key: 'u2', questions: 2 },
        { key: 'writer', questions: 1 },
        { key: '', questions: 1 },
      ],
      others: 0,
    });
    // B counts under both its tags; five questions have none.
    expect(insights.byTag).toEqual({
      top: [
        { key: '', questions: 5 },
        { key: 'billing', questions: 3 },
        { key: 'Support chat', questions: 1 },
        { key: 'urgent', questions: 1 },
      ],
      others: 0,
    });
  });

  it.skipIf(skip)(
    'who did it: every trail entry in the range per reviewer and action, as the Activity page lists them',
    async () => {
      const insights = await figures(RANGE);
      expect(insights.reviewers).toEqual({
        top: [
          {
            reviewer: 'alice',
            reviewerName: null,
            total: 5,
            byAction: { answer: 4, 'not-applicable': 1 },
          },
          { reviewer: 'bob', reviewerName: null, total: 2, byAction: { answer: 1, claim: 1 } },
          { reviewer: 'carol', reviewerName: null, total: 1, byAction: { answer: 1 } },
        ],
        others: 0,
      });
      // Off: no per-person figure at all.
      expect((await figures(RANGE, false)).reviewers).toBeNull();
    },
  );

  it.skipIf(skip)(
    'now: pending per system, the oldest, and those expiring within 10 minutes unclaimed',
    async () => {
      const insights = await figures(RANGE);
      // Reflexio: H, K, L, N; Vertesia: M. Only L expires soon with no claim (M is claimed).
      expect(insights.now.bySystem).toEqual([
        { sourceId: 'reflexio', pending: 4, expiringUnclaimed: 1 },
        { sourceId: 'vertesia', pending: 1, expiringUnclaimed: 0 },
      ]);
      expect(insights.now.oldest).toEqual({
        sourceId: 'reflexio',
        kind: 'reflexio',
        questionId: 'r5',
        asked: 'What about r5?',
        firstSeen: '2026-03-03T08:00:00.000Z',
      });
    },
  );

  it.skipIf(skip)('filters: one system, one tag, one agent', async () => {
    const vertesia = await figures(`${RANGE}&source=vertesia`);
    expect(vertesia.total).toMatchObject({ asked: 3, responded: 1, missed: 2 });
    expect(vertesia.reviewers?.top.map((r) => [r.reviewer, r.total])).toEqual([
      ['alice', 1],
      ['bob', 1],
    ]);
    expect(vertesia.now.bySystem).toEqual([
      { sourceId: 'vertesia', pending: 1, expiringUnclaimed: 0 },
    ]);

    // A, B, H; the trail's entries on r1 and r2 (alice's refused one included).
    const billing = await figures(`${RANGE}&tag=billing`);
    expect(billing.total).toEqual({
      asked: 3,
      responded: 2,
      missed: 0,
      closedOtherwise: 0,
      waiting: 1,
      medianWaitSeconds: 360,
      p90WaitSeconds: 552,
    });
    expect(billing.reviewers?.top.map((r) => [r.reviewer, r.total])).toEqual([
      ['alice', 2],
      ['carol', 1],
    ]);
    expect(billing.now.bySystem).toEqual([
      { sourceId: 'reflexio', pending: 1, expiringUnclaimed: 0 },
    ]);

    const planner = await figures(`${RANGE}&agent=planner`);
    expect(planner.total).toMatchObject({ asked: 2, missed: 2 });
    expect(planner.missed.map((m) => m.questionId)).toEqual(['v2', 'v1']);
    expect(planner.reviewers?.top).toEqual([
      { reviewer: 'bob', reviewerName: null, total: 1, byAction: { claim: 1 } },
    ]);
  });

  it.skipIf(skip)(
    'days are the reader’s: in Kiritimati (UTC+14) 1 March’s questions fall on the 2nd',
    async () => {
      const insights = await figures(RANGE.replace('tz=UTC', 'tz=Pacific/Kiritimati'));
      // The range is 1 March 14:00 to 4 March 14:00 there.
      expect(insights.buckets.map((b) => [b.label, b.asked])).toEqual([
        ['2026-03-01', 0],
        ['2026-03-02', 5],
        ['2026-03-03', 4],
        ['2026-03-04', 0],
      ]);
    },
  );

  it.skipIf(skip)('two days or less are counted by the hour, empty hours included', async () => {
    const insights = await figures('from=2026-03-01T10:00:00Z&to=2026-03-01T14:30:00Z&tz=UTC');
    expect(insights.buckets.map((b) => [b.label, b.asked, b.responded, b.missed])).toEqual([
      ['2026-03-01T10:00', 1, 1, 0],
      ['2026-03-01T11:00', 1, 1, 0],
      ['2026-03-01T12:00', 1, 0, 1],
      ['2026-03-01T13:00', 1, 0, 1],
      ['2026-03-01T14:00', 0, 0, 0],
    ]);
    expect(insights.buckets[4]).toEqual({ label: '2026-03-01T14:00', ...EMPTY });
  });

  it.skipIf(skip)(
    'the night the clocks go forward in Paris has no 02:00 but keeps its place',
    async () => {
      // 29 March 2026, 00:00 to 03:00 UTC: 01:00 CET to 05:00 CEST.
      const insights = await figures(
        'from=2026-03-29T00:00:00Z&to=2026-03-29T03:00:00Z&tz=Europe/Paris',
      );
      expect(insights.buckets.map((b) => b.label)).toEqual([
        '2026-03-29T01:00',
        '2026-03-29T02:00',
        '2026-03-29T03:00',
        '2026-03-29T04:00',
      ]);
    },
  );
});
