import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { listEntries } from '../audit/queries';
import { type Db, openPostgres } from '../db/engine';
import { migrate } from '../db/migrations';
import { withEmbeddedDb } from '../db/test-db';
import { postgresAvailable, startTestPostgres, type TestPostgres } from '../db/test-postgres';
import type { IdentityConfig } from '../identity/identity';
import type { BusHandlers, TeamBus } from './link';
import { createTeam, type TeamOptions, teamBus } from './sql';
import type { Team, TeamSnapshot } from './types';

const SSO: IdentityConfig = { header: 'x-forwarded-email', nameHeader: null };
/** The systems the tests' portal reads (config.json's sources). */
const SYSTEMS = [
  { id: 'reflexio', kind: 'reflexio' },
  { id: 'vertesia', kind: 'vertesia' },
  { id: 'vertesia-prod', kind: 'vertesia' },
  { id: 'r'.repeat(64), kind: 'vertesia' },
];

let db: Db;
const teams: Team[] = [];
withEmbeddedDb((opened) => {
  db = opened;
});
afterEach(async () => {
  for (const team of teams.splice(0)) await team.close();
});

async function team(options: Partial<TeamOptions> = {}) {
  const made = await createTeam({ db, identity: SSO, systems: SYSTEMS, log: () => {}, ...options });
  teams.push(made);
  return made;
}

