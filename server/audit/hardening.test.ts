// Issue 36, the audit trail's part: what a reviewer (or a script with a reviewer's session) could
// do to skip, bloat or blur the trail, each against real parts: the three mocks (Hono, which
// decodes the path before it routes), a small real HTTP server that routes as leniently as any
// upstream might, the portal over real sockets, and the embedded database on disk.
import { createHmac } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { serve } from '@hono/node-server';
import { afterEach, describe, expect, it } from 'vitest';
import { createMockBackend } from '../../mock/app';
import { createBilbyMock } from '../../mock/bilby/app';
import { BILBY_ORGANIZATION_ID } from '../../mock/bilby/seed';
import { createVertesiaMock, VERTESIA_API_VERSION } from '../../mock/vertesia/app';
import { type Db, openEmbedded } from '../db/engine';
import { migrate } from '../db/migrations';
import { withEmbeddedDb } from '../db/test-db';
import { createPortalApp, type PortalOptions } from '../http/portal';
import type { IdentityConfig } from '../identity/identity';
import { servedSystems } from '../proxy/systems';
import { csvField } from './csv';
import { insertAttempts, pruneOlderThan } from './queries';
import { parseQuery } from './query';
import { type AuditOptions, createAudit } from './sql';
import type { AuditEntry } from './types';

const SSO: IdentityConfig = { header: 'x-forwarded-email', nameHeader: null };
const alice = { 'x-forwarded-email': 'alice@example.com' };
const ORG = `organizationId=${BILBY_ORGANIZATION_ID}`;

let db: Db;
const closers: (() => unknown)[] = [];
withEmbeddedDb((opened) => {
  db = opened;
});
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

