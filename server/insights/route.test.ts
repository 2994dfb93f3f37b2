// The Insights routes as the portal server serves them (portal.ts's guards, start.ts's chain):
// who may read them, what a bad query gets, the CSV of each figure, the per-person switch, and
// that the figures agree with the Activity page over the same trail.
import { afterEach, describe, expect, it } from 'vitest';
import { createMockBackend } from '../../mock/app';
import { createAudit } from '../audit/sql';
import type { Db } from '../db/engine';
import { withEmbeddedDb } from '../db/test-db';
import { createPortalApp } from '../http/portal';
import type { IdentityConfig } from '../identity/identity';
import { readSettings } from '../settings/settings';
import { CSV_FIGURES, createInsightsApi, type InsightsStore } from './core';
import { sqlInsights } from './queries';

const SSO: IdentityConfig = { header: 'x-forwarded-email', nameHeader: null };
const ALICE = { 'x-forwarded-email': 'alice@example.com' };

let db: Db;
withEmbeddedDb((opened) => {
  db = opened;
});
const closers: (() => void)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0)) close();
  await db.query('DELETE FROM watched_questions');
});

function portal(options: { perReviewer?: boolean; store?: InsightsStore } = {}) {
  const mock = createMockBackend({ seed: 'empty' });
  closers.push(mock.close);
  const audit = createAudit({ db, identity: SSO, log: () => {} });
  const insights = createInsightsApi({
    store: options.store ?? sqlInsights(db),
    identity: SSO,
    perReviewer: options.perReviewer ?? true,
    log: () => {},
  });
  const app = createPortalApp({
    mock: mock.app,
    around: audit.around,
    portalApi: async (request, inner) =>
      (await insights(request, inner)) ?? audit.api(request, inner),
    log: () => {},
  });
  return app;
}

const range = () => {
  const now = Date.now();
  return `from=${new Date(now - 86_400_000).toISOString()}&to=${new Date(now + 60_000).toISOString()}&tz=UTC`;
};

/** A question asked through the Reflexio mock, seen by "the watcher" five minutes ago, answered by Alice. */
async function answeredQuestion(app: ReturnType<typeof portal>): Promise<string> {
  const asked = await app.request('/__mock/questions', {
    method: 'POST',
    // Under REVIEWER_HEADER the mock's controls need a signed-in caller too.
    headers: { 'content-type': 'application/json', 'x-forwarded-email': 'operator@example.com' },
    body: JSON.stringify({ question: 'Ship it?', expires_in_seconds: 3600 }),
  });
  const id = ((await asked.json()) as { call: { id: string } }).call.id;
  await db.query(
    `INSERT INTO watched_questions (source_id, question_id, kind, unit_id, asked, status, first_seen)
     VALUES ('reflexio', $1, 'reflexio', $1, 'Ship it?', 'pending', now() - interval '5 minutes')`,
    [id],
  );
  const answered = await app.request(`/api/pending_tool_calls/${id}/resolve`, {
    method: 'POST',
    headers: { ...ALICE, 'content-type': 'application/json' },
    body: JSON.stringify({ result: { answer: 'yes' } }),
  });
  expect(answered.status).toBe(200);
  return id;
}

