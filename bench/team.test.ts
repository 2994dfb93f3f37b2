import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import {
  bodiesWith,
  type CountingProxy,
  heldAt,
  isTypingReport,
  judgeTeam,
  mostHeld,
  namesQuestions,
  perMinute,
  presenceIn,
  REVIEWER_HEADER,
  type StreamSpan,
  shortestGap,
  startCountingProxy,
  type TeamRecord,
  type TeamRun,
  TYPED_TEXT,
  TYPED_WORDS,
  teamFigures,
} from './team';

const presence = (at: number, body: object, reviewer = 'a@x'): TeamRecord => ({
  at,
  method: 'POST',
  route: 'presence',
  reviewer,
  body: JSON.stringify(body),
});

const run = (overrides: Partial<TeamRun> = {}): TeamRun => ({
  windowSeconds: 30,
  visibleTabs: 3,
  streamsThreeTabs: 1,
  tookOver: true,
  takeoverMs: 40,
  streamsAfterClose: 1,
  idlePerMinute: 0,
  openPerMinute: 6,
  openRequests: 3,
  twoOpenPerMinute: 6,
  twoOpenRequests: 3,
  twoOpenBoth: true,
  typingReportsPerMinute: 30,
  typingReports: 15,
  typingPerMinute: 30,
  typingGapMs: 2010,
  typedChars: 40,
  keysPerSecond: 8,
  leakedBodies: 0,
  presenceBodies: 20,
  requests: {},
  ...overrides,
});

const status = (verdicts: ReturnType<typeof judgeTeam>, id: string) =>
  verdicts.find((v) => v.id === id)?.status;

describe('counting streams held at once', () => {
  const spans: StreamSpan[] = [
    { reviewer: 'a@x', opened: 100, closed: 500 },
    { reviewer: 'a@x', opened: 500, closed: null },
    { reviewer: 'b@x', opened: 0, closed: null },
  ];

  it('counts one reviewer’s open streams at an instant: closed at t is no longer held', () => {
    expect(heldAt(spans, 'a@x', 50)).toBe(0);
    expect(heldAt(spans, 'a@x', 100)).toBe(1);
    expect(heldAt(spans, 'a@x', 500)).toBe(1);
    expect(heldAt(spans, 'a@x', 10_000)).toBe(1);
  });

  it('finds the most held at once over a span, a handover without overlap as 1', () => {
    expect(mostHeld(spans, 'a@x', 0, 1000)).toBe(1);
    expect(mostHeld(spans, 'a@x', 0, 50)).toBe(0);
  });

  it('sees a second stream opened before the first closed, even for a moment', () => {
    const overlapping: StreamSpan[] = [
      { reviewer: 'a@x', opened: 100, closed: 500 },
      { reviewer: 'a@x', opened: 499, closed: null },
    ];
    expect(mostHeld(overlapping, 'a@x', 0, 1000)).toBe(2);
    // Three tabs each with its own stream.
    const each: StreamSpan[] = [0, 1, 2].map((i) => ({
      reviewer: 'a@x',
      opened: 100 + i,
      closed: null,
    }));
    expect(mostHeld(each, 'a@x', 0, 1000)).toBe(3);
    // Streams already open at the start of the span count too.
    expect(mostHeld(each, 'a@x', 200, 300)).toBe(3);
  });
});