function listen(server: Server): Promise<string> {
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => {
      resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`);
    });
  });
}

/** The portal in front of the three mocks, every forward through the trail. */
function portalOnMocks(extra: Partial<AuditOptions> = {}, portal: Partial<PortalOptions> = {}) {
  const mock = createMockBackend({ seed: 'empty' });
  const vertesia = createVertesiaMock({ seed: 'empty' });
  const bilby = createBilbyMock({ seed: 'empty', runAfterAnswerMs: 0 });
  closers.push(mock.close, vertesia.close, bilby.close);
  const accepted: string[] = [];
  const audit = createAudit({
    db,
    identity: SSO,
    log: () => {},
    onAccepted: async (source, ids) => {
      for (const id of ids) accepted.push(`${source}/${id}`);
    },
    ...extra,
  });
  const systems = servedSystems({
    vertesia: { mock: vertesia.app },
    bilby: { mock: bilby.app },
    bilbyOrganizationId: BILBY_ORGANIZATION_ID,
  });
  const app = createPortalApp({
    mock: mock.app,
    sources: systems.mounted,
    around: audit.around,
    portalApi: audit.api,
    log: () => {},
    ...portal,
  });
  const call = async (method: string, url: string, body?: unknown, headers = {}) => {
    const response = await app.request(url, {
      method,
      headers: {
        'content-type': 'application/json',
        'x-api-version': VERTESIA_API_VERSION,
        ...alice,
        ...headers,
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    let json: unknown = null;
    try {
      json = JSON.parse(text);
    } catch {}
    return { status: response.status, json, text, headers: response.headers };
  };
  return { app, call, accepted, audit };
}

async function trail(call: ReturnType<typeof portalOnMocks>['call'], query = '') {
  const reply = await call('GET', `/portal-api/activity${query}`);
  expect(reply.status).toBe(200);
  return (reply.json as { entries: AuditEntry[] }).entries;
}

// ---- 1. Every write that can reach a handler is recorded. ----

/** Every write route of the three systems (their API documents), written out here on purpose. */
const WRITE_ROUTES: Record<string, { method: string; path: string }[]> = {
  reflexio: [
    { method: 'POST', path: '/api/pending_tool_calls/:id/resolve' },
    { method: 'PATCH', path: '/api/pending_tool_calls/:id/answer' },
    { method: 'POST', path: '/api/pending_tool_calls/:id/not_applicable' },
    { method: 'POST', path: '/api/pending_tool_calls/:id/cancel' },
  ],
  vertesia: [{ method: 'POST', path: '/api/v1/pending-asks/:id/resolve' }],
  bilby: [{ method: 'POST', path: '/api/v1/conversations/:id/tool-outputs' }],
};

/** The path of `route` with `id`, its fixed segments changed by `variant`. */
type Variant = { name: string; change: (segments: string[], action: number) => string[] };
const encodeAt = (segment: string, index: number, lower = false) => {
  const hex = (segment.charCodeAt(index) as number).toString(16).toUpperCase().padStart(2, '0');
  return `${segment.slice(0, index)}%${lower ? hex.toLowerCase() : hex}${segment.slice(index + 1)}`;
};
const at = (segments: string[], index: number, value: string) =>
  segments.map((segment, i) => (i === index ? value : segment));
const VARIANTS: Variant[] = [
  { name: 'first letter encoded', change: (s, a) => at(s, a, encodeAt(s[a] as string, 0, true)) },
  { name: 'second letter encoded', change: (s, a) => at(s, a, encodeAt(s[a] as string, 1)) },
  {
    name: 'its _ or - encoded',
    change: (s, a) => {
      // The segment with a separator in it (not_applicable, pending-asks, tool-outputs…).
      const index = s.findIndex((part) => /[-_]/.test(part));
      const target = index >= 0 ? index : a;
      const part = s[target] as string;
      const sep = part.search(/[-_]/);
      return at(s, target, encodeAt(part, Math.max(sep, 0)));
    },
  },
  {
    name: 'every letter encoded',
    change: (s, a) =>
      at(
        s,
        a,
        [...(s[a] as string)].map((_, i) => encodeAt(s[a] as string, i).slice(i, i + 3)).join(''),
      ),
  },
  { name: 'in capitals', change: (s, a) => at(s, a, (s[a] as string).toUpperCase()) },
  { name: 'with ;params', change: (s, a) => at(s, a, `${s[a]};x=1`) },
  { name: 'with a trailing slash', change: (s) => [...s, ''] },
  { name: 'with a double slash', change: (s, a) => [...s.slice(0, a), '', ...s.slice(a)] },
  { name: '/api encoded', change: (s) => at(s, 1, 'ap%69') },
];

function routePath(template: string, id: string, variant?: Variant): string {
  const segments = template.replace(':id', encodeURIComponent(id)).split('/');
  const action = segments.length - 1;
  return (variant ? variant.change(segments, action) : segments).join('/');
}

describe('1. a write reaches a system only as the trail records it', () => {
  it('the three mocks (Hono decodes the path): each route in each encoding is refused, or recorded with its claims released', async () => {
    const { call, accepted } = portalOnMocks();
    const fresh = {
      async reflexio() {
        const made = await call('POST', '/__mock/questions', {
          question: 'Ship?',
          expires_in_seconds: 3600,
        });
        return (made.json as { call: { id: string } }).call.id;
      },
      async vertesia() {
        const made = await call('POST', '/vertesia/__mock/asks', { questions: ['Ship?'] });
        return (made.json as { ask: { askId: string } }).ask.askId;
      },
      async bilby() {
        const made = await call('POST', '/bilby/__mock/conversations', {
          title: 'Naming',
          pending: [
            {
              toolCallId: 'tc1',
              questions: [
                {
                  question: 'Which?',
                  header: 'Pick',
                  options: [
                    { label: 'A', description: '' },
                    { label: 'B', description: '' },
                  ],
                  multiSelect: false,
                },
              ],
            },
          ],
        });
        return (made.json as { conversation: { id: string } }).conversation.id;
      },
    };
    const bodies: Record<string, unknown> = {
      '/api/pending_tool_calls/:id/resolve': { result: { answer: 'Yes' } },
      '/api/pending_tool_calls/:id/answer': { answer: 'No' },
      '/api/pending_tool_calls/:id/not_applicable': {},
      '/api/pending_tool_calls/:id/cancel': undefined,
      '/api/v1/pending-asks/:id/resolve': { response: 'Yes' },
      '/api/v1/conversations/:id/tool-outputs': {
        outputs: [
          {
            toolCallId: 'tc1',
            output: { status: 'dismissed', answers: [], summary: 'Not applicable' },
          },
        ],
      },
    };
    const skipped: string[] = [];
    for (const [kind, routes] of Object.entries(WRITE_ROUTES)) {
      const prefix = kind === 'reflexio' ? '' : `/${kind}`;
      const query = kind === 'bilby' ? `?${ORG}` : '';
      for (const route of routes) {
        for (const variant of VARIANTS) {
          const id = await fresh[kind as keyof typeof fresh]();
          // An edit needs an answered question: answered first, as the portal writes it.
          if (route.method === 'PATCH') {
            await call('POST', `/api/pending_tool_calls/${id}/resolve`, {
              result: { answer: 'Yes' },
            });
          }
          const before = accepted.length;
          const url = `${prefix}${routePath(route.path, id, variant)}${query}`;
          const reply = await call(route.method, url, bodies[route.path]);
          const questionId = kind === 'bilby' ? `${id}:tc1` : id;
          const recorded = (await trail(call, `?question=${encodeURIComponent(questionId)}`))
            .length;
          const reachedAndTaken = reply.status < 300;
          if (reachedAndTaken && accepted.length === before) {
            skipped.push(`${route.method} ${url} → ${reply.status}, claims kept`);
          }
          if (reachedAndTaken && recorded === (route.method === 'PATCH' ? 1 : 0)) {
            skipped.push(`${route.method} ${url} → ${reply.status}, no entry`);
          }
          // Refused by the trail, or (an encoded /api) not the API's at all.
          if (!reachedAndTaken) expect([400, 404], url).toContain(reply.status);
        }
        // And as the portal writes it: recorded, claims released.
        const id = await fresh[kind as keyof typeof fresh]();
        if (route.method === 'PATCH') {
          await call('POST', `/api/pending_tool_calls/${id}/resolve`, {
            result: { answer: 'Yes' },
          });
        }
        const reply = await call(
          route.method,
          `${prefix}${routePath(route.path, id)}${query}`,
          bodies[route.path],
        );
        expect(reply.status, route.path).toBeLessThan(300);
        expect(accepted.at(-1)).toBe(`${kind}/${kind === 'bilby' ? `${id}:tc1` : id}`);
      }
    }
    expect(skipped).toEqual([]);
  }, 60_000);

  it('a lenient upstream (decodes, drops ;params, slashes and case, as Werkzeug and others do) is reached only by recorded writes', async () => {
    const hits: { kind: string; route: string; id: string }[] = [];
    const upstream = createServer((request: IncomingMessage, response) => {
      // Each system under a base path of its own: /reflexio/api/…, /vertesia/api/…
      const [, kind = '', ...rest] = ((request.url ?? '/').split('?')[0] as string).split('/');
      const segments = ['', ...rest]
        .map((segment) => decodeURIComponent(segment).split(';')[0]?.toLowerCase() ?? '')
        .filter(Boolean);
      for (const route of WRITE_ROUTES[kind] ?? []) {
        const pattern = route.path.split('/').filter(Boolean);
        const idAt = pattern.indexOf(':id');
        if (
          request.method === route.method &&
          pattern.length === segments.length &&
          pattern.every((part, i) => i === idAt || part === segments[i])
        ) {
          hits.push({ kind, route: route.path, id: segments[idAt] as string });
        }
      }
      request.resume();
      request.on('end', () => {
        response.writeHead(200, { 'content-type': 'application/json' });
        response.end('{}');
      });
    });
    const base = await listen(upstream);
    closers.push(() => new Promise((resolve) => upstream.close(resolve)));
    const { call } = portalOnMocks(
      {},
      {
        mock: undefined,
        upstream: { url: `${base}/reflexio/` },
        sources: ['vertesia', 'bilby'].map((prefix) => ({
          prefix,
          name: prefix,
          upstream: { url: `${base}/${prefix}/` },
        })),
      },
    );
    let n = 0;
    for (const [kind, routes] of Object.entries(WRITE_ROUTES)) {
      const prefix = kind === 'reflexio' ? '' : `/${kind}`;
      for (const route of routes) {
        for (const variant of [undefined, ...VARIANTS]) {
          const id = `q${n++}`;
          const before = hits.length;
          const body =
            kind === 'bilby'
              ? { outputs: [{ toolCallId: 't', output: { status: 'answered', summary: 'A' } }] }
              : { result: { answer: 'Yes' }, answer: 'Yes', response: 'Yes' };
          const reply = await call(
            route.method,
            `${prefix}${routePath(route.path, id, variant)}`,
            body,
            {
              'x-system': kind,
            },
          );
          const reached = hits.length > before;
          const questionId = kind === 'bilby' ? `${id}:t` : id;
          const entries = await trail(call, `?question=${questionId}`);
          expect({ variant: variant?.name, reached, recorded: entries.length > 0 }).toEqual({
            variant: variant?.name,
            reached,
            recorded: reached,
          });
          if (variant) expect([400, 404]).toContain(reply.status);
          else expect(reached).toBe(true);
        }
      }
    }
    // Any other write under /api is not one the portal sends: refused, not passed on unrecorded.
    const before = hits.length;
    const other = await call(
      'POST',
      '/api/pending_tool_calls',
      { question: 'x' },
      {
        'x-system': 'reflexio',
      },
    );
    expect(other.status).toBe(400);
    expect((other.json as { detail: string }).detail).toMatch(/only the actions the portal sends/);
    expect(hits.length).toBe(before);
  }, 60_000);
});

// ---- 5. What `none` and `hash` keep, and what pruning leaves. ----

describe('5. no answer text under none or hash; pruning reclaims it', () => {
  it('keeps no answer text from an upstream refusal that echoes it', async () => {
    for (const answers of ['none', 'hash'] as const) {
      const { call } = portalOnMocks({ answers });
      const made = await call('POST', '/__mock/questions', {
        question: 'Q?',
        expires_in_seconds: 60,
      });
      const id = (made.json as { call: { id: string } }).call.id;
      // A result that is not an object: the mock refuses with 422 and repeats the input.
      const reply = await call('POST', `/api/pending_tool_calls/${id}/resolve`, {
        result: 'my-secret-answer-text',
      });
      expect(reply.status).toBe(422);
      expect(reply.text).toContain('my-secret-answer-text');
      const [entry] = await trail(call, `?question=${id}`);
      expect(entry?.status).toBe(422);
      expect(JSON.stringify(entry)).not.toContain('my-secret-answer-text');
      expect(entry?.detail).toMatch(/HTTP 422/);
      await db.query('DELETE FROM audit_entries');
      await db.query('DELETE FROM audit_outcomes');
    }
  });

  it('hash is an HMAC under a key of the deployment (AUDIT_HASH_KEY or one kept in the database), not a bare SHA-256', async () => {
    const answer = async (options: Partial<AuditOptions>) => {
      const { call } = portalOnMocks({ answers: 'hash', ...options });
      const made = await call('POST', '/__mock/questions', {
        question: 'Q?',
        expires_in_seconds: 60,
      });
      const id = (made.json as { call: { id: string } }).call.id;
      await call('POST', `/api/pending_tool_calls/${id}/resolve`, { result: { answer: 'bob' } });
      const [entry] = await trail(call, `?question=${id}`);
      return entry;
    };
    const sha256OfBob = '81b637d8fcd2c6da6359e6963113a1170de795e4b725b84d1e0b4cfd9ec58ce9';
    const kept = await answer({});
    expect(kept?.answer).toMatch(/^[0-9a-f]{64}$/);
    expect(kept?.answer).not.toBe(sha256OfBob);
    expect(kept?.answerMode).toBe('hmac-sha256');
    // The same key for the deployment: the same answer gives the same value (entries compare).
    expect((await answer({}))?.answer).toBe(kept?.answer);
    const keyed = await answer({ hashKey: 'k'.repeat(32) });
    expect(keyed?.answer).toBe(createHmac('sha256', 'k'.repeat(32)).update('bob').digest('hex'));
    expect(keyed?.answer).not.toBe(kept?.answer);
  });

  it('after pruning, the removed answers are gone from the embedded data files and WAL', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'qi-prune-'));
    closers.push(() => rmSync(dir, { recursive: true, force: true }));
    const disk = await openEmbedded(dir);
    closers.push(() => disk.close());
    await migrate(disk);
    const attempt = (index: number, answer: string, at: Date) => ({
      requestId: `r${index}`,
      reviewer: 'alice@example.com',
      reviewerName: null,
      sourceId: 'reflexio',
      sourceKind: 'reflexio',
      questionId: `q${index}`,
      action: 'answer' as const,
      answer,
      answerMode: 'full' as const,
      at,
    });
    for (let i = 0; i < 50; i++) {
      await insertAttempts(disk, [attempt(i, `PRUNED-ANSWER-${i}-xq`, new Date('2020-01-01'))]);
    }
    await insertAttempts(disk, [attempt(99, 'kept answer', new Date())]);
    await disk.query('CHECKPOINT');
    expect(filesHolding(dir, 'PRUNED-ANSWER-').length).toBeGreaterThan(0);
    expect(await pruneOlderThan(disk, 30)).toBe(50);
    expect(filesHolding(dir, 'PRUNED-ANSWER-')).toEqual([]);
    expect(filesHolding(dir, 'kept answer').length).toBeGreaterThan(0);
  }, 60_000);
});

function filesHolding(dir: string, marker: string): string[] {
  const found: string[] = [];
  const walk = (folder: string) => {
    for (const name of readdirSync(folder)) {
      const file = path.join(folder, name);
      if (statSync(file).isDirectory()) walk(file);
      else if (readFileSync(file).includes(marker)) found.push(path.relative(dir, file));
    }
  };
  walk(dir);
  return found;
}

// ---- 7. Bounded answers, rate limits, a streamed CSV, bounded reads. ----

describe('7. one reviewer cannot bloat the trail', () => {
  it('keeps an answer up to AUDIT_ANSWER_MAX_BYTES, with the size and SHA-256 of the whole', async () => {
    const { call } = portalOnMocks({ answerMaxBytes: 1024 });
    const made = await call('POST', '/__mock/questions', {
      question: 'Q?',
      expires_in_seconds: 60,
    });
    const id = (made.json as { call: { id: string } }).call.id;
    // 300 KB of text, the 1024th byte in the middle of a two-byte character.
    const long = `${'a'.repeat(1023)}é${'b'.repeat(300_000)}`;
    await call('POST', `/api/pending_tool_calls/${id}/resolve`, { result: { answer: long } });
    const [entry] = await trail(call, `?question=${id}`);
    expect(entry?.answer).toBe('a'.repeat(1023));
    expect(entry?.answerBytes).toBe(new TextEncoder().encode(long).byteLength);
    const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(long));
    expect(entry?.answerSha256).toBe(Buffer.from(digest).toString('hex'));
  });

  it('holds one reviewer to AUDIT_WRITES_PER_MINUTE (429, Retry-After), others unaffected', async () => {
    const { call } = portalOnMocks({ writesPerMinute: 10 });
    const statuses: number[] = [];
    for (let i = 0; i < 12; i++) {
      const reply = await call('POST', `/api/pending_tool_calls/missing-${i}/resolve`, {
        result: { answer: 'x'.repeat(100) },
      });
      statuses.push(reply.status);
      if (reply.status === 429) {
        expect(Number(reply.headers.get('retry-after'))).toBeGreaterThan(0);
        expect((reply.json as { detail: string }).detail).toMatch(/still in the form/);
      }
    }
    expect(statuses.filter((status) => status === 404)).toHaveLength(10);
    expect(statuses.slice(10)).toEqual([429, 429]);
    expect(await trail(call, '?limit=200')).toHaveLength(10);
    const bob = await call(
      'POST',
      '/api/pending_tool_calls/missing-bob/resolve',
      { result: { answer: 'x' } },
      { 'x-forwarded-email': 'bob@example.com' },
    );
    expect(bob.status).toBe(404);
  });

  it('streams activity.csv a page at a time: the first rows come before the whole is read', async () => {
    const many = Array.from({ length: 1200 }, (_, i) => ({
      requestId: `r${i}`,
      reviewer: 'alice@example.com',
      reviewerName: null,
      sourceId: 'reflexio',
      sourceKind: 'reflexio',
      questionId: `q${i}`,
      action: 'answer' as const,
      answer: `answer ${i}`,
      answerMode: 'full' as const,
    }));
    for (let i = 0; i < many.length; i += 400) await insertAttempts(db, many.slice(i, i + 400));
    const audit = createAudit({ db, identity: SSO, log: () => {} });
    const { app } = portalOnMocks({}, { portalApi: audit.api });
    const response = await app.request('/portal-api/activity.csv', { headers: alice });
    const reader = response.body?.getReader();
    const first = await reader?.read();
    const text = new TextDecoder().decode(first?.value);
    // The first chunk is one page, not the whole trail.
    const firstRows = text.trim().split('\r\n').length;
    expect(firstRows).toBeLessThan(1200);
    let rest = text;
    for (;;) {
      const next = await reader?.read();
      if (!next || next.done) break;
      rest += new TextDecoder().decode(next.value);
    }
    expect(rest.trim().split('\r\n')).toHaveLength(1201);
  });

  it('answers a read past the few in line with 503 busy, not an ever longer queue', async () => {
    const { call } = portalOnMocks();
    const replies = await Promise.all(
      Array.from({ length: 16 }, () => call('GET', '/portal-api/activity?q=anything&limit=200')),
    );
    const statuses = replies.map((reply) => reply.status);
    expect(statuses.filter((status) => status === 200).length).toBeGreaterThanOrEqual(8);
    const busy = replies.filter((reply) => reply.status === 503);
    expect(busy.length).toBeGreaterThan(0);
    expect(busy[0]?.headers.get('retry-after')).toBeTruthy();
    expect(busy[0]?.text).toMatch(/busy/);
  });
});

// ---- 8. A browser that leaves does not turn an accepted answer into a refusal. ----

describe('8. the system’s real outcome when the browser has gone', () => {
  it('records what a real upstream answered after the browser gave up, and says the client left', async () => {
    const upstreamMock = createMockBackend({ seed: 'empty' });
    closers.push(upstreamMock.close);
    let arrived: () => void = () => {};
    const arrival = new Promise<void>((resolve) => {
      arrived = resolve;
    });
    const upstream = serve({
      fetch: (request) => {
        if (request.method === 'POST' && new URL(request.url).pathname.startsWith('/api/')) {
          arrived();
        }
        return upstreamMock.app.fetch(request);
      },
      port: 0,
      hostname: '127.0.0.1',
    });
    closers.push(() => new Promise((resolve) => upstream.close(resolve)));
    await new Promise((resolve) => upstream.once('listening', resolve));
    const upstreamUrl = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`;
    const control = (route: string, body: unknown) =>
      fetch(`${upstreamUrl}/__mock/${route}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      }).then((reply) => reply.json() as Promise<Record<string, unknown>>);
    const made = await control('questions', { question: 'Q?', expires_in_seconds: 600 });
    const id = (made.call as { id: string }).id;
    await control('faults', { kind: 'latency', latencyMs: 1500, match: { method: 'POST' } });

    const accepted: string[] = [];
    const audit = createAudit({
      db,
      identity: SSO,
      log: () => {},
      onAccepted: async (_source, ids) => {
        accepted.push(...ids);
      },
    });
    let finished: () => void = () => {};
    const done = new Promise<void>((resolve) => {
      finished = resolve;
    });
    const app = createPortalApp({
      upstream: { url: upstreamUrl },
      around: (call, send) => audit.around(call, send).finally(finished),
      portalApi: audit.api,
      log: () => {},
    });
    const portal = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' });
    closers.push(() => new Promise((resolve) => portal.close(resolve)));
    await new Promise((resolve) => portal.once('listening', resolve));
    const portalUrl = `http://127.0.0.1:${(portal.address() as AddressInfo).port}`;

    const browser = new AbortController();
    const sent = fetch(`${portalUrl}/api/pending_tool_calls/${id}/resolve`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...alice },
      body: JSON.stringify({ result: { answer: 'Yes' } }),
      signal: browser.signal,
    }).catch((error: Error) => error.name);
    await arrival;
    browser.abort();
    expect(await sent).toBe('AbortError');
    await done;

    const state = await fetch(`${upstreamUrl}/api/pending_tool_calls/${id}`).then(
      (reply) => reply.json() as Promise<{ status: string }>,
    );
    expect(state.status).toBe('resolved');
    const page = await audit.api(
      new Request(`http://x/portal-api/activity?question=${id}`, { headers: alice }),
      '/portal-api/activity',
    );
    const [entry] = ((await page.json()) as { entries: AuditEntry[] }).entries;
    expect(entry?.status).toBe(200);
    expect(entry?.detail).toMatch(/client left before the answer/);
    expect(accepted).toEqual([id]);
  }, 30_000);
});

