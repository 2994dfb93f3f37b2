// The watcher against the three real mocks (their Hono apps, called in-process) on an embedded
// database: what it keeps of each question, what it tells of, what a failing or slow system does,
// and the lists the copy answers (compared with the mocks' own answers).
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createMockBackend } from '../../mock/app';
import { createBilbyMock } from '../../mock/bilby/app';
import { BILBY_ORGANIZATION_ID } from '../../mock/bilby/seed';
import { createVertesiaMock, VERTESIA_API_VERSION } from '../../mock/vertesia/app';
import type { Db } from '../db/engine';
import { withEmbeddedDb } from '../db/test-db';
import { COPY_VERSION_HEADER, createCopy } from './copy';
import { soleLease } from './lease';
import type { SystemFetch } from './read';
import { type AppliedChange, openQuestions } from './store';
import { createWatcher, type WatchedSystem } from './watcher';

let db: Db;
withEmbeddedDb((opened) => {
  db = opened;
});

type App = { fetch: (request: Request) => Response | Promise<Response> };

/**
 * A system reached in-process, counting what it is asked. `fail` answers with that status;
 * `delayMs` holds each answer back after the system gave it (a slow network: the answer is of the
 * moment it was asked).
 */
function reach(app: App) {
  const asked: string[] = [];
  const control = { fail: 0, delayMs: 0 };
  const fetch: SystemFetch = async (path, headers) => {
    asked.push(path);
    if (control.fail) return new Response('{"detail":"down"}', { status: control.fail });
    const response = await app.fetch(new Request(`http://mock${path}`, { headers }));
    const held = control.delayMs;
    if (held) await new Promise((resolve) => setTimeout(resolve, held));
    return response;
  };
  const mockCall = async (method: string, path: string, body?: unknown) => {
    const response = await app.fetch(
      new Request(`http://mock${path}`, {
        method,
        headers: { 'content-type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      }),
    );
    if (!response.ok)
      throw new Error(`${method} ${path}: ${response.status} ${await response.text()}`);
    const text = await response.text();
    return text ? JSON.parse(text) : null;
  };
  return { fetch, asked, control, mockCall };
}

function setup(seed: 'demo' | 'empty' = 'empty') {
  const reflexio = createMockBackend({ seed, simulatorIntervalMs: 0 });
  const vertesia = createVertesiaMock({ seed, simulatorIntervalMs: 0 });
  const bilby = createBilbyMock({ seed, simulatorIntervalMs: 0, runAfterAnswerMs: 0, pageSize: 3 });
  const r = reach(reflexio.app);
  const v = reach(vertesia.app);
  const b = reach(bilby.app);
  const systems: WatchedSystem[] = [
    { id: 'reflexio', kind: 'reflexio', name: 'Reflexio', fetch: r.fetch },
    {
      id: 'vertesia',
      kind: 'vertesia',
      name: 'Vertesia',
      fetch: v.fetch,
      apiVersion: VERTESIA_API_VERSION,
    },
    {
      id: 'bilby',
      kind: 'bilby',
      name: 'Bilby',
      fetch: b.fetch,
      organizationId: BILBY_ORGANIZATION_ID,
    },
  ];
  const changes: AppliedChange[] = [];
  const log: string[] = [];
  const watcher = createWatcher({
    db,
    systems,
    lease: soleLease(),
    intervalMs: 10_000,
    log: (line) => log.push(line),
  });
  watcher.onChange((change) => changes.push(change));
  const close = () => {
    reflexio.close();
    vertesia.close();
    bilby.close();
  };
  return { watcher, systems, changes, log, r, v, b, close, reflexio, vertesia, bilby };
}

const opened = (changes: AppliedChange[], source: string) =>
  changes.filter((c) => c.sourceId === source).flatMap((c) => c.opened.map((q) => q.questionId));
const closed = (changes: AppliedChange[], source: string) =>
  changes.filter((c) => c.sourceId === source).flatMap((c) => c.closed);

beforeEach(async () => {
  for (const table of ['watch_sources', 'watch_units', 'watch_changes', 'watched_questions']) {
    await db.query(`DELETE FROM ${table}`);
  }
});

describe('the watcher', () => {
  it('keeps each new question once, with what it asks, and hears when it closes', async () => {
    const s = setup();
    try {
      const { call } = await s.r.mockCall('POST', '/__mock/questions', {
        question: 'Ship the release tonight?',
        tags: ['release'],
        user_id: 'user-7',
        expires_in_seconds: 600,
      });
      const { ask } = await s.v.mockCall('POST', '/__mock/asks', {
        agentName: 'billing-agent',
        questions: ['Refund order 1042?', 'Which account?'],
      });
      await s.watcher.readNow();
      expect(opened(s.changes, 'reflexio')).toEqual([call.id]);
      expect(opened(s.changes, 'vertesia')).toEqual([ask.askId]);
      const facts = await openQuestions(db);
      const reflexioFacts = facts.find((q) => q.questionId === call.id);
      expect(reflexioFacts).toMatchObject({
        sourceId: 'reflexio',
        kind: 'reflexio',
        asked: 'Ship the release tonight?',
        user: 'user-7',
        tags: ['release'],
        status: 'pending',
        closedSeen: null,
      });
      expect(Date.parse(reflexioFacts?.expiresAt ?? '')).toBe(Date.parse(call.expires_at));
      expect(facts.find((q) => q.questionId === ask.askId)).toMatchObject({
        agent: 'billing-agent',
        asked: 'Refund order 1042?\nWhich account?',
      });

      // Nothing changed: nothing new, nothing written.
      s.changes.length = 0;
      await s.watcher.readNow();
      expect(s.changes.filter((c) => c.version !== null)).toEqual([]);

      // Answered by someone else, and cancelled by its agent.
      await s.r.mockCall('POST', `/__mock/questions/${call.id}/resolve`, { answer: 'yes' });
      await s.v.mockCall('POST', `/__mock/asks/${ask.askId}/resolve`, { response: 'Refund it' });
      await s.watcher.readNow();
      expect(closed(s.changes, 'reflexio')).toMatchObject([
        { questionId: call.id, status: 'resolved' },
      ]);
      expect(closed(s.changes, 'vertesia')).toMatchObject([
        { questionId: ask.askId, status: 'resolved' },
      ]);
      expect(opened(s.changes, 'reflexio')).toEqual([]);
      const still = await openQuestions(db);
      expect(still.map((q) => q.questionId)).not.toContain(call.id);
    } finally {
      s.close();
    }
  });

  it('never tells of a question twice, across a restart of the watcher', async () => {
    const s = setup('demo');
    try {
      await s.watcher.readNow();
      const first = s.changes.flatMap((c) => c.opened).length;
      expect(first).toBeGreaterThan(10);
      await s.watcher.stop();
      // A new process on the same database: the copy is there, nothing is new.
      const again = createWatcher({
        db,
        systems: s.systems,
        lease: soleLease(),
        intervalMs: 10_000,
      });
      const heard: AppliedChange[] = [];
      again.onChange((change) => heard.push(change));
      await again.readNow();
      expect(heard.flatMap((c) => c.opened)).toEqual([]);
      expect(heard.filter((c) => c.version !== null)).toEqual([]);
    } finally {
      s.close();
    }
  });

  it('reads a Bilby conversation again only when its list entry changed, or while it runs', async () => {
    const s = setup();
    try {
      const conversations = [];
      for (let i = 0; i < 5; i++) {
        const { conversation } = await s.b.mockCall('POST', '/__mock/conversations', {
          title: `Conversation ${i}`,
          pending: [
            {
              questions: [
                {
                  question: `Which database for service ${i}?`,
                  header: 'Database',
                  options: [
                    { label: 'Postgres', description: '' },
                    { label: 'MySQL', description: '' },
                  ],
                  multiSelect: false,
                },
              ],
            },
          ],
        });
        conversations.push(conversation);
      }
      await s.watcher.readNow();
      const details = () =>
        s.b.asked.filter((path) => /conversations\/[^?]+/.test(path.split('?')[0] ?? '')).length;
      const pages = () => s.b.asked.filter((path) => /conversations(\?|$)/.test(path)).length;
      expect(details()).toBe(5);
      // Five conversations, three a page.
      expect(pages()).toBe(2);
      expect(opened(s.changes, 'bilby')).toHaveLength(5);

      s.b.asked.length = 0;
      await s.watcher.readNow();
      expect(details()).toBe(0);
      expect(pages()).toBe(2);

      // One conversation gets another question: that one is read again.
      const target = conversations[2];
      await s.b.mockCall('POST', `/__mock/conversations/${target.id}/questions`, {
        questions: [
          {
            question: 'And the cache?',
            header: 'Cache',
            options: [
              { label: 'Redis', description: '' },
              { label: 'None', description: '' },
            ],
            multiSelect: false,
          },
        ],
      });
      s.b.asked.length = 0;
      s.changes.length = 0;
      await s.watcher.readNow();
      expect(details()).toBe(1);
      expect(opened(s.changes, 'bilby')).toHaveLength(1);
      expect(opened(s.changes, 'bilby')[0]).toMatch(new RegExp(`^${target.id}:`));
    } finally {
      s.close();
    }
  });

  it('keeps the last copy while a system fails, says so once, and goes on with the others', async () => {
    const s = setup('demo');
    try {
      await s.watcher.readNow();
      const before = (await openQuestions(db)).length;
      s.v.control.fail = 503;
      s.changes.length = 0;
      await s.watcher.readNow();
      await s.watcher.readNow();
      const vertesia = s.watcher.systems().find((x) => x.sourceId === 'vertesia');
      expect(vertesia?.error).toMatch(/Vertesia answered HTTP 503/);
      expect(vertesia?.errors).toBe(2);
      expect(s.log.filter((line) => line.includes('could not read Vertesia'))).toHaveLength(1);
      // Its questions are not closed by a failed read.
      expect((await openQuestions(db)).length).toBe(before);
      // The others are read meanwhile.
      const { call } = await s.r.mockCall('POST', '/__mock/questions', { question: 'Still here?' });
      await s.watcher.readNow();
      expect(opened(s.changes, 'reflexio')).toEqual([call.id]);
      s.v.control.fail = 0;
      await s.watcher.readNow();
      expect(s.watcher.systems().find((x) => x.sourceId === 'vertesia')?.error).toBeNull();
      expect(s.log.at(-1)).toMatch(/Vertesia reads again/);
    } finally {
      s.close();
    }
  });

  it('reads every system at once: a slow one does not hold the others back', async () => {
    const s = setup();
    try {
      s.b.control.delayMs = 400;
      const { call } = await s.r.mockCall('POST', '/__mock/questions', { question: 'Fast one?' });
      const read = s.watcher.readNow();
      // Reflexio's change is written while Bilby is still being read.
      await expect
        .poll(() => opened(s.changes, 'reflexio'), { timeout: 5000, interval: 20 })
        .toEqual([call.id]);
      expect(s.watcher.systems().find((x) => x.sourceId === 'bilby')?.readAt).toBeNull();
      await read;
      expect(s.watcher.systems().find((x) => x.sourceId === 'bilby')?.readAt).not.toBeNull();
    } finally {
      s.close();
    }
  });

  it('re-reads a record after a write, and a read that began before keeps the newer record', async () => {
    const s = setup();
    try {
      await s.watcher.readNow();
      // A question new since the last read, answered through the portal while the next read's
      // answer (the question still pending) is on its way.
      const { call } = await s.r.mockCall('POST', '/__mock/questions', { question: 'Answer me?' });
      s.r.control.delayMs = 300;
      const asked = s.r.asked.length;
      const slowRead = s.watcher.readNow();
      await expect.poll(() => s.r.asked.length, { interval: 5 }).toBe(asked + 1);
      s.r.control.delayMs = 0;
      await s.r.mockCall('POST', `/__mock/questions/${call.id}/resolve`, { answer: 'yes' });
      await s.watcher.refreshUnit('reflexio', call.id);
      await slowRead;
      const [row] = await db.query<{ wire: string }>(
        'SELECT wire FROM watch_units WHERE source_id = $1 AND unit_id = $2',
        ['reflexio', call.id],
      );
      expect(JSON.parse(row?.wire ?? '{}').status).toBe('resolved');
    } finally {
      s.close();
    }
  });
});

describe('the copy', () => {
  let s: ReturnType<typeof setup>;
  beforeAll(() => {
    s = setup('demo');
  });
  afterAll(() => s.close());

  const mockAnswer = async (app: App, path: string, headers?: Record<string, string>) =>
    (await app.fetch(new Request(`http://mock${path}`, { headers }))).json();

  it('answers each list as the system itself does', async () => {
    await s.watcher.readNow();
    const copy = createCopy({ db, sources: s.systems, intervalMs: 10_000 });
    for (const search of ['limit=500', 'status=pending&limit=500', 'status=resolved&limit=5']) {
      const served = await copy.answer('reflexio', '/api/pending_tool_calls', search);
      expect(served?.headers.get(COPY_VERSION_HEADER)).toMatch(/^\d+$/);
      expect(await served?.json()).toEqual({
        ...(await mockAnswer(s.reflexio.app, `/api/pending_tool_calls?${search}`)),
        copyVersion: Number(served?.headers.get(COPY_VERSION_HEADER)),
      });
    }
    const asks = await copy.answer('vertesia', '/api/v1/pending-asks', '');
    expect(await asks?.json()).toEqual({
      ...(await mockAnswer(s.vertesia.app, '/api/v1/pending-asks', {
        'x-api-version': VERTESIA_API_VERSION,
      })),
      copyVersion: expect.any(Number),
    });
    // Bilby's list as one page of the conversations with questions waiting; each one's detail.
    const page = (await (
      await copy.answer('bilby', '/api/v1/conversations', `organizationId=${BILBY_ORGANIZATION_ID}`)
    )?.json()) as { conversations: { id: string; pendingQuestionCount: number }[] };
    expect(page.conversations.length).toBeGreaterThan(0);
    for (const entry of page.conversations) {
      const detail = await copy.answer('bilby', `/api/v1/conversations/${entry.id}`, '');
      expect(await detail?.json()).toEqual(
        await mockAnswer(
          s.bilby.app,
          `/api/v1/conversations/${entry.id}?organizationId=${BILBY_ORGANIZATION_ID}`,
        ),
      );
    }
    // What the copy does not hold exactly goes to the system.
    expect(await copy.answer('reflexio', '/api/pending_tool_calls/x', '')).toBeNull();
    expect(await copy.answer('reflexio', '/api/pending_tool_calls', 'limit=900')).toBeNull();
    expect(await copy.answer('bilby', '/api/v1/conversations', 'cursor=abc')).toBeNull();
  });

  it('is not served once its system has not been read for three intervals, or fails', async () => {
    await s.watcher.readNow();
    let now = Date.now();
    const copy = createCopy({ db, sources: s.systems, intervalMs: 1000, now: () => now });
    expect(await copy.answer('vertesia', '/api/v1/pending-asks', '')).not.toBeNull();
    now += 3500;
    expect(await copy.answer('vertesia', '/api/v1/pending-asks', '')).toBeNull();
    now = Date.now();
    s.v.control.fail = 500;
    await s.watcher.readNow();
    s.v.control.fail = 0;
    expect(await copy.answer('vertesia', '/api/v1/pending-asks', '')).toBeNull();
  });
});