describe('counting presence', () => {
  const records: TeamRecord[] = [
    presence(0, { tab: 't', question: { source: 'reflexio', id: 'q1' }, typing: false }),
    presence(2_000, { tab: 't', question: { source: 'reflexio', id: 'q1' }, typing: true }),
    presence(4_100, { tab: 't', question: { source: 'reflexio', id: 'q1' }, typing: true }),
    presence(5_000, { tab: 'u', question: null, typing: false }, 'b@x'),
    { at: 3_000, method: 'GET', route: 'events', reviewer: 'a@x', body: '' },
    { at: 3_000, method: 'POST', route: 'claim', reviewer: 'a@x', body: '{}' },
  ];

  it('takes one reviewer’s presence POSTs in [from, to)', () => {
    expect(presenceIn(records, 'a@x', 0, 4_100).map((r) => r.at)).toEqual([0, 2_000]);
    expect(presenceIn(records, 'a@x', 0, 10_000)).toHaveLength(3);
    expect(presenceIn(records, 'b@x', 0, 10_000)).toHaveLength(1);
  });

  it('tells typing reports from heartbeats, and a body that is not JSON from both', () => {
    expect(records.slice(0, 3).map(isTypingReport)).toEqual([false, true, true]);
    expect(isTypingReport({ ...(records[0] as TeamRecord), body: 'typing: true' })).toBe(false);
    const q1 = { source: 'reflexio', id: 'q1' };
    const q2 = { source: 'reflexio', id: 'q2' };
    const batch = (typing: boolean) =>
      presence(6_000, {
        tabs: [
          { tab: 't', question: q1, typing: false },
          { tab: 'u', question: q2, typing },
        ],
      });
    expect([batch(false), batch(true)].map(isTypingReport)).toEqual([false, true]);
  });

  it('counts the open questions a message names, one tab or every tab', () => {
    const q1 = { source: 'reflexio', id: 'q1' };
    expect(namesQuestions(records[0])).toBe(1);
    expect(namesQuestions(records[3])).toBe(0);
    expect(
      namesQuestions(
        presence(0, {
          tabs: [
            { tab: 't', question: q1 },
            { tab: 'u', question: { source: 'vertesia', id: 'a' } },
            { tab: 'v', question: null, left: q1 },
          ],
        }),
      ),
    ).toBe(2);
    expect(namesQuestions(undefined)).toBe(0);
  });

  it('turns counts into a minute’s rate and finds the shortest gap', () => {
    expect(perMinute(3, 0, 30_000)).toBe(6);
    expect(perMinute(0, 0, 30_000)).toBe(0);
    expect(perMinute(5, 10, 10)).toBe(0);
    expect(shortestGap([4_100, 0, 2_000])).toBe(2_000);
    expect(shortestGap([5])).toBeNull();
  });

  it('finds the typed text in a body whatever its case, and only there', () => {
    const leak = presence(1, { tab: 't', question: null, typing: true, text: 'the QUOKKA' });
    expect(bodiesWith([...records, leak], TYPED_WORDS)).toBe(1);
    expect(bodiesWith(records, TYPED_WORDS)).toBe(0);
    // Every word checked is really typed.
    for (const word of TYPED_WORDS) expect(TYPED_TEXT.toLowerCase()).toContain(word);
  });
});

describe('judging', () => {
  it('passes runs within the issue’s bounds, on medians', () => {
    const verdicts = judgeTeam([run(), run({ openPerMinute: 8 }), run()], 1000);
    expect(verdicts.every((v) => v.status === 'PASS')).toBe(true);
    expect(verdicts.map((v) => v.id)).toEqual([
      'initialJs',
      'teamStreamsThreeTabs',
      'teamStreamsAfterClose',
      'teamPresenceIdle',
      'teamPresenceOpen',
      'teamPresenceTwoOpen',
      'teamTypingReports',
      'teamPresenceTyping',
      'teamTypedText',
      'teamTookOver',
      'teamMeasured',
    ]);
  });

  it('fails each bound when it is crossed', () => {
    const one = (overrides: Partial<TeamRun>) => judgeTeam([run(overrides)]);
    expect(status(one({ streamsThreeTabs: 3 }), 'teamStreamsThreeTabs')).toBe('FAIL');
    expect(status(one({ streamsAfterClose: 2 }), 'teamStreamsAfterClose')).toBe('FAIL');
    expect(status(one({ idlePerMinute: 2 }), 'teamPresenceIdle')).toBe('FAIL');
    expect(status(one({ openPerMinute: 8 }), 'teamPresenceOpen')).toBe('FAIL');
    expect(status(one({ twoOpenPerMinute: 12 }), 'teamPresenceTwoOpen')).toBe('FAIL');
    expect(status(one({ typingReportsPerMinute: 32 }), 'teamTypingReports')).toBe('FAIL');
    expect(status(one({ typingPerMinute: 38 }), 'teamPresenceTyping')).toBe('FAIL');
    expect(status(one({ leakedBodies: 1 }), 'teamTypedText')).toBe('FAIL');
    expect(status(judgeTeam([run()], 10_000_000), 'initialJs')).toBe('FAIL');
  });

  it('fails a run where nobody took the stream over, or that measured nothing', () => {
    // No takeover: 0 streams after the close is under the max, so it needs its own verdict.
    const lost = judgeTeam([run({ tookOver: false, takeoverMs: null, streamsAfterClose: 0 })]);
    expect(status(lost, 'teamStreamsAfterClose')).toBe('PASS');
    expect(status(lost, 'teamTookOver')).toBe('FAIL');
    expect(status(judgeTeam([run({ typingReports: 0 })]), 'teamMeasured')).toBe('FAIL');
    expect(status(judgeTeam([run({ openRequests: 0 })]), 'teamMeasured')).toBe('FAIL');
    expect(status(judgeTeam([run({ twoOpenBoth: false })]), 'teamMeasured')).toBe('FAIL');
    expect(status(judgeTeam([run({ visibleTabs: 2 })]), 'teamMeasured')).toBe('FAIL');
    expect(judgeTeam([]).every((v) => v.status === 'FAIL')).toBe(true);
  });

  it('gives medians over the runs', () => {
    const figures = teamFigures([
      run({ openPerMinute: 4 }),
      run({ openPerMinute: 6 }),
      run({ openPerMinute: 8 }),
    ]);
    expect(figures.find((f) => f.id === 'teamPresenceOpen')?.portal).toMatchObject({
      median: 6,
      min: 4,
      max: 8,
    });
  });
});

