// Who is acting, as the server reads it: over real sockets where Node itself is the question
// (repeated headers, bytes in a header), through the portal app as start.ts wires it otherwise.
import { request } from 'node:http';
import { getRequestListener } from '@hono/node-server';
import { afterEach, describe, expect, it } from 'vitest';
import { createMockBackend } from '../../mock/app';
import { createAudit } from '../audit/sql';
import type { Db } from '../db/engine';
import { withEmbeddedDb } from '../db/test-db';
import { createPortalServer } from '../http/http-server';
import { createPortalApp } from '../http/portal';
import { listen } from '../http/test-support';
import { type IdentityConfig, identityHeaders } from './identity';

const SSO: IdentityConfig = { header: 'x-forwarded-email', nameHeader: 'x-forwarded-user' };
const LOCAL: IdentityConfig = { header: null, nameHeader: null };

let db: Db;
withEmbeddedDb((opened) => {
  db = opened;
});
const closers: (() => void)[] = [];
afterEach(() => {
  for (const close of closers.splice(0)) close();
});

/** The portal with its audit trail and the mock Reflexio, on a real port, as start.ts serves it. */
async function portal(identity: IdentityConfig): Promise<string> {
  const mock = createMockBackend({ seed: 'demo' });
  closers.push(mock.close);
  const audit = createAudit({ db, identity, log: () => {} });
  const app = createPortalApp({
    mock: mock.app,
    around: audit.around,
    portalApi: audit.api,
    log: () => {},
    allowedHosts: ['localhost'],
  });
  const server = createPortalServer(getRequestListener(app.fetch), {
    maxBodyBytes: 1_048_576,
    singleHeaders: identityHeaders(identity),
  });
  return listen(server);
}

/** `text` as UTF-8 bytes on the wire (a header value is bytes; Node's client takes them as Latin-1). */
const bytes = (text: string) => Buffer.from(text, 'utf8').toString('latin1');

interface Reply {
  status: number;
  body: Record<string, unknown>;
}

/** A request with its headers exactly as given: a list value goes out as that many header lines. */
function send(
  origin: string,
  method: string,
  path: string,
  headers: Record<string, string | string[]> = {},
  body?: unknown,
): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const raw: [string, string][] = [['host', 'localhost']];
    for (const [name, value] of Object.entries(headers)) {
      for (const one of Array.isArray(value) ? value : [value]) raw.push([name, one]);
    }
    if (body !== undefined) raw.push(['content-type', 'application/json']);
    const req = request(`${origin}${path}`, { method, headers: raw.flat() as string[] }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        text += chunk;
      });
      res.on('end', () => {
        let parsed: Record<string, unknown> = {};
        try {
          parsed = JSON.parse(text) as Record<string, unknown>;
        } catch {}
        resolve({ status: res.statusCode ?? 0, body: parsed });
      });
    });
    req.on('error', reject);
    req.end(body === undefined ? undefined : JSON.stringify(body));
  });
}

const me = (origin: string, headers: Record<string, string | string[]>) =>
  send(origin, 'GET', '/portal-api/me', headers);

async function firstPending(origin: string, headers: Record<string, string>): Promise<string> {
  const list = await send(origin, 'GET', '/api/pending_tool_calls?status=pending', headers);
  const calls = list.body.pending_tool_calls as { id: string }[];
  return (calls[0] as { id: string }).id;
}

async function trail(origin: string, headers: Record<string, string>) {
  const page = await send(origin, 'GET', '/portal-api/activity', headers);
  return page.body.entries as { reviewer: string; selfNamed: boolean | null }[];
}

describe('one reviewer per request', () => {
  it('refuses two identity headers (400), where Node would have joined them into one name', async () => {
    const origin = await portal(SSO);
    for (const name of ['x-forwarded-email', 'x-forwarded-user', 'x-portal-reviewer']) {
      const reply = await me(origin, {
        'x-forwarded-email': 'alice@example.com',
        [name]: [
          ...(name === 'x-forwarded-email' ? [] : ['alice']),
          'alice@example.com',
          'mallory@example.com',
        ],
      });
      expect(reply.status, name).toBe(400);
      expect(reply.body.detail).toMatch(new RegExp(`more than one ${name} header`));
    }
    expect(
      (await me(origin, { 'x-forwarded-email': 'alice@example.com' })).body.reviewer,
    ).toMatchObject({ id: 'alice@example.com' });
  });
});