describe('GET /portal-api/insights', () => {
  it('answers a signed-in reviewer with figures that agree with the Activity page and the CSV', async () => {
    const app = portal();
    await answeredQuestion(app);
    const reply = await app.request(`/portal-api/insights?${range()}`, { headers: ALICE });
    expect(reply.status).toBe(200);
    expect(reply.headers.get('cache-control')).toBe('no-store');
    const body = (await reply.json()) as {
      total: { asked: number; responded: number; medianWaitSeconds: number };
      reviewers: { top: { reviewer: string; total: number; byAction: Record<string, number> }[] };
      perReviewer: boolean;
    };
    expect(body.total).toMatchObject({ asked: 1, responded: 1 });
    // Seen five minutes before the answer (give or take the test's own time).
    expect(body.total.medianWaitSeconds).toBeGreaterThanOrEqual(300);
    expect(body.total.medianWaitSeconds).toBeLessThan(360);
    expect(body.perReviewer).toBe(true);

    const activity = await app.request(
      `/portal-api/activity?reviewer=alice%40example.com&${range().replace(/&tz=UTC$/, '')}`,
      { headers: ALICE },
    );
    const entries = ((await activity.json()) as { entries: unknown[] }).entries;
    expect(body.reviewers.top).toEqual([
      {
        reviewer: 'alice@example.com',
        reviewerName: null,
        total: entries.length,
        byAction: { answer: 1 },
      },
    ]);

    const csv = await app.request(`/portal-api/insights.csv?figure=days&${range()}`, {
      headers: ALICE,
    });
    expect(csv.status).toBe(200);
    expect(csv.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(csv.headers.get('content-disposition')).toBe('attachment; filename="insights-days.csv"');
    const lines = (await csv.text()).trim().split('\r\n');
    expect(lines[0]).toBe(
      'bucket,asked,responded,missed,closed_otherwise,waiting,median_wait_seconds,p90_wait_seconds',
    );
    expect(lines.at(-1)).toBe(
      `total,1,1,0,0,0,${Math.round(body.total.medianWaitSeconds * 10) / 10},${Math.round(body.total.medianWaitSeconds * 10) / 10}`,
    );
    const reviewersCsv = await app.request(`/portal-api/insights.csv?figure=reviewers&${range()}`, {
      headers: ALICE,
    });
    expect((await reviewersCsv.text()).split('\r\n')).toEqual([
      'reviewer,reviewer_name,total,answer,edit,not-applicable,cancel,resolve-json,claim,release,snippet-create,snippet-edit,snippet-delete',
      'alice@example.com,,1,1,0,0,0,0,0,0,0,0,0',
      '',
    ]);
  });

  it('offers every figure as CSV, cells a spreadsheet would run defused', async () => {
    const app = portal();
    await db.query(
      `INSERT INTO watched_questions (source_id, question_id, kind, unit_id, asked, agent, tags,
         expires_at, status, first_seen, closed_seen)
       VALUES ('vertesia', 'v1', 'vertesia', 'v1', '=HYPERLINK("x")', '@agent', '["+tag"]',
               now() - interval '1 hour', 'expired', now() - interval '2 hours', now() - interval '1 hour')`,
    );
    for (const figure of Object.keys(CSV_FIGURES)) {
      const reply = await app.request(`/portal-api/insights.csv?figure=${figure}&${range()}`, {
        headers: ALICE,
      });
      expect(reply.status, figure).toBe(200);
    }
    const missed = await app.request(`/portal-api/insights.csv?figure=missed&${range()}`, {
      headers: ALICE,
    });
    const [, row] = (await missed.text()).split('\r\n');
    expect(row).toMatch(/^vertesia,v1,"'=HYPERLINK\(""x""\)",'@agent,/);
    const tags = await app.request(`/portal-api/insights.csv?figure=tags&${range()}`, {
      headers: ALICE,
    });
    expect(await tags.text()).toBe("tag,questions\r\n'+tag,1\r\n");
  });

  it('needs the signed-in reviewer, as the Activity page does', async () => {
    const app = portal();
    const reply = await app.request(`/portal-api/insights?${range()}`);
    expect(reply.status).toBe(401);
    const csv = await app.request(`/portal-api/insights.csv?figure=days&${range()}`);
    expect(csv.status).toBe(401);
  });

  it('says what is wrong with a query', async () => {
    const app = portal();
    const ask = async (query: string) => {
      const reply = await app.request(`/portal-api/insights?${query}`, { headers: ALICE });
      return { status: reply.status, detail: ((await reply.json()) as { detail: string }).detail };
    };
    expect(await ask('to=2026-01-02')).toEqual({
      status: 400,
      detail: 'from is required (an ISO 8601 time).',
    });
    expect(await ask('from=yesterday&to=2026-01-02')).toEqual({
      status: 400,
      detail: 'from must be a date or time (ISO 8601).',
    });
    expect(await ask('from=2026-01-02&to=2026-01-01')).toEqual({
      status: 400,
      detail: 'to must be after from.',
    });
    expect(await ask('from=2024-01-01&to=2026-01-01')).toEqual({
      status: 400,
      detail: 'The range can be at most 400 days.',
    });
    expect(await ask('from=2026-01-01&to=2026-01-02&tz=Mars/Olympus')).toEqual({
      status: 400,
      detail: 'tz must be a time zone name such as Europe/Paris.',
    });
    const csv = await app.request(`/portal-api/insights.csv?figure=everything&${range()}`, {
      headers: ALICE,
    });
    expect(csv.status).toBe(400);
    expect(((await csv.json()) as { detail: string }).detail).toBe(
      'figure must be one of days, missed, systems, agents, tags, reviewers, pending.',
    );
  });

  it('sends no per-person figure when INSIGHTS_PER_REVIEWER is 0', async () => {
    const app = portal({ perReviewer: false });
    await answeredQuestion(app);
    const reply = await app.request(`/portal-api/insights?${range()}`, { headers: ALICE });
    const body = (await reply.json()) as Record<string, unknown>;
    expect(body.reviewers).toBeNull();
    expect(body.perReviewer).toBe(false);
    expect(JSON.stringify(body)).not.toContain('alice');
    const csv = await app.request(`/portal-api/insights.csv?figure=reviewers&${range()}`, {
      headers: ALICE,
    });
    expect(csv.status).toBe(404);
    expect(await csv.text()).not.toContain('alice');
  });

  it('says so in plain words when the database cannot answer', async () => {
    const app = portal({
      store: {
        figures: async () => {
          throw new Error('canceling statement due to statement timeout');
        },
      },
    });
    const reply = await app.request(`/portal-api/insights?${range()}`, { headers: ALICE });
    expect(reply.status).toBe(503);
    expect(((await reply.json()) as { detail: string }).detail).toMatch(
      /could not be computed.*Try again in a moment, or a shorter range/,
    );
  });
});

describe('the per-person switch', () => {
  it('is config.json’s insightsPerReviewer, INSIGHTS_PER_REVIEWER over it', () => {
    const on = readSettings({}, {});
    expect(on.ok && on.settings.insights.perReviewer).toBe(true);
    const offInConfig = readSettings({}, { insightsPerReviewer: false });
    expect(offInConfig.ok && offInConfig.settings.insights.perReviewer).toBe(false);
    const onByEnv = readSettings({ INSIGHTS_PER_REVIEWER: '1' }, { insightsPerReviewer: false });
    expect(onByEnv.ok && onByEnv.settings.insights.perReviewer).toBe(true);
    const offByEnv = readSettings({ INSIGHTS_PER_REVIEWER: '0' }, {});
    expect(offByEnv.ok && offByEnv.settings.insights.perReviewer).toBe(false);
    expect(readSettings({ INSIGHTS_PER_REVIEWER: 'no' }, {})).toEqual({
      ok: false,
      problems: ['INSIGHTS_PER_REVIEWER must be one of 0, 1, not "no".'],
    });
    expect(readSettings({}, { insightsPerReviewer: 'no' })).toEqual({
      ok: false,
      problems: ['config.json\'s insightsPerReviewer must be true or false, not "no".'],
    });
  });
});