describe('the counting proxy', () => {
  let upstream: http.Server | null = null;
  let proxy: CountingProxy | null = null;
  afterEach(async () => {
    await proxy?.close();
    upstream?.closeAllConnections();
    await new Promise((resolve) => upstream?.close(resolve));
  });

  it('passes requests and a live event stream through, noting team bodies and the stream’s span', async () => {
    const seenHosts: string[] = [];
    upstream = http.createServer((req, res) => {
      seenHosts.push(req.headers.host ?? '');
      if (req.url?.endsWith('/portal-api/team/events')) {
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        res.write('event: team\ndata: {"n":1}\n\n');
        return;
      }
      let body = '';
      req.on('data', (chunk) => {
        body += chunk;
      });
      req.on('end', () => {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ echoed: body.length }));
      });
    });
    await new Promise<void>((resolve) => upstream?.listen(0, '127.0.0.1', resolve));
    const { port } = upstream.address() as AddressInfo;
    proxy = await startCountingProxy({ host: '127.0.0.1', port });
    const headers = { [REVIEWER_HEADER]: 'a@x', 'content-type': 'application/json' };

    const posted = await fetch(`${proxy.origin}/portal-api/team/presence`, {
      method: 'POST',
      headers,
      body: '{"tab":"t","typing":true}',
    });
    expect(await posted.json()).toEqual({ echoed: 25 });
    await fetch(`${proxy.origin}/questions`, { headers });

    const abort = new AbortController();
    const stream = await fetch(`${proxy.origin}/portal-api/team/events`, {
      headers,
      signal: abort.signal,
    });
    const reader = stream.body?.getReader();
    const first = await reader?.read();
    // The event arrived while the stream is still open: nothing was held back.
    expect(new TextDecoder().decode(first?.value)).toContain('data: {"n":1}');
    expect(heldAt(proxy.streams, 'a@x', Date.now())).toBe(1);
    abort.abort();
    await reader?.cancel().catch(() => {});
    const closed = await new Promise<boolean>((resolve) => {
      const until = Date.now() + 2000;
      const check = () => {
        if (heldAt(proxy?.streams ?? [], 'a@x', Date.now()) === 0) resolve(true);
        else if (Date.now() > until) resolve(false);
        else setTimeout(check, 20);
      };
      check();
    });
    expect(closed).toBe(true);

    expect(proxy.records.map((r) => [r.method, r.route, r.reviewer, r.body])).toEqual([
      ['POST', 'presence', 'a@x', '{"tab":"t","typing":true}'],
      ['GET', 'events', 'a@x', ''],
    ]);
    // The Host header goes through as the browser sent it.
    expect(seenHosts.every((host) => host === `127.0.0.1:${proxy?.port}`)).toBe(true);
  });
});