function caller(target: Team) {
  return async (who: string | null, method: string, route: string, body?: unknown) => {
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    if (who) headers['x-forwarded-email'] = who;
    const request = new Request(`http://portal/portal-api/team/${route}`, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const response = await target.api(request, `/portal-api/team/${route}`);
    if (!response) throw new Error('not the team route');
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  };
}

const question = { source: 'reflexio', id: 'q1' };

describe('presence', () => {
  it('shows who has a question open, once per reviewer however many tabs, from the header only', async () => {
    const call = caller(await team());
    expect((await call(null, 'POST', 'presence', { tab: 't1', question })).status).toBe(401);
    await call('alice@example.com', 'POST', 'presence', {
      tab: 't1',
      question,
      reviewer: 'mallory@example.com',
    });
    await call('alice@example.com', 'POST', 'presence', { tab: 't2', question, typing: true });
    const state = (await call('bob@example.com', 'GET', 'state')).body as unknown as TeamSnapshot;
    expect(state.viewers).toEqual([
      {
        sourceId: 'reflexio',
        questionId: 'q1',
        reviewer: 'alice@example.com',
        reviewerName: null,
        typing: true,
      },
    ]);
    await call('alice@example.com', 'POST', 'presence', { tab: 't1', question: null });
    await call('alice@example.com', 'POST', 'presence', { tab: 't2', question: null });
    const after = (await call('bob@example.com', 'GET', 'state')).body as unknown as TeamSnapshot;
    expect(after.viewers).toEqual([]);
  });

  it("takes a browser's tabs in one message, and a heartbeat does not end another tab's typing", async () => {
    let clock = 1_000_000;
    const call = caller(await team({ now: () => clock }));
    const other = { source: 'vertesia', id: 'a2' };
    await call('alice@example.com', 'POST', 'presence', {
      tabs: [
        { tab: 't1', question },
        { tab: 't2', question: other, typing: true },
      ],
    });
    const viewing = async () =>
      ((await call('bob@example.com', 'GET', 'state')).body as unknown as TeamSnapshot).viewers
        .map((viewer) => `${viewer.sourceId}/${viewer.questionId}${viewer.typing ? ' typing' : ''}`)
        .sort();
    expect(await viewing()).toEqual(['reflexio/q1', 'vertesia/a2 typing']);
    clock += 1_000;
    await call('alice@example.com', 'POST', 'presence', {
      tabs: [
        { tab: 't1', question },
        { tab: 't2', question: other },
      ],
    });
    expect(await viewing()).toEqual(['reflexio/q1', 'vertesia/a2 typing']);
    clock += 5_000;
    expect(await viewing()).toEqual(['reflexio/q1', 'vertesia/a2']);
    // t2 left q1 earlier: its late leave does not hide what it has open now.
    await call('alice@example.com', 'POST', 'presence', {
      tabs: [
        { tab: 't1', question: null, left: question },
        { tab: 't2', question: null, left: question },
      ],
    });
    expect(await viewing()).toEqual(['vertesia/a2']);
  });

  it('forgets a viewer whose heartbeats stop, after the time to live', async () => {
    let clock = 1_000_000;
    const call = caller(await team({ now: () => clock, config: { presenceTtlSeconds: 20 } }));
    await call('alice@example.com', 'POST', 'presence', { tab: 't1', question });
    clock += 19_000;
    expect(((await call('bob@example.com', 'GET', 'state')).body.viewers as unknown[]).length).toBe(
      1,
    );
    clock += 1_000;
    expect((await call('bob@example.com', 'GET', 'state')).body.viewers).toEqual([]);
  });

  it('is only for the configured systems, with printable ids', async () => {
    const call = caller(await team());
    const refused = await call('a@x', 'POST', 'presence', {
      tab: 't1',
      question: { source: 'nowhere', id: 'q1' },
    });
    expect(refused).toEqual({
      status: 400,
      body: {
        detail: expect.stringMatching(/^"nowhere" is not one of the systems this portal reads/),
      },
    });
    for (const [tab, id] of [
      ['t\u0007', 'q1'],
      ['t1', 'q\u0000'],
    ]) {
      expect(
        (await call('a@x', 'POST', 'presence', { tab, question: { source: 'reflexio', id } }))
          .status,
      ).toBe(400);
    }
    expect((await call('b@x', 'GET', 'state')).body.viewers).toEqual([]);
  });

  it('refuses bad bodies, big bodies and floods', async () => {
    const call = caller(await team());
    expect((await call('a@x', 'POST', 'presence', { tab: 't1', question: {} })).status).toBe(400);
    expect(
      (await call('a@x', 'POST', 'presence', { tab: 'x'.repeat(17_000), question })).status,
    ).toBe(413);
    const tabs = Array.from({ length: 17 }, (_, i) => ({ tab: `t${i}`, question }));
    expect((await call('a@x', 'POST', 'presence', { tabs })).status).toBe(400);
    expect((await call('a@x', 'POST', 'presence', { tabs: [] })).status).toBe(400);
    expect(
      (await call('a@x', 'POST', 'presence', { tabs: [{ tab: 't1', question }, { question }] }))
        .status,
    ).toBe(400);
    let last = 0;
    for (let i = 0; i < 125; i++)
      last = (await call('a@x', 'POST', 'presence', { tab: 't1', question })).status;
    expect(last).toBe(429);
  });
});

describe('claims', () => {
  it('holds a question for one reviewer, refuses another, and records both in the trail', async () => {
    const call = caller(await team());
    const claimed = await call('alice@example.com', 'POST', 'claim', { questions: [question] });
    expect(claimed.status).toBe(200);
    const bob = await call('bob@example.com', 'POST', 'claim', { questions: [question] });
    expect(bob.status).toBe(409);
    expect(JSON.stringify(bob.body)).toContain('alice@example.com has claimed this question');
    const state = (await call('bob@example.com', 'GET', 'state')).body as unknown as TeamSnapshot;
    expect(state.claims.map((c) => [c.questionId, c.reviewer])).toEqual([
      ['q1', 'alice@example.com'],
    ]);
    // Only the holder releases.
    await call('bob@example.com', 'POST', 'release', { questions: [question] });
    expect(((await call('bob@example.com', 'GET', 'state')).body.claims as unknown[]).length).toBe(
      1,
    );
    await call('alice@example.com', 'POST', 'release', { questions: [question] });
    expect((await call('bob@example.com', 'GET', 'state')).body.claims).toEqual([]);
    const trail = await listEntries(db, { questionIds: ['q1'] }, { cursor: null, limit: 10 });
    expect(trail.entries.map((e) => [e.action, e.reviewer, e.status])).toEqual([
      ['release', 'alice@example.com', 200],
      ['claim', 'alice@example.com', 200],
    ]);
  });

  it("records a claim of another system's question under that system's own id and kind", async () => {
    const call = caller(await team());
    const ask = { source: 'vertesia-prod', kind: 'vertesia', id: 'vertesia-prod:a1' };
    expect((await call('alice@example.com', 'POST', 'claim', { questions: [ask] })).status).toBe(
      200,
    );
    await call('alice@example.com', 'POST', 'release', { questions: [ask] });
    const entries = await listEntries(
      db,
      { reviewer: 'alice@example.com' },
      { cursor: null, limit: 10 },
    );
    expect(
      entries.entries.map((entry) => [
        entry.action,
        entry.sourceId,
        entry.sourceKind,
        entry.questionId,
      ]),
    ).toEqual([
      ['release', 'vertesia-prod', 'vertesia', 'a1'],
      ['claim', 'vertesia-prod', 'vertesia', 'a1'],
    ]);
  });

  it("takes only the configured systems' questions, and records their configured kind", async () => {
    const call = caller(await team());
    const refused = async (questions: unknown[]) => {
      const answer = await call('alice@example.com', 'POST', 'claim', { questions });
      expect(answer.status, JSON.stringify(questions)).toBe(400);
      return String(answer.body.detail);
    };
    expect(await refused([{ source: 'jira', id: 'J-1' }])).toBe(
      '"jira" is not one of the systems this portal reads (reflexio, vertesia, vertesia-prod, rrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrr).',
    );
    expect(
      await refused([{ source: 'vertesia', kind: '=HYPERLINK("http://x")', id: 'vertesia:a1' }]),
    ).toBe('"vertesia" is a vertesia system: send kind "vertesia", or none.');
    expect(await refused([{ source: 'vertesia', kind: 'bilby', id: 'vertesia:a1' }])).toBe(
      '"vertesia" is a vertesia system: send kind "vertesia", or none.',
    );
    for (const id of ['q\u0000', 'q\nq', 'q\u202eq', 'q\u2028']) {
      expect(await refused([{ source: 'reflexio', id }])).toMatch(/printable characters/);
    }
    // A browser that names no kind: the trail has the configured one.
    await call('alice@example.com', 'POST', 'claim', {
      questions: [{ source: 'vertesia-prod', id: 'vertesia-prod:a2' }],
    });
    const entries = await listEntries(db, {}, { cursor: null, limit: 10 });
    expect(entries.entries.map((e) => [e.action, e.sourceId, e.sourceKind, e.questionId])).toEqual([
      ['claim', 'vertesia-prod', 'vertesia', 'a2'],
    ]);
  });

  it('caps the claims one reviewer holds', async () => {
    const call = caller(await team({ config: { maxClaims: 2 } }));
    const many = await call('alice@example.com', 'POST', 'claim', {
      questions: ['a', 'b', 'c'].map((id) => ({ source: 'reflexio', id })),
    });
    expect((many.body.claimed as unknown[]).length).toBe(2);
    expect(JSON.stringify(many.body.refused)).toContain('You already hold 2 claims');
  });

  it('takes a bulk claim of 100 questions with ids of the longest size', async () => {
    const call = caller(await team({ config: { maxClaims: 100 } }));
    const questions = Array.from({ length: 100 }, (_, i) => ({
      source: 'r'.repeat(64),
      id: `${i}`.padStart(300, 'q'),
      kind: 'vertesia',
    }));
    const claimed = await call('alice@example.com', 'POST', 'claim', { questions });
    expect(claimed.status).toBe(200);
    expect((claimed.body.claimed as unknown[]).length).toBe(100);
    const released = await call('alice@example.com', 'POST', 'release', { questions });
    expect((released.body.released as unknown[]).length).toBe(100);
  });

  it('lets a claim expire by itself', async () => {
    const call = caller(await team({ config: { claimMinutes: 0.01 } }));
    await call('alice@example.com', 'POST', 'claim', { questions: [question] });
    await db.query("UPDATE claims SET expires_at = now() - interval '1 second'");
    expect((await call('bob@example.com', 'POST', 'claim', { questions: [question] })).status).toBe(
      200,
    );
  });

  it('goes when the question is answered through the portal', async () => {
    const target = await team();
    const call = caller(target);
    await call('alice@example.com', 'POST', 'claim', { questions: [question] });
    await target.answered('reflexio', ['q1']);
    expect((await call('bob@example.com', 'GET', 'state')).body.claims).toEqual([]);
  });

  it("goes when a Vertesia or Bilby question is answered: the browser claims it by the inbox's id", async () => {
    const target = await team({ systems: [...SYSTEMS, { id: 'bilby', kind: 'bilby' }] });
    const call = caller(target);
    // The inbox names other systems' questions `<source>:<id>` (inboxRouting); the trail, the
    // system's own id. Before, these claims stayed after the answers and counted to MAX_CLAIMS.
    await call('bob@example.com', 'POST', 'claim', {
      questions: [
        { source: 'vertesia', id: 'vertesia:55ebc3c9' },
        { source: 'bilby', id: 'bilby:dca35db0:toolu_173b' },
        { source: 'vertesia', id: 'vertesia:other' },
      ],
    });
    await target.answered('vertesia', ['55ebc3c9'], 'bob@example.com');
    await target.answered('bilby', ['dca35db0:toolu_173b'], 'bob@example.com');
    const claims = (await call('bob@example.com', 'GET', 'state')).body.claims as {
      questionId: string;
    }[];
    expect(claims.map((claim) => claim.questionId)).toEqual(['vertesia:other']);
  });

  it('goes when the watcher sees the question close (answered elsewhere, expired)', async () => {
    const target = await team();
    const call = caller(target);
    await call('alice@example.com', 'POST', 'claim', {
      questions: [question, { source: 'vertesia', id: 'vertesia:a1' }],
    });
    await target.closed('reflexio', ['q1']);
    await target.closed('vertesia', ['a1']);
    expect((await call('bob@example.com', 'GET', 'state')).body.claims).toEqual([]);
    // Nobody acted through the portal: no "by" note.
    expect((await call('bob@example.com', 'GET', 'state')).body.acted).toEqual([]);
  });

  it('tells every stream who acted on which question, for a minute', async () => {
    let clock = 1_000_000;
    const target = await team({ now: () => clock });
    const call = caller(target);
    await target.answered('vertesia', ['a1', 'a2'], 'alice@example.com');
    const acted = (await call('bob@example.com', 'GET', 'state')).body.acted as unknown[];
    expect(acted).toEqual([
      {
        sourceId: 'vertesia',
        questionId: 'a1',
        reviewer: 'alice@example.com',
        at: new Date(clock).toISOString(),
      },
      {
        sourceId: 'vertesia',
        questionId: 'a2',
        reviewer: 'alice@example.com',
        at: new Date(clock).toISOString(),
      },
    ]);
    clock += 60_000;
    expect((await call('bob@example.com', 'GET', 'state')).body.acted).toEqual([]);
  });

  it('streams the state as Server-Sent Events, first the whole of it', async () => {
    const target = await team();
    const abort = new AbortController();
    const response = await target.api(
      new Request('http://portal/portal-api/team/events', {
        headers: { 'x-forwarded-email': 'bob@example.com' },
        signal: abort.signal,
      }),
      '/portal-api/team/events',
    );
    expect(response?.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const reader = response?.body?.getReader();
    const first = new TextDecoder().decode((await reader?.read())?.value);
    expect(first).toMatch(/^retry: 3000\nevent: team\ndata: \{"viewers":\[\]/);
    await caller(target)('alice@example.com', 'POST', 'presence', { tab: 't', question });
    const next = new TextDecoder().decode((await reader?.read())?.value);
    expect(next).toContain('"reviewer":"alice@example.com"');
    // Shutting down ends the stream at once: it does not hold a graceful shutdown up.
    await target.close();
    expect((await reader?.read())?.done).toBe(true);
    abort.abort();
  });
});

describe('the lists on the stream', () => {
  it("tells only the browsers that read the server's copy what it watches, and its changes", async () => {
    const target = await team({
      watch: () => ({ intervalSeconds: 10, sources: ['reflexio'], versions: { reflexio: 4 } }),
      readsCopy: (request) => !request.headers.has('x-mock-tenant'),
    });
    const open = async (headers: Record<string, string>) => {
      const response = await target.api(
        new Request('http://portal/portal-api/team/events', {
          headers: { 'x-forwarded-email': 'bob@example.com', ...headers },
        }),
        '/portal-api/team/events',
      );
      const reader = response?.body?.getReader();
      if (!reader) throw new Error('no stream');
      return { reader, first: new TextDecoder().decode((await reader.read()).value) };
    };
    const copy = await open({});
    const tenant = await open({ 'x-mock-tenant': 'journey-1' });
    expect(copy.first).toContain('"watch":{"intervalSeconds":10');
    // A browser on a mock's test tenant reads the mock itself: it must keep polling.
    expect(tenant.first).toMatch(/^retry: 3000\nevent: team\ndata: \{"viewers":\[\]/);
    expect(tenant.first).not.toContain('"watch"');
    target.change('{"source":"reflexio","version":5,"units":[],"removed":["q1"]}');
    await caller(target)('alice@example.com', 'POST', 'presence', { tab: 't', question });
    expect(new TextDecoder().decode((await copy.reader.read()).value)).toMatch(
      /^event: questions\n/,
    );
    // The tenant's next frame is the presence state: the change never reached it.
    const next = new TextDecoder().decode((await tenant.reader.read()).value);
    expect(next).toMatch(/^event: team\n/);
    expect(next).toContain('"reviewer":"alice@example.com"');
    expect(next).not.toContain('"watch"');
    await target.close();
  });
});

describe.skipIf(!postgresAvailable())('two replicas on one PostgreSQL', () => {
  let server: TestPostgres;
  const dbs: Db[] = [];
  beforeAll(async () => {
    server = await startTestPostgres();
  }, 60_000);
  afterAll(async () => {
    for (const team of teams.splice(0)) await team.close();
    for (const opened of dbs) await opened.close();
    await server?.stop();
  });

  it('sees presence and claims made on the other replica', async () => {
    const url = await server.createDatabase();
    const replica = async () => {
      const opened = await openPostgres(url);
      dbs.push(opened);
      await migrate(opened);
      const made = await createTeam({
        db: opened,
        identity: SSO,
        systems: SYSTEMS,
        log: () => {},
        bus: teamBus(opened),
      });
      teams.push(made);
      return made;
    };
    const a = await replica();
    const b = await replica();
    const events = await b.api(
      new Request('http://portal/portal-api/team/events', {
        headers: { 'x-forwarded-email': 'bob@example.com' },
      }),
      '/portal-api/team/events',
    );
    const reader = events?.body?.getReader();
    await reader?.read();
    const untilB = async (match: string) => {
      for (;;) {
        const chunk = new TextDecoder().decode((await reader?.read())?.value);
        if (chunk.includes(match)) return chunk;
      }
    };
    await caller(a)('alice@example.com', 'POST', 'presence', { tab: 't', question });
    expect(await untilB('"viewers":[{')).toContain('alice@example.com');
    await caller(a)('alice@example.com', 'POST', 'claim', { questions: [question] });
    expect(await untilB('"claims":[{')).toContain('"reviewer":"alice@example.com"');
    await a.answered('reflexio', ['q1'], 'alice@example.com');
    expect(await untilB('"acted":[{')).toContain(
      '"questionId":"q1","reviewer":"alice@example.com"',
    );
    await reader?.cancel();
  }, 60_000);
});

/**
 * A bus between replicas in this process, each replica's link switched on and off by the test: the
 * order in which replicas come back after an outage is the test's to choose (on a real PostgreSQL it
 * is the reconnect timers' jitter).
 */
function switchedBus() {
  const open = new Map<number, { handlers: BusHandlers; up: boolean }>();
  let next = 0;
  const bus: TeamBus = {
    async open(handlers) {
      const id = next++;
      const entry = { handlers, up: true };
      open.set(id, entry);
      handlers.link(true, null);
      return {
        async notify(payloads) {
          if (!entry.up) throw new Error('the link to PostgreSQL is down');
          for (const other of open.values())
            if (other.up) for (const payload of payloads) other.handlers.message(payload);
        },
        async close() {
          open.delete(id);
        },
      };
    },
  };
  const set = (id: number, up: boolean) => {
    const entry = open.get(id);
    if (!entry) throw new Error(`no replica ${id}`);
    entry.up = up;
    entry.handlers.link(up, up ? null : 'the connection closed');
  };
  return { bus, set };
}

describe('two replicas after an outage', () => {
  it.each([
    ['the one that has presence', 0, 1],
    ['the one that has none', 1, 0],
  ])('show each other again whichever comes back first (%s first)', async (_, first, second) => {
    const { bus, set } = switchedBus();
    const a = await team({ bus });
    const b = await team({ bus });
    set(0, false);
    set(1, false);
    // Alice opens a question on A while neither can hear the other.
    await caller(a)('alice@example.com', 'POST', 'presence', { tab: 't', question });
    set(first, true);
    // Everything the first one says on coming back goes out (promise jobs only: one macrotask turn).
    await new Promise((resolve) => setImmediate(resolve));
    set(second, true);
    await expect
      .poll(
        async () =>
          ((await caller(b)('bob@example.com', 'GET', 'state')).body as unknown as TeamSnapshot)
            .viewers,
      )
      .toEqual([expect.objectContaining({ reviewer: 'alice@example.com', questionId: 'q1' })]);
  });
});