// ---- 13. CSV cells. ----

describe('13. every text cell of the CSV quoted, formulas defused', () => {
  it('quotes every text cell and defuses a leading = + - @ tab or CR', () => {
    expect(csvField('ok;=1+1')).toBe('"ok;=1+1"');
    expect(csvField('x\t=2+3')).toBe('"x\t=2+3"');
    expect(csvField('plain')).toBe('"plain"');
    expect(csvField('=HYPERLINK(1)')).toBe(`"'=HYPERLINK(1)"`);
    expect(csvField('\t=1')).toBe(`"'\t=1"`);
    expect(csvField('\r=1')).toBe(`"'\r=1"`);
    expect(csvField('@SUM(1)')).toBe(`"'@SUM(1)"`);
    expect(csvField(200)).toBe('200');
    expect(csvField(null)).toBe('');
  });

  it('writes the answers of the trail so, in the export', async () => {
    const { call } = portalOnMocks();
    const made = await call('POST', '/__mock/questions', {
      question: 'Q?',
      expires_in_seconds: 60,
    });
    const id = (made.json as { call: { id: string } }).call.id;
    await call('POST', `/api/pending_tool_calls/${id}/resolve`, { result: { answer: 'ok;=1+1' } });
    const csv = await call('GET', '/portal-api/activity.csv');
    const row = csv.text.trim().split('\r\n')[1] ?? '';
    expect(row).toContain(`,"ok;=1+1","full",`);
    // A spreadsheet splitting on ";" or a tab (outside quotes) finds no cell that starts with "=".
    for (const separator of [';', '\t', ',']) {
      const cells = cellsSplitOn(row, separator);
      expect(
        cells.filter((cell) => /^[=+\-@]/.test(cell)),
        separator,
      ).toEqual([]);
    }
  });
});

