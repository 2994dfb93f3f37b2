// The team's event streams and presence under a flood (issue 36): what a reader that stops
// reading may cost, and the caps per reviewer and in all. Claims and the trail in memory
// (server/team/core.ts's own), the clock injected.
import { afterEach, describe, expect, it } from 'vitest';
import { memoryTrail } from '../audit/memory-trail';
import type { IdentityConfig } from '../identity/identity';
import { createTeamCore } from './core';
import { memoryClaims } from './memory-claims';
import { STALL_MS, STREAMS_PER_REVIEWER } from './streams';
import type { Team, TeamConfig, TeamSnapshot } from './types';

const SSO: IdentityConfig = { header: 'x-forwarded-email', nameHeader: null };
const teams: Team[] = [];
afterEach(async () => {
  for (const team of teams.splice(0)) await team.close();
});

async function team(config: Partial<TeamConfig> = {}, now?: () => number) {
  const made = await createTeamCore({
    claims: memoryClaims({ now }),
    trail: memoryTrail({ now }),
    identity: SSO,
    systems: [{ id: 'reflexio', kind: 'reflexio' }],
    config,
    now,
    log: () => {},
  });
  teams.push(made);
  return made;
}

function request(who: string, route: string, body?: unknown) {
  return new Request(`http://portal/portal-api/team/${route}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: { 'x-forwarded-email': who, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
}

async function call(target: Team, who: string, route: string, body?: unknown) {
  const response = await target.api(request(who, route, body), `/portal-api/team/${route}`);
  if (!response) throw new Error('not the team route');
  return response;
}

const open = (id: string) => ({ tab: 't1', question: { source: 'reflexio', id } });

/** Reads `reader`'s frames until one holds `text`. */
async function until(reader: ReadableStreamDefaultReader<Uint8Array>, text: string) {
  for (;;) {
    const { value, done } = await reader.read();
    if (done) throw new Error(`the stream ended before ${text}`);
    const chunk = new TextDecoder().decode(value);
    if (chunk.includes(text)) return chunk;
  }
}

describe('an event stream whose reader stops reading', () => {
  it('holds at most one state it has not taken (the latest), and is closed once it stalls', async () => {
    let clock = 1_000_000;
    const target = await team({}, () => clock);
    const reading = (await call(target, 'carol@x', 'events')).body?.getReader();
    const idle = (await call(target, 'bob@x', 'events')).body?.getReader();
    if (!reading || !idle) throw new Error('no streams');
    await until(reading, '"viewers":[]');
    await idle.read();
    // Bob's reader takes nothing while alice opens six questions in turn.
    for (let i = 1; i <= 6; i++) {
      expect((await call(target, 'alice@x', 'presence', open(`q${i}`))).status).toBe(200);
      await until(reading, `"questionId":"q${i}"`);
    }
    const text = async () => new TextDecoder().decode((await idle.read()).value);
    // The first change was handed over; of the other five only the latest waited.
    expect(await text()).toContain('"questionId":"q1"');
    expect(await text()).toContain('"questionId":"q6"');
    // It reads no more: a state is handed over, the next waits, and after STALL_MS the stream ends.
    await call(target, 'alice@x', 'presence', open('q7'));
    await until(reading, '"questionId":"q7"');
    await call(target, 'alice@x', 'presence', open('q8'));
    await until(reading, '"questionId":"q8"');
    clock += STALL_MS;
    await call(target, 'alice@x', 'presence', open('q9'));
    await until(reading, '"questionId":"q9"');
    await expect(idle.read()).rejects.toThrow('event stream ended');
    // The reader that kept up still has its stream.
    await call(target, 'alice@x', 'presence', open('q10'));
    await until(reading, '"questionId":"q10"');
  });
});

describe('caps', () => {
  it('refuses event streams past the reviewer’s and the server’s, quickly and in plain words', async () => {
    const target = await team({ maxEventStreams: STREAMS_PER_REVIEWER + 2 });
    for (let i = 0; i < STREAMS_PER_REVIEWER; i++) {
      expect((await call(target, 'bob@x', 'events')).status).toBe(200);
    }
    const mine = await call(target, 'bob@x', 'events');
    expect(mine.status).toBe(429);
    expect(await mine.json()).toEqual({
      detail: `Too many open event streams for this reviewer (at most ${STREAMS_PER_REVIEWER}): close the inbox in other browsers.`,
    });
    expect((await call(target, 'carol@x', 'events')).status).toBe(200);
    expect((await call(target, 'dave@x', 'events')).status).toBe(200);
    const full = await call(target, 'erin@x', 'events');
    expect(full.status).toBe(503);
    expect(full.headers.get('retry-after')).toBe('30');
    expect((await full.json()).detail).toMatch(/as many live connections as it can/);
  });

  it('takes presence up to MAX_PRESENCE_PER_SECOND from everyone', async () => {
    let clock = 1_000_000;
    const target = await team({ maxPresencePerSecond: 5 }, () => clock);
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) {
      statuses.push((await call(target, `r${i}@x`, 'presence', open('q1'))).status);
    }
    expect(statuses).toEqual([200, 200, 200, 200, 200, 503]);
    clock += 1000;
    expect((await call(target, 'r6@x', 'presence', open('q1'))).status).toBe(200);
  });

  it('shows a reviewer with at most 16 tabs, and at most 2,000 viewers in all', async () => {
    const target = await team({ maxPresencePerSecond: 10_000 });
    const viewers = async () =>
      ((await (await call(target, 'x@x', 'state')).json()) as TeamSnapshot).viewers;
    for (let i = 0; i < 20; i++) {
      await call(target, 'alice@x', 'presence', {
        tab: `t${i}`,
        question: { source: 'reflexio', id: `q${i}` },
      });
    }
    expect((await viewers()).map((v) => v.questionId)).toEqual(
      Array.from({ length: 16 }, (_, i) => `q${i + 4}`),
    );
    let refused: Response | null = null;
    for (let r = 0; r < 130 && !refused; r++) {
      const tabs = Array.from({ length: 16 }, (_, i) => ({
        tab: `t${i}`,
        question: { source: 'reflexio', id: `r${r}-${i}` },
      }));
      const answer = await call(target, `r${r}@x`, 'presence', { tabs });
      if (answer.status !== 200) refused = answer;
    }
    if (!refused) throw new Error('no presence was refused');
    expect(refused.status).toBe(503);
    expect((await refused.json()).detail).toMatch(/as many viewers as it can \(2000\)/);
    expect((await viewers()).length).toBe(2000);
  });
});
