// The portal server's routes as the demo's Service Worker answers them (demo/portal.ts): the same
// trail, the same team routes, kept in the browser; a simulated colleague. These run the worker's
// code in Node with a Map for IndexedDB and a cookie jar for the page's cookies.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { bilbyDemoIds } from '../mock/bilby/seed';
import { demoIds } from '../mock/seed';
import { vertesiaDemoIds } from '../mock/vertesia/seed';
import { CSV_COLUMNS } from '../server/audit/csv';
import { parseQuery } from '../server/audit/query';
import type { TeamSnapshot } from '../server/team/types';
import { type DemoBackend, demoBackends, route } from './backends';
import { DEMO_SOURCES } from './config';
import { COLLEAGUE_COOKIE, createDemoPortal, type DemoPortal } from './portal';
import { PORTAL_RESET_PATH } from './reset-paths';

const ORIGIN = 'https://someone.github.io';
const made: DemoPortal[] = [];

interface Browser {
  cookies: Map<string, string>;
  stored: Map<string, unknown>;
  backends: DemoBackend[];
}

function browser(): Browser {
  return { cookies: new Map(), stored: new Map(), backends: demoBackends() };
}

async function portalIn(page: Browser, extra: { random?: () => number } = {}) {
  const portal = await createDemoPortal({
    backends: page.backends,
    cookie: async (name) => page.cookies.get(name) ?? null,
    load: async (key) => page.stored.get(key),
    // Stored as IndexedDB stores it: a structured copy.
    save: async (key, value) => {
      page.stored.set(key, structuredClone(value));
    },
    log: () => {},
    ...extra,
  });
  made.push(portal);
  return portal;
}

afterEach(async () => {
  for (const portal of made.splice(0)) {
    await portal.colleague.reset();
    await portal.team.close();
  }
});

/** A request to a mock as the worker passes it on (demo/sw.ts `answer`). */
async function toMock(portal: DemoPortal, page: Browser, path: string, init: RequestInit = {}) {
  const [pathname, search = ''] = path.split('?');
  const routed = route(page.backends, pathname ?? '');
  if (!routed) throw new Error(`no backend answers ${path}`);
  const body = init.body ? new TextEncoder().encode(String(init.body)).buffer : undefined;
  const own = new Request(new URL(`${routed.path}${search ? `?${search}` : ''}`, ORIGIN), {
    ...init,
    body,
  });
  const response = await portal.forward(routed.backend, own, body);
  await portal.saved();
  return response;
}

const json = (body: unknown, method = 'POST'): RequestInit => ({
  method,
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify(body),
});

async function portalApi(portal: DemoPortal, path: string, init: RequestInit = {}) {
  const url = new URL(`/portal-api/${path}`, ORIGIN);
  const response = await portal.api(new Request(url, init), url.pathname);
  await portal.saved();
  return response;
}

interface Page {
  entries: {
    id: number;
    action: string;
    reviewer: string;
    questionId: string;
    sourceId: string;
    status: number | null;
    answer: string | null;
  }[];
  nextCursor: number | null;
}

const vertesiaHeaders = { 'x-api-version': DEMO_SOURCES[1].apiVersion };
const org = `organizationId=${DEMO_SOURCES[2].organizationId}`;

