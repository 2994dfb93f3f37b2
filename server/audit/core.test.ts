// The trail and the claims as the static demo keeps them (memoryTrail, memoryClaims) answer as
// the server's database does: the same entries through both, asked the same questions.
import { describe, expect, it } from 'vitest';
import type { Db } from '../db/engine';
import { withEmbeddedDb } from '../db/test-db';
import { memoryClaims } from '../team/memory-claims';
import { sqlClaims } from '../team/sql';
import { memoryTrail } from './memory-trail';
import { sqlTrail } from './sql';
import type { AuditAttempt, AuditFilter, TrailStore } from './types';

let db: Db;
withEmbeddedDb((opened) => {
  db = opened;
});

const base = Date.parse('2026-03-01T10:00:00Z');
function attempts(): AuditAttempt[][] {
  const one = (
    index: number,
    fields: Partial<AuditAttempt> & Pick<AuditAttempt, 'questionId' | 'action'>,
  ): AuditAttempt => ({
    requestId: `r${index}`,
    reviewer: 'alice@example.com',
    reviewerName: null,
    sourceId: 'reflexio',
    sourceKind: 'reflexio',
    answer: null,
    answerMode: 'full',
    at: new Date(base + index * 3_600_000),
    ...fields,
  });
  return [
    [one(1, { questionId: 'q1', action: 'answer', answer: 'Yes, 100%_done' })],
    [
      one(2, {
        questionId: 'q1',
        action: 'edit',
        answer: 'No',
        reviewer: 'bob@example.com',
        reviewerName: 'Bob Stone',
      }),
    ],
    [
      one(3, {
        questionId: 'c1:t1',
        action: 'answer',
        answer: 'Tuesday',
        sourceId: 'bilby',
        sourceKind: 'bilby',
      }),
      one(3, {
        questionId: 'c1:t2',
        action: 'not-applicable',
        sourceId: 'bilby',
        sourceKind: 'bilby',
      }),
    ],
    [one(4, { questionId: 'Q2', action: 'cancel' })],
    [
      one(5, {
        questionId: 'v1',
        action: 'answer',
        answer: 'back\\slash',
        sourceId: 'vertesia',
        sourceKind: 'vertesia',
      }),
    ],
    [one(6, { questionId: 'q3', action: 'resolve-json', answer: '{"a":1}', reviewer: 'Reviewer' })],
  ];
}

async function fill(trail: TrailStore) {
  for (const batch of attempts()) {
    await trail.insertAttempts(batch);
    const id = batch[0]?.requestId as string;
    // r4 has no outcome ("outcome unknown"); r5 was refused; a second outcome is ignored.
    if (id === 'r4') continue;
    await trail.insertOutcome({
      requestId: id,
      status: id === 'r5' ? 409 : 200,
      detail: id === 'r5' ? 'taken' : null,
    });
    await trail.insertOutcome({ requestId: id, status: 500, detail: 'late' });
  }
}

const filters: AuditFilter[] = [
  {},
  { sourceId: 'bilby' },
  { questionIds: ['q1', 'Q2'] },
  { reviewer: 'bob@example.com' },
  { action: 'answer' },
  { from: new Date(base + 2 * 3_600_000).toISOString() },
  { to: new Date(base + 3 * 3_600_000).toISOString() },
  { search: 'q1' },
  { search: 'BOB' },
  { search: '%' },
  { search: '_' },
  { search: '\\' },
  { search: 'yes, 100' },
  // Never across two fields.
  { search: 'example.comq' },
  { search: 'stone' },
  { sourceId: 'reflexio', action: 'answer', search: 'yes' },
];

describe('memoryTrail answers as the database does', () => {
  it('the same entries, outcomes, order and pages for every filter', async () => {
    const sql = sqlTrail(db);
    const memory = memoryTrail();
    await fill(sql);
    await fill(memory);
    // Ids differ between the two stores only by where they start.
    const shape = (page: Awaited<ReturnType<TrailStore['listEntries']>>) =>
      page.entries.map(({ id: _, ...entry }) => entry);
    for (const filter of filters) {
      const [fromSql, fromMemory] = await Promise.all([
        sql.listEntries(filter, { cursor: null, limit: 100 }),
        memory.listEntries(filter, { cursor: null, limit: 100 }),
      ]);
      expect(shape(fromMemory), JSON.stringify(filter)).toEqual(shape(fromSql));
      // Page by page, two at a time, the same.
      const walk = async (trail: TrailStore) => {
        const pages: unknown[] = [];
        let cursor: number | null = null;
        do {
          const page = await trail.listEntries(filter, { cursor, limit: 2 });
          pages.push(shape(page));
          cursor = page.nextCursor;
        } while (cursor !== null);
        return pages;
      };
      expect(await walk(memory), JSON.stringify(filter)).toEqual(await walk(sql));
    }
  });
});

describe('memoryClaims holds as the database does', () => {
  it('one holder, renewals, the cap, release by the holder, drop on an answer', async () => {
    for (const store of [sqlClaims(db), memoryClaims()]) {
      const claim = (reviewer: string, questionId: string) =>
        store.take({ sourceId: 'reflexio', questionId, reviewer, reviewerName: null }, 15, 2);
      expect((await claim('alice', 'q1')).ok).toBe(true);
      expect(await claim('bob', 'q1')).toMatchObject({
        ok: false,
        reason: 'held',
        holder: { reviewer: 'alice' },
      });
      expect((await claim('alice', 'q1')).ok).toBe(true);
      expect((await claim('alice', 'q2')).ok).toBe(true);
      expect(await claim('alice', 'q3')).toEqual({ ok: false, reason: 'limit', held: 2 });
      expect((await store.list()).map((c) => [c.questionId, c.reviewer])).toEqual([
        ['q1', 'alice'],
        ['q2', 'alice'],
      ]);
      expect(await store.drop('reflexio', ['q1'], 'bob')).toEqual([]);
      expect((await store.drop('reflexio', ['q1'], 'alice')).map((c) => c.questionId)).toEqual([
        'q1',
      ]);
      expect((await store.drop('reflexio', ['q2'], null)).map((c) => c.reviewer)).toEqual([
        'alice',
      ]);
      expect(await store.list()).toEqual([]);
    }
  });

  it('an expired claim goes to the next reviewer, and prune removes it', async () => {
    let clock = Date.now();
    const store = memoryClaims({ now: () => clock });
    await store.take(
      { sourceId: 'bilby', questionId: 'c:t', reviewer: 'alice', reviewerName: null },
      1,
      5,
    );
    clock += 61_000;
    expect(await store.list()).toEqual([]);
    expect((await store.prune()).map((c) => c.reviewer)).toEqual(['alice']);
    const taken = await store.take(
      { sourceId: 'bilby', questionId: 'c:t', reviewer: 'bob', reviewerName: 'Bob' },
      1,
      5,
    );
    expect(taken).toMatchObject({ ok: true, claim: { reviewer: 'bob', reviewerName: 'Bob' } });
  });
});
