// Two replicas on one real PostgreSQL (issue 36): what crosses between them does not wait for the
// database pool, and survives the database going away and coming back.
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { type Db, openPostgres } from '../db/engine';
import { migrate } from '../db/migrations';
import { ownPostgresAvailable, startTestPostgres, type TestPostgres } from '../db/test-postgres';
import { createPortalApp } from '../http/portal';
import { createTeam, type TeamOptions, teamBus, teamReadiness } from './sql';
import type { Team } from './types';

const SYSTEMS = [{ id: 'reflexio', kind: 'reflexio' }];
const servers: TestPostgres[] = [];
const dbs: Db[] = [];
const teams: Team[] = [];
afterEach(async () => {
  for (const team of teams.splice(0)) await team.close();
  for (const db of dbs.splice(0)) await db.close();
});
afterAll(async () => {
  for (const server of servers) await server.stop();
});

async function replica(url: string, options: Partial<TeamOptions> = {}) {
  const db = await openPostgres(url);
  dbs.push(db);
  await migrate(db);
  const team = await createTeam({
    db,
    identity: { header: 'x-forwarded-email', nameHeader: null },
    systems: SYSTEMS,
    bus: teamBus(db),
    log: () => {},
    ...options,
  });
  teams.push(team);
  return { db, team };
}

async function call(team: Team, who: string, route: string, body?: unknown) {
  const request = new Request(`http://portal/portal-api/team/${route}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: { 'x-forwarded-email': who, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const response = await team.api(request, `/portal-api/team/${route}`);
  if (!response) throw new Error('not the team route');
  return response;
}

/** The reader of a team's event stream, and a way to read it until a frame holds some text. */
async function stream(team: Team) {
  const reader = (await call(team, 'watcher@x', 'events')).body?.getReader();
  if (!reader) throw new Error('no stream');
  return async (text: string) => {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) throw new Error(`the stream ended before ${text}`);
      const chunk = new TextDecoder().decode(value);
      if (chunk.includes(text)) return chunk;
    }
  };
}

const viewing = (id: string) => ({ tab: 't1', question: { source: 'reflexio', id } });

describe.skipIf(!ownPostgresAvailable())('two replicas on one PostgreSQL', () => {
  it("tells the other replica while the database pool is taken up (answers' connections are not used)", async () => {
    const server = await startTestPostgres({ own: true });
    servers.push(server);
    const url = await server.createDatabase();
    const a = await replica(url);
    const b = await replica(url);
    const untilB = await stream(b.team);
    await untilB('"viewers":[]');
    // Every connection of A's pool is held by a transaction that waits.
    let release = () => {};
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    let holding = 0;
    let allHeld = () => {};
    const held = new Promise<void>((resolve) => {
      allHeld = resolve;
    });
    const transactions = Array.from({ length: 5 }, () =>
      a.db.transaction(async () => {
        holding += 1;
        if (holding === 5) allHeld();
        await gate;
      }),
    );
    await held;
    try {
      expect((await call(a.team, 'alice@x', 'presence', viewing('q1'))).status).toBe(200);
      expect(await untilB('"viewers":[{')).toContain('"reviewer":"alice@x"');
    } finally {
      release();
      await Promise.all(transactions);
    }
  }, 60_000);

  it('listens again after PostgreSQL is down 10 s: says so, then resyncs presence and claims', async () => {
    const server = await startTestPostgres({ own: true });
    servers.push(server);
    const outage = server.outage;
    if (!outage) throw new Error('a server of its own has an outage switch');
    const url = await server.createDatabase();
    const lines: string[] = [];
    const log = (line: string) => lines.push(line);
    const a = await replica(url, { log, config: { presenceTtlSeconds: 120 } });
    const b = await replica(url, { log, config: { presenceTtlSeconds: 120 } });
    const ready = createPortalApp({
      upstream: { url: 'http://127.0.0.1:9' },
      ready: () => teamReadiness(a.team),
    });
    const readyz = async () => (await ready.request('http://localhost/readyz')).status;
    /** Until both replicas say their link is `state` (they notice and reconnect on their own). */
    const links = (state: 'up' | 'down') =>
      vi.waitFor(
        () => {
          expect(a.team.link().link).toBe(state);
          expect(b.team.link().link).toBe(state);
        },
        { timeout: 60_000, interval: 100 },
      );
    expect(await readyz()).toBe(200);
    const untilA = await stream(a.team);
    const untilB = await stream(b.team);
    await untilA('"viewers":[]');
    await untilB('"viewers":[]');

    outage.down();
    try {
      await links('down');
      expect(await readyz()).toBe(503);
      // While it is down, Alice opens a question on A: B cannot hear of it yet.
      expect((await call(a.team, 'alice@x', 'presence', viewing('q1'))).status).toBe(200);
      // The outage the issue names: ten seconds.
      await new Promise((resolve) => setTimeout(resolve, 10_000));
    } finally {
      outage.up();
    }
    await links('up');
    expect(await readyz()).toBe(200);
    // A said again what it has: B shows Alice.
    expect(await untilB('"reviewer":"alice@x"')).toContain('"questionId":"q1"');
    // And new words cross both ways: Bob's presence on B, Alice's claim on A.
    await call(b.team, 'bob@x', 'presence', viewing('q2'));
    expect(await untilA('"reviewer":"bob@x"')).toContain('"questionId":"q2"');
    expect(
      (await call(a.team, 'alice@x', 'claim', { questions: [viewing('q3').question] })).status,
    ).toBe(200);
    expect(await untilB('"claims":[{')).toContain('"questionId":"q3"');
    expect(lines.filter((line) => /lost the link to the other replicas/.test(line)).length).toBe(2);
    expect(
      lines.filter((line) => /link to the other replicas is back after/.test(line)).length,
    ).toBe(2);
  }, 120_000);
});