describe('names that cannot be shown as they are', () => {
  it('are refused (400) from the SSO proxy, its name header and the browser, NUL included', async () => {
    const sso = await portal(SSO);
    const local = await portal(LOCAL);
    const bidi = encodeURIComponent('\u202emoc.elpmaxe@ecila');
    const refused: [string, Record<string, string>][] = [
      [sso, { 'x-forwarded-email': bytes('alice\u202e@example.com') }],
      [sso, { 'x-forwarded-email': 'alice@example.com', 'x-forwarded-user': bidi }],
      [sso, { 'x-forwarded-email': 'alice@example.com', 'x-forwarded-user': 'Al%0Aice' }],
      [local, { 'x-portal-reviewer': 'Ann%00B' }],
      [local, { 'x-portal-reviewer': 'Ann%0D%0AB' }],
      [local, { cookie: `qi_reviewer=${bidi}` }],
      [local, { cookie: `qi_reviewer=${encodeURIComponent('Ann\u2066B')}` }],
    ];
    for (const [origin, headers] of refused) {
      const reply = await me(origin, headers);
      expect(reply.status, JSON.stringify(headers)).toBe(400);
      expect(reply.body.detail).toMatch(
        /holds a control or direction character \(U\+[0-9A-F]{4}\): a reviewer's name must be plain text on one line/,
      );
    }
  });

  it('refuses a write under a name with NUL with 400 and records nothing (it was a 503)', async () => {
    const origin = await portal(LOCAL);
    const id = await firstPending(origin, {});
    const reply = await send(
      origin,
      'POST',
      `/api/pending_tool_calls/${id}/cancel`,
      { 'x-portal-reviewer': 'Ann%00B', 'sec-fetch-site': 'same-origin' },
      {},
    );
    expect(reply.status).toBe(400);
    expect(await trail(origin, {})).toEqual([]);
  });

  it('reads a name the proxy sent as UTF-8 as the name it is', async () => {
    const origin = await portal(SSO);
    const reply = await me(origin, {
      'x-forwarded-email': 'lukasz@example.com',
      'x-forwarded-user': bytes('Łukasz Nowak'),
    });
    expect(reply.body.reviewer).toMatchObject({ id: 'lukasz@example.com', name: 'Łukasz Nowak' });
  });
});

describe('the name typed in the browser', () => {
  it('is the portal’s own cookie, not one a sibling site tossed in on a longer path', async () => {
    const origin = await portal(LOCAL);
    // A browser sends the cookie with the longest path first: the one set on /api by a sibling.
    const tossed = await me(origin, {
      cookie: 'qi_reviewer=tossed-by-sibling; mock_tenant=t; qi_reviewer=victim-alice',
    });
    expect(tossed.body.reviewer).toMatchObject({ id: 'victim-alice', from: 'browser' });
    const secure = await me(origin, {
      cookie: 'qi_reviewer=tossed-by-sibling; __Host-qi_reviewer=alice; qi_reviewer=other',
    });
    expect(secure.body.reviewer).toMatchObject({ id: 'alice' });
  });

  it('is marked self-named in the trail, the SSO proxy’s name is not', async () => {
    const local = await portal(LOCAL);
    const id = await firstPending(local, {});
    const write = { 'sec-fetch-site': 'same-origin' };
    await send(
      local,
      'POST',
      `/api/pending_tool_calls/${id}/cancel`,
      { ...write, cookie: 'qi_reviewer=ann' },
      {},
    );
    expect(await trail(local, {})).toMatchObject([{ reviewer: 'ann', selfNamed: true }]);

    const alice = { 'x-forwarded-email': 'alice@example.com' };
    const sso = await portal(SSO);
    const other = await firstPending(sso, alice);
    await send(sso, 'POST', `/api/pending_tool_calls/${other}/cancel`, { ...write, ...alice }, {});
    expect(
      (await trail(sso, alice)).find((entry) => entry.reviewer === 'alice@example.com'),
    ).toMatchObject({
      selfNamed: false,
    });
  });
});

describe('the mock’s control routes under REVIEWER_HEADER', () => {
  it('need the SSO identity to change anything, like every other write (401)', async () => {
    const origin = await portal(SSO);
    const write = { 'sec-fetch-site': 'same-origin' };
    for (const path of ['/__mock/reset', '/__mock/questions', '/__mock/clock']) {
      const reply = await send(
        origin,
        'POST',
        path,
        write,
        path.endsWith('clock') ? { advanceMs: 1 } : {},
      );
      expect(reply.status, path).toBe(401);
      expect(reply.body.detail).toMatch(/must set the x-forwarded-email header/);
    }
    const signed = await send(
      origin,
      'POST',
      '/__mock/reset',
      { ...write, 'x-forwarded-email': 'alice@example.com' },
      { seed: 'empty' },
    );
    expect(signed.status).toBeLessThan(300);
    // Reading stays open, as reading the API does.
    expect((await send(origin, 'GET', '/__mock/state')).status).toBe(200);
  });
});