describe('the trail in the demo', () => {
  it('names the visitor as `npm start` does: the "You are …" cookie, else Reviewer', async () => {
    const page = browser();
    const portal = await portalIn(page);
    expect(await (await portalApi(portal, 'me')).json()).toEqual({
      reviewer: { id: 'Reviewer', name: null, from: 'browser' },
      identity: 'browser',
    });
    page.cookies.set('qi_reviewer', encodeURIComponent('Alice Ng'));
    expect(await (await portalApi(portal, 'me')).json()).toMatchObject({
      reviewer: { id: 'Alice Ng', from: 'browser' },
    });
  });

  it('records every action on the three mocks as the server classifies it, refusals included', async () => {
    const page = browser();
    page.cookies.set('qi_reviewer', 'alice%40example.com');
    const portal = await portalIn(page);
    const reflexio = (id: string, what: string, body: unknown, method = 'POST') =>
      toMock(portal, page, `api/pending_tool_calls/${id}/${what}`, json(body, method));
    expect(
      (await reflexio(demoIds.pendingYesNo, 'resolve', { result: { answer: 'Yes' } })).status,
    ).toBe(200);
    expect((await reflexio(demoIds.pendingYesNo, 'answer', { answer: 'No' }, 'PATCH')).status).toBe(
      200,
    );
    expect((await reflexio(demoIds.pendingSoonest, 'not_applicable', {})).status).toBe(200);
    expect((await reflexio(demoIds.lookAlikeFirst, 'cancel', {})).status).toBe(200);
    expect(
      (await reflexio(demoIds.lookAlikeSecond, 'resolve', { result: { choice: 2, note: 'x' } }))
        .status,
    ).toBe(200);
    // Answered already: the mock refuses, and the trail keeps the refusal with its words.
    const refused = await reflexio(demoIds.pendingYesNo, 'resolve', {
      result: { answer: 'Again' },
    });
    expect(refused.status).toBeGreaterThanOrEqual(400);
    const vertesia = await toMock(
      portal,
      page,
      `vertesia/api/v1/pending-asks/${vertesiaDemoIds.refund}/resolve`,
      {
        ...json({ response: 'Refund approved' }),
        headers: { ...vertesiaHeaders, 'content-type': 'application/json' },
      },
    );
    expect(vertesia.status).toBe(200);
    // Two look-alike questions of one Bilby conversation in one batch: one entry each.
    const bilby = await toMock(
      portal,
      page,
      `bilby/api/v1/conversations/${bilbyDemoIds.twoCalls}/tool-outputs?${org}`,
      json({
        outputs: [
          {
            toolCallId: bilbyDemoIds.twoCallsFirst,
            output: {
              status: 'answered',
              answers: [
                { question: 'Which day should the movers come?', selected: [], custom: 'Tuesday' },
              ],
              summary: 'Both: yes',
            },
          },
          {
            toolCallId: bilbyDemoIds.twoCallsSecond,
            output: { status: 'dismissed', answers: [], summary: 'Not applicable' },
          },
        ],
      }),
    );
    expect(bilby.status, await bilby.clone().text()).toBeLessThan(300);
    // Reads and the mock's own controls are no actions.
    await toMock(portal, page, `api/pending_tool_calls/${demoIds.pendingInsideCacheWindow}`);
    await toMock(portal, page, '__mock/questions', json({ question: 'Planted?' }));

    const trail = (await (await portalApi(portal, 'activity')).json()) as Page;
    expect(
      trail.entries.map((e) => [
        e.sourceId,
        e.questionId,
        e.action,
        e.reviewer,
        e.answer,
        e.status,
      ]),
    ).toEqual([
      // One request's entries, newest (the last of the batch) first, as the server lists them.
      [
        'bilby',
        `${bilbyDemoIds.twoCalls}:${bilbyDemoIds.twoCallsSecond}`,
        'not-applicable',
        'alice@example.com',
        null,
        bilby.status,
      ],
      [
        'bilby',
        `${bilbyDemoIds.twoCalls}:${bilbyDemoIds.twoCallsFirst}`,
        'answer',
        'alice@example.com',
        'Both: yes',
        bilby.status,
      ],
      ['vertesia', vertesiaDemoIds.refund, 'answer', 'alice@example.com', 'Refund approved', 200],
      ['reflexio', demoIds.pendingYesNo, 'answer', 'alice@example.com', 'Again', refused.status],
      [
        'reflexio',
        demoIds.lookAlikeSecond,
        'resolve-json',
        'alice@example.com',
        '{"choice":2,"note":"x"}',
        200,
      ],
      ['reflexio', demoIds.lookAlikeFirst, 'cancel', 'alice@example.com', null, 200],
      ['reflexio', demoIds.pendingSoonest, 'not-applicable', 'alice@example.com', null, 200],
      ['reflexio', demoIds.pendingYesNo, 'edit', 'alice@example.com', 'No', 200],
      ['reflexio', demoIds.pendingYesNo, 'answer', 'alice@example.com', 'Yes', 200],
    ]);
    // The refusal keeps the system's own words; the visitor's name never reaches a mock.
    const refusal = (await (await portalApi(portal, 'activity?q=Again')).json()) as Page & {
      entries: { detail: string | null }[];
    };
    expect(refusal.entries[0]?.detail).toBeTruthy();
  });

  it('pages by cursor, filters as the server does, refuses what the server refuses, and exports CSV', async () => {
    const page = browser();
    const portal = await portalIn(page);
    for (const id of [
      demoIds.pendingYesNo,
      demoIds.pendingSoonest,
      demoIds.pendingInsideCacheWindow,
    ]) {
      await toMock(
        portal,
        page,
        `api/pending_tool_calls/${id}/resolve`,
        json({ result: { answer: `=SUM(${id})` } }),
      );
    }
    const first = (await (await portalApi(portal, 'activity?limit=2')).json()) as Page;
    expect(first.entries.map((e) => e.questionId)).toEqual([
      demoIds.pendingInsideCacheWindow,
      demoIds.pendingSoonest,
    ]);
    expect(first.nextCursor).toBe(first.entries[1]?.id);
    const second = (await (
      await portalApi(portal, `activity?limit=2&cursor=${first.nextCursor}`)
    ).json()) as Page;
    expect(second).toMatchObject({
      entries: [{ questionId: demoIds.pendingYesNo }],
      nextCursor: null,
    });

    const filtered = async (query: string) =>
      ((await (await portalApi(portal, `activity?${query}`)).json()) as Page).entries.map(
        (e) => e.questionId,
      );
    expect(
      await filtered(`question=${demoIds.pendingSoonest}&question=${demoIds.pendingYesNo}`),
    ).toEqual([demoIds.pendingSoonest, demoIds.pendingYesNo]);
    expect(await filtered('action=edit')).toEqual([]);
    expect(await filtered('source=vertesia')).toEqual([]);
    expect(await filtered('reviewer=Reviewer')).toHaveLength(3);
    expect(
      await filtered(`q=${encodeURIComponent(`sum(${demoIds.pendingYesNo.toUpperCase()}`)}`),
    ).toEqual([demoIds.pendingYesNo]);
    const tomorrow = new Date(Date.now() + 86_400_000).toISOString();
    expect(await filtered(`from=${tomorrow}`)).toEqual([]);
    expect(await filtered(`to=${tomorrow}`)).toHaveLength(3);

    // The server's own refusals, word for word.
    for (const query of ['limit=500', 'cursor=abc', 'action=delete', 'from=yesterday']) {
      const response = await portalApi(portal, `activity?${query}`);
      expect(response.status, query).toBe(400);
      const expected = parseQuery(new URLSearchParams(query));
      expect(await response.json()).toEqual({
        detail: 'error' in expected ? expected.error : null,
      });
    }

    const csv = await portalApi(portal, `activity.csv?question=${demoIds.pendingYesNo}`);
    expect(csv.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(csv.headers.get('content-disposition')).toBe('attachment; filename="activity.csv"');
    const lines = (await csv.text()).trimEnd().split('\r\n');
    expect(lines[0]).toBe(CSV_COLUMNS.join(','));
    expect(lines).toHaveLength(2);
    // A leading = is defused, as the server's CSV does.
    // What the question asked comes from the demo's mock (the static demo has no watcher).
    expect(lines[1]).toMatch(
      new RegExp(
        `,"Reviewer",,"reflexio","reflexio","${demoIds.pendingYesNo}","[^"]+\\?","answer",200,`,
      ),
    );
    expect(lines[1]).toContain(`"'=SUM(${demoIds.pendingYesNo})","full"`);
  });

  it('keeps the trail and the claims for the next worker; Reset demo clears both', async () => {
    const page = browser();
    const portal = await portalIn(page);
    await toMock(
      portal,
      page,
      `api/pending_tool_calls/${demoIds.pendingYesNo}/resolve`,
      json({ result: { answer: 'Yes' } }),
    );
    const claimed = await portalApi(
      portal,
      'team/claim',
      json({ questions: [{ source: 'reflexio', id: demoIds.pendingSoonest }] }),
    );
    expect(claimed.status).toBe(200);

    // The browser stopped the worker; the next one starts from IndexedDB.
    const next = await portalIn(page);
    const trail = (await (await portalApi(next, 'activity')).json()) as Page;
    expect(trail.entries.map((e) => e.action)).toEqual(['claim', 'answer']);
    const state = (await (await portalApi(next, 'team/state')).json()) as TeamSnapshot;
    expect(state.claims.map((c) => [c.questionId, c.reviewer])).toEqual([
      [demoIds.pendingSoonest, 'Reviewer'],
    ]);

    const reset = await portalApi(next, PORTAL_RESET_PATH.slice('portal-api/'.length), json({}));
    expect(reset.status).toBe(200);
    expect(((await (await portalApi(next, 'activity')).json()) as Page).entries).toEqual([]);
    expect(((await (await portalApi(next, 'team/state')).json()) as TeamSnapshot).claims).toEqual(
      [],
    );
    const after = await portalIn(page);
    expect(((await (await portalApi(after, 'activity')).json()) as Page).entries).toEqual([]);
  });
});

describe("the team's snippets in the demo", () => {
  it("saves them under the visitor's name, in the trail, for the next worker; Reset demo clears them", async () => {
    const page = browser();
    page.cookies.set('qi_reviewer', 'alice%40example.com');
    const portal = await portalIn(page);
    const saved = await portalApi(
      portal,
      'snippets',
      json({ source: 'vertesia', title: 'Month-end', text: 'Wait for the month-end report.' }),
    );
    expect(saved.status).toBe(201);
    expect(await saved.json()).toMatchObject({
      snippet: { sourceId: 'vertesia', title: 'Month-end', createdBy: 'alice@example.com' },
    });

    // The browser stopped the worker; the next one starts from IndexedDB.
    const next = await portalIn(page);
    const listed = (await (await portalApi(next, 'snippets?source=vertesia')).json()) as {
      snippets: { title: string }[];
    };
    expect(listed.snippets.map((s) => s.title)).toEqual(['Month-end']);
    const trail = (await (await portalApi(next, 'activity')).json()) as Page;
    expect(trail.entries.map((e) => [e.action, e.reviewer, e.answer])).toEqual([
      ['snippet-create', 'alice@example.com', 'Month-end\nWait for the month-end report.'],
    ]);

    expect(
      (await portalApi(next, PORTAL_RESET_PATH.slice('portal-api/'.length), json({}))).status,
    ).toBe(200);
    const after = await portalIn(page);
    expect(
      ((await (await portalApi(after, 'snippets')).json()) as { snippets: unknown[] }).snippets,
    ).toEqual([]);
  });
});

describe('the team in the demo', () => {
  it('streams snapshots as the server does, and an answer through the worker ends the claims on it', async () => {
    const page = browser();
    const portal = await portalIn(page);
    const abort = new AbortController();
    const stream = await portalApi(portal, 'team/events', { signal: abort.signal });
    expect(stream.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
    const reader = (stream.body as ReadableStream<Uint8Array>).getReader();
    const decoder = new TextDecoder();
    const next = async () => {
      const chunk = await reader.read();
      return decoder.decode(chunk.value);
    };
    expect(await next()).toMatch(/^retry: 3000\nevent: team\ndata: \{"viewers":\[\],"claims":\[\]/);

    const subject = { source: 'reflexio', id: demoIds.pendingYesNo };
    expect((await portal.colleague.act('open', subject)).status).toBe(200);
    const viewing = await next();
    expect(viewing).toMatch(/^event: team\ndata: /);
    expect(JSON.parse(viewing.split('data: ')[1] as string).viewers).toEqual([
      {
        sourceId: 'reflexio',
        questionId: demoIds.pendingYesNo,
        reviewer: 'sam@example.com',
        reviewerName: 'Sam',
        typing: false,
      },
    ]);
    await portal.colleague.act('claim');
    expect(JSON.parse((await next()).split('data: ')[1] as string).claims).toMatchObject([
      { questionId: demoIds.pendingYesNo, reviewer: 'sam@example.com', reviewerName: 'Sam' },
    ]);
    // The visitor answers anyway: the claim goes, as on the server.
    await toMock(
      portal,
      page,
      `api/pending_tool_calls/${demoIds.pendingYesNo}/resolve`,
      json({ result: { answer: 'Yes' } }),
    );
    expect(((await (await portalApi(portal, 'team/state')).json()) as TeamSnapshot).claims).toEqual(
      [],
    );
    abort.abort();
    await reader.cancel();
  });

  it('takes the colleague’s steps one at a time, and refuses what it does not know', async () => {
    const page = browser();
    const portal = await portalIn(page);
    const control = (body: unknown) => portalApi(portal, '__demo/colleague', json(body));
    expect((await control({ action: 'dance' })).status).toBe(400);
    expect((await control({ action: 'open', question: { source: 1 } })).status).toBe(400);
    expect((await control({ action: 'type' })).status).toBe(409);
    const opened = (await (await control({ action: 'open' })).json()) as {
      question: { source: string; id: string };
    };
    expect(['reflexio', 'vertesia', 'bilby']).toContain(opened.question.source);
    await control({ action: 'type' });
    let state = (await (await portalApi(portal, 'team/state')).json()) as TeamSnapshot;
    expect(state.viewers).toMatchObject([
      { reviewer: 'sam@example.com', typing: true, questionId: opened.question.id },
    ]);
    await control({ action: 'leave' });
    state = (await (await portalApi(portal, 'team/state')).json()) as TeamSnapshot;
    expect(state.viewers).toEqual([]);
    expect((await portalApi(portal, '__demo/colleague', { method: 'GET' })).status).toBe(405);
  });
});

describe('Sam on his own', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('opens pending questions of all three systems in turn, types, sometimes claims, leaves', async () => {
    const page = browser();
    // A seeded generator (mulberry32): the same comings and goings on every run.
    let seed = 7;
    const random = () => {
      seed = (seed + 0x6d2b79f5) | 0;
      let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
      t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
      return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
    };
    const portal = await portalIn(page, { random });
    const seen = new Set<string>();
    const typed = new Set<string>();
    const claimed = new Set<string>();
    let left = 0;
    portal.colleague.start();
    for (let second = 0; second < 600; second++) {
      await vi.advanceTimersByTimeAsync(1000);
      const state = (await (await portalApi(portal, 'team/state')).json()) as TeamSnapshot;
      const sam = state.viewers.find((viewer) => viewer.reviewer === 'sam@example.com');
      if (sam) seen.add(sam.sourceId);
      if (sam?.typing) typed.add(sam.sourceId);
      if (!sam && seen.size > 0) left++;
      for (const claim of state.claims) {
        // The trail names a question as its system does, without the inbox's `<source>:` prefix.
        const prefix = `${claim.sourceId}:`;
        const own =
          claim.sourceId !== 'reflexio' && claim.questionId.startsWith(prefix)
            ? claim.questionId.slice(prefix.length)
            : claim.questionId;
        claimed.add(`${claim.sourceId}:${own}`);
      }
    }
    expect([...seen].sort()).toEqual(['bilby', 'reflexio', 'vertesia']);
    expect(typed.size).toBeGreaterThan(1);
    expect(claimed.size).toBeGreaterThan(0);
    expect(left).toBeGreaterThan(0);
    // Every claim of his is in the trail under his name.
    const trail = (await (
      await portalApi(portal, 'activity?reviewer=sam%40example.com&action=claim')
    ).json()) as Page;
    expect(new Set(trail.entries.map((e) => `${e.sourceId}:${e.questionId}`))).toEqual(claimed);
  });

  it('stays put while the page says he is driven, and a step told stops his comings and goings', async () => {
    const page = browser();
    page.cookies.set(COLLEAGUE_COOKIE, 'driven');
    const portal = await portalIn(page);
    portal.colleague.start();
    await vi.advanceTimersByTimeAsync(300_000);
    expect(
      ((await (await portalApi(portal, 'team/state')).json()) as TeamSnapshot).viewers,
    ).toEqual([]);

    page.cookies.delete(COLLEAGUE_COOKIE);
    await portal.colleague.act('leave');
    await vi.advanceTimersByTimeAsync(300_000);
    expect(
      ((await (await portalApi(portal, 'team/state')).json()) as TeamSnapshot).viewers,
    ).toEqual([]);
    expect(portal.colleague.state().auto).toBe(false);
  });
});
