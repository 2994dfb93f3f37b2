// The Insights page's answer time (issue 39): GET /portal-api/insights over a year of made-up
// history, 100,000 watched questions and 1,000,000 trail entries, on the embedded engine and on
// PostgreSQL (one started for the run, as the tests start theirs; skipped where none can be).
//   node --import tsx bench/insights.ts        (npm run bench:insights)
// Budget: `insightsBudgets` in bench/budgets.json (the slowest of the 24 h, 7 d and 30 d views,
// median of BENCH_RUNS requests each). Exits 1 when over it with --strict.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { type Db, openEmbedded, openPostgres } from '../server/db/engine';
import { migrate } from '../server/db/migrations';
import { postgresAvailable, startTestPostgres } from '../server/db/test-postgres';
import { createInsightsApi } from '../server/insights/core';
import { sqlInsights } from '../server/insights/queries';
import { insightsBudgets } from './bundle-size.ts';
import { seedInsightsHistory } from './insights-seed.ts';
import { budgetsTable, type Figure, judgeAll, stat, type Verdict } from './report.ts';

const QUESTIONS = Number(process.env.BENCH_QUESTIONS ?? 100_000);
const ENTRIES = Number(process.env.BENCH_ENTRIES ?? 1_000_000);
const RUNS = Number(process.env.BENCH_RUNS ?? 15);
const strict = process.argv.includes('--strict');

const identity = { header: 'x-forwarded-email', nameHeader: null };
const headers = { 'x-forwarded-email': 'bench@example.com' };

const DAY = 86_400_000;
function views(now: number): [string, string][] {
  const q = (days: number, extra = '') =>
    `from=${new Date(now - days * DAY).toISOString()}&to=${new Date(now).toISOString()}&tz=Europe/Paris${extra}`;
  return [
    ['24 h', q(1)],
    ['7 d', q(7)],
    ['30 d', q(30)],
    ['7 d, one system', q(7, '&source=vertesia')],
    ['7 d, one tag', q(7, '&tag=tag-7')],
    ['7 d, one agent', q(7, '&agent=agent-3')],
    ['365 d', q(365)],
  ];
}
const JUDGED = ['24 h', '7 d', '30 d'];

async function measure(engine: string, db: Db): Promise<Figure> {
  const started = Date.now();
  await migrate(db);
  await seedInsightsHistory(db, QUESTIONS, ENTRIES);
  console.log(
    `\n${engine}: ${QUESTIONS.toLocaleString('en-US')} questions, ${ENTRIES.toLocaleString('en-US')} trail entries (seeded in ${((Date.now() - started) / 1000).toFixed(1)} s)`,
  );
  const api = createInsightsApi({ store: sqlInsights(db), identity, perReviewer: true });
  const now = Date.now();
  const medians = new Map<string, number>();
  for (const [label, query] of views(now)) {
    const times: number[] = [];
    for (let run = 0; run < RUNS + 1; run++) {
      const t = performance.now();
      const response = await api(
        new Request(`http://bench/portal-api/insights?${query}`, { headers }),
        '/portal-api/insights',
      );
      const body = await response?.text();
      if (response?.status !== 200) throw new Error(`${label}: ${response?.status} ${body}`);
      if (run > 0) times.push(performance.now() - t);
    }
    const figure = stat(times);
    medians.set(label, figure?.median ?? Number.NaN);
    console.log(
      `  ${label.padEnd(18)} median ${figure?.median.toFixed(1)} ms (${figure?.min.toFixed(1)}–${figure?.max.toFixed(1)})`,
    );
  }
  const slowest = Math.max(
    ...JUDGED.map((label) => medians.get(label) ?? Number.POSITIVE_INFINITY),
  );
  return {
    id: engine === 'embedded (PGlite)' ? 'insightsEmbedded' : 'insightsPostgres',
    label: engine,
    unit: 'ms',
    portal: stat([slowest]),
    floor: null,
  };
}

const figures: Figure[] = [];
const dir = mkdtempSync(path.join(tmpdir(), 'qi-bench-insights-'));
try {
  const embedded = await openEmbedded(path.join(dir, 'pglite'));
  try {
    figures.push(await measure('embedded (PGlite)', embedded));
  } finally {
    await embedded.close();
  }
  if (postgresAvailable()) {
    const server = await startTestPostgres();
    try {
      const db = await openPostgres(await server.createDatabase());
      try {
        figures.push(await measure('PostgreSQL', db));
      } finally {
        await db.close();
      }
    } finally {
      await server.stop();
    }
  } else {
    figures.push({
      id: 'insightsPostgres',
      label: 'PostgreSQL',
      unit: 'ms',
      portal: null,
      floor: null,
      skipped: true,
      note: 'no PostgreSQL here (install postgresql or set TEST_DATABASE_URL)',
    });
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
const verdicts: Verdict[] = judgeAll(figures, insightsBudgets);
console.log(`\nThe slowest of ${JUDGED.join(', ')} (median of ${RUNS}):\n`);
console.log(budgetsTable(verdicts));
if (strict && verdicts.some((verdict) => verdict.status === 'FAIL')) process.exit(1);