/** A row as a spreadsheet splits it on `separator`: a `"` opens or closes a quoted stretch. */
function cellsSplitOn(row: string, separator: string): string[] {
  const cells = [''];
  let quoted = false;
  for (const char of row) {
    if (char === '"') quoted = !quoted;
    if (char === separator && !quoted) cells.push('');
    else cells[cells.length - 1] += char;
  }
  return cells;
}

// ---- 14. NUL and out-of-range values. ----

describe('14. NUL and out-of-range values are refused in plain words', () => {
  it('refuses an answer holding NUL with 400, before anything is sent', async () => {
    const { call } = portalOnMocks();
    const made = await call('POST', '/__mock/questions', {
      question: 'Q?',
      expires_in_seconds: 60,
    });
    const id = (made.json as { call: { id: string } }).call.id;
    const reply = await call('POST', `/api/pending_tool_calls/${id}/resolve`, {
      result: { answer: 'a\u0000b' },
    });
    expect(reply.status).toBe(400);
    expect((reply.json as { detail: string }).detail).toMatch(/NUL/);
    const state = await call('GET', `/api/pending_tool_calls/${id}`);
    expect((state.json as { status: string }).status).toBe('pending');
  });

  it('refuses NUL or a year out of range in a filter with 400', async () => {
    const { call } = portalOnMocks();
    for (const query of ['q=a%00b', 'reviewer=%00', 'from=275760-09-13', 'to=+010000-01-01']) {
      const reply = await call('GET', `/portal-api/activity?${query}`);
      expect(reply.status, query).toBe(400);
    }
    expect(parseQuery(new URLSearchParams('from=275760-09-13'))).toMatchObject({
      error: /year 1 to 9999/,
    });
  });
});
