// The audit trail's costs (issue 27): what recording adds to an action's round trip on the
// embedded engine, and how fast /portal-api/activity answers a page of 50 over 100,000 entries.
//   node --import tsx bench/audit.ts          (npm run bench:audit)
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createMockBackend } from '../mock/app';
import { createAudit } from '../server/audit';
import { openTrail } from '../server/db/open';
import { type AuditAttempt, insertAttempts } from '../server/db/queries';
import { createPortalApp } from '../server/portal';

const ACTIONS = Number(process.env.BENCH_ACTIONS ?? 200);
const ENTRIES = Number(process.env.BENCH_ENTRIES ?? 100_000);
const PAGES = Number(process.env.BENCH_PAGES ?? 50);

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2
    ? (sorted[mid] as number)
    : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
};

const dir = mkdtempSync(path.join(tmpdir(), 'qi-bench-audit-'));
const { db } = await openTrail({ dataDir: dir });
const identity = { header: 'x-forwarded-email', nameHeader: null };
const audit = createAudit({ db, identity, log: () => {} });
const mock = createMockBackend({ seed: 'empty' });
const headers = { 'x-forwarded-email': 'bench@example.com', 'content-type': 'application/json' };
const withTrail = createPortalApp({
  mock: mock.app,
  around: audit.around,
  portalApi: audit.api,
  log: () => {},
});
const without = createPortalApp({ mock: mock.app, log: () => {} });

async function roundTrips(app: typeof withTrail): Promise<number[]> {
  const ids: string[] = [];
  for (let i = 0; i < ACTIONS; i++) {
    const reply = await app.request('/__mock/questions', {
      method: 'POST',
      headers,
      body: JSON.stringify({ question: `Bench ${i}?`, expires_in_seconds: 3600 }),
    });
    ids.push(((await reply.json()) as { call: { id: string } }).call.id);
  }
  const times: number[] = [];
  for (const id of ids) {
    const started = performance.now();
    const reply = await app.request(`/api/pending_tool_calls/${id}/resolve`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ result: { answer: 'yes' } }),
    });
    await reply.arrayBuffer();
    times.push(performance.now() - started);
    if (reply.status !== 200) throw new Error(`resolve answered ${reply.status}`);
  }
  return times;
}

// Warm both paths once, then alternate so machine load falls on both alike.
await roundTrips(without);
await roundTrips(withTrail);
const plain: number[] = [];
const recorded: number[] = [];
for (let round = 0; round < 3; round++) {
  plain.push(...(await roundTrips(without)));
  recorded.push(...(await roundTrips(withTrail)));
}
const added = median(recorded) - median(plain);
console.log(`action round trip (resolve, in-process, mock upstream), ${plain.length} each:`);
console.log(`  without the trail  median ${median(plain).toFixed(2)} ms`);
console.log(
  `  with the trail     median ${median(recorded).toFixed(2)} ms  (adds ${added.toFixed(2)} ms; budget 5 ms)`,
);

// Fill to ENTRIES, 1,000 per insert, over a year, five reviewers.
const [{ count }] = (await db.query<{ count: number }>(
  'SELECT count(*)::int AS count FROM audit_entries',
)) as [{ count: number }];
const started = Date.now();
for (let done = count; done < ENTRIES; ) {
  const batch: AuditAttempt[] = [];
  for (let i = 0; i < 1000 && done < ENTRIES; i++, done++) {
    batch.push({
      requestId: `bench-${done}`,
      reviewer: `reviewer${done % 5}@example.com`,
      reviewerName: null,
      sourceId: 'reflexio',
      sourceKind: 'reflexio',
      questionId: `q-${done}`,
      action: done % 7 === 0 ? 'edit' : 'answer',
      answer: `Answer number ${done}`,
      answerMode: 'full',
      at: new Date(Date.now() - (ENTRIES - done) * 300_000),
    });
  }
  await insertAttempts(db, batch);
}
console.log(
  `\n${ENTRIES} entries in the trail (filled in ${((Date.now() - started) / 1000).toFixed(1)} s)`,
);

async function pageTimes(query: string): Promise<number[]> {
  const times: number[] = [];
  for (let i = 0; i < PAGES; i++) {
    const t = performance.now();
    const reply = await withTrail.request(`/portal-api/activity?${query}`, { headers });
    await reply.arrayBuffer();
    times.push(performance.now() - t);
  }
  return times;
}
const first = (await (
  await withTrail.request('/portal-api/activity?limit=50', { headers })
).json()) as { nextCursor: number };
const cases: [string, string][] = [
  ['newest 50', 'limit=50'],
  ['50 by one reviewer', 'limit=50&reviewer=reviewer3%40example.com'],
  [
    '50 edits in a month',
    `limit=50&action=edit&from=${new Date(Date.now() - 30 * 86_400_000).toISOString()}`,
  ],
  ['50 from the middle (cursor)', `limit=50&cursor=${Math.floor(first.nextCursor / 2)}`],
  ['50 matching a search', 'limit=50&q=number%209999'],
];
console.log(`/portal-api/activity, ${PAGES} requests each (budget 50 ms median):`);
for (const [label, query] of cases) {
  console.log(`  ${label.padEnd(30)} median ${median(await pageTimes(query)).toFixed(2)} ms`);
}

mock.close();
await db.close();
rmSync(dir, { recursive: true, force: true });
