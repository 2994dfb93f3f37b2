import { afterAll, describe, expect, it } from 'vitest';
import { listEntries } from '../audit/queries';
import type { sqlTrail } from '../audit/sql';
import { type Db, openEmbedded, openPostgres } from '../db/engine';
import { migrate } from '../db/migrations';
import { postgresAvailable, startTestPostgres, type TestPostgres } from '../db/test-postgres';
import { createPortalApp } from '../http/portal';
import type { IdentityConfig } from '../identity/identity';
import { createSnippets as createSnippetsCore, type Snippets } from './core';
import { memorySnippets } from './memory';
import { createSnippets, type SqlSnippetsOptions, sqlSnippets } from './sql';
import { SNIPPET_LIMITS, type Snippet } from './types';

const SSO: IdentityConfig = { header: 'x-forwarded-email', nameHeader: 'x-forwarded-user' };
const LOCAL: IdentityConfig = { header: null, nameHeader: null };
const SYSTEMS = [
  { id: 'reflexio', kind: 'reflexio' },
  { id: 'vertesia', kind: 'vertesia' },
];

let server: TestPostgres | null = null;
let embedded: Db | null = null;
const opened: Db[] = [];
afterAll(async () => {
  for (const db of opened) await db.close();
  await server?.stop();
});

/** `replicas` connections to one fresh database: one PGlite, or pools to one PostgreSQL. */
const engines: { name: string; open: (replicas?: number) => Promise<Db[]> }[] = [
  {
    name: 'embedded (PGlite)',
    // One for the file (opening one runs initdb: seconds), emptied for each test.
    open: async () => {
      if (!embedded) {
        embedded = await openEmbedded(null);
        opened.push(embedded);
        await migrate(embedded);
      }
      for (const table of ['answer_snippets', 'audit_entries', 'audit_outcomes']) {
        await embedded.query(`DELETE FROM ${table}`);
      }
      return [embedded];
    },
  },
  {
    name: 'PostgreSQL',
    open: async (replicas = 1) => {
      server ??= await startTestPostgres();
      const url = await server.createDatabase();
      const dbs = await Promise.all(Array.from({ length: replicas }, () => openPostgres(url)));
      opened.push(...dbs);
      await migrate(dbs[0] as Db);
      return dbs;
    },
  },
];

type Call = (
  who: string | null,
  method: string,
  path: string,
  body?: unknown,
  headers?: Record<string, string>,
) => Promise<{ status: number; body: Record<string, unknown> }>;

/** The snippets' routes as the portal serves them: behind its guards, under /portal-api/. */
function portal(snippets: Snippets, identity = SSO): Call {
  const app = createPortalApp({
    portalApi: async (request, inner) =>
      (await snippets.api(request, inner)) ??
      new Response(JSON.stringify({ detail: 'Not Found' }), { status: 404 }),
    log: () => {},
  });
  return async (who, method, path, body, headers = {}) => {
    const sent: Record<string, string> = {
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      ...headers,
    };
    if (who && identity.header) sent[identity.header] = who;
    if (who && !identity.header) sent['x-portal-reviewer'] = who;
    const response = await app.request(`/portal-api/snippets${path}`, {
      method,
      headers: sent,
      body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
    });
    const text = await response.text();
    let json: Record<string, unknown> = {};
    try {
      json = JSON.parse(text) as Record<string, unknown>;
    } catch {}
    return { status: response.status, body: json };
  };
}

const refund = { source: 'reflexio', title: 'Refund policy', text: 'We refund within 30 days.' };

async function trailOf(db: Db) {
  return (await listEntries(db, {}, { cursor: null, limit: 50 })).entries;
}

describe.each(engines)('snippets on $name', ({ name, open }) => {
  const runs = name === 'PostgreSQL' && !postgresAvailable() ? it.skip : it;
  const snippetsOn = (db: Db, extra: Partial<SqlSnippetsOptions> = {}) =>
    createSnippets({ db, identity: SSO, systems: SYSTEMS, log: () => {}, ...extra });

  runs(
    'a snippet Alice saves is listed for Bob, for its system only; each change is in the trail with who made it',
    async () => {
      const [db] = (await open()) as [Db];
      const call = portal(snippetsOn(db));
      const saved = await call('alice@example.com', 'POST', '', {
        ...refund,
        tag: 'billing',
        // Who saves is the header's, never the body's.
        reviewer: 'mallory@example.com',
      });
      expect(saved.status).toBe(201);
      const snippet = saved.body.snippet as Snippet;
      expect(snippet).toMatchObject({
        sourceId: 'reflexio',
        tag: 'billing',
        title: 'Refund policy',
        body: 'We refund within 30 days.',
        createdBy: 'alice@example.com',
        updatedBy: 'alice@example.com',
        version: 1,
      });
      await call('alice@example.com', 'POST', '', { ...refund, source: 'vertesia' });

      const listed = await call('bob@example.com', 'GET', '?source=reflexio');
      expect(listed.status).toBe(200);
      expect((listed.body.snippets as Snippet[]).map((s) => [s.sourceId, s.title])).toEqual([
        ['reflexio', 'Refund policy'],
      ]);
      expect(listed.body).toMatchObject({ total: 2, max: SNIPPET_LIMITS.max });
      expect(((await call('bob@example.com', 'GET', '')).body.snippets as Snippet[]).length).toBe(
        2,
      );

      const edited = await call('bob@example.com', 'PUT', `/${snippet.id}`, {
        title: 'Refunds',
        text: 'We refund within 14 days.',
        tag: null,
        version: 1,
      });
      expect(edited.status).toBe(200);
      expect(edited.body.snippet).toMatchObject({
        title: 'Refunds',
        tag: null,
        createdBy: 'alice@example.com',
        updatedBy: 'bob@example.com',
        version: 2,
      });
      const deleted = await call('carol@example.com', 'DELETE', `/${snippet.id}?version=2`);
      expect(deleted.status).toBe(200);
      expect(
        ((await call('bob@example.com', 'GET', '?source=reflexio')).body.snippets as Snippet[])
          .length,
      ).toBe(0);

      const trail = await trailOf(db);
      const mine = trail
        .filter((entry) => entry.questionId === `snippet:${snippet.id}`)
        .map((entry) => [entry.action, entry.reviewer, entry.sourceId, entry.answer, entry.status])
        .reverse();
      expect(mine).toEqual([
        [
          'snippet-create',
          'alice@example.com',
          'reflexio',
          'Refund policy\nWe refund within 30 days.',
          201,
        ],
        ['snippet-edit', 'bob@example.com', 'reflexio', 'Refunds\nWe refund within 14 days.', 200],
        [
          'snippet-delete',
          'carol@example.com',
          'reflexio',
          'Refunds\nWe refund within 14 days.',
          200,
        ],
      ]);
      expect(trail.filter((entry) => entry.action.startsWith('snippet-')).length).toBe(4);
    },
    60_000,
  );

  runs(
    'refuses a request without the SSO identity, and names every limit it holds',
    async () => {
      const [db] = (await open()) as [Db];
      const call = portal(snippetsOn(db, { max: 2 }));
      expect((await call(null, 'GET', '')).status).toBe(401);
      expect((await call(null, 'POST', '', refund)).status).toBe(401);

      const refused = async (body: unknown, headers?: Record<string, string>) => {
        const answer = await call('alice@example.com', 'POST', '', body, headers);
        return [answer.status, answer.body.detail];
      };
      expect(await refused({ ...refund, title: 't'.repeat(101) })).toEqual([
        400,
        expect.stringContaining('title: 1 to 100 characters'),
      ]);
      expect(await refused({ ...refund, title: 'Two\nlines' })).toEqual([
        400,
        expect.stringContaining('on one line'),
      ]);
      expect(await refused({ ...refund, text: 'x'.repeat(4_001) })).toEqual([
        400,
        expect.stringContaining('at most 4,000 characters (this one has 4,001)'),
      ]);
      expect(await refused({ ...refund, text: '  ' })).toEqual([
        400,
        expect.stringContaining('it is empty'),
      ]);
      expect(await refused({ ...refund, text: 'bell\u0007' })).toEqual([
        400,
        expect.stringContaining('control character'),
      ]);
      expect(await refused({ ...refund, tag: 't'.repeat(65) })).toEqual([
        400,
        expect.stringContaining('tag: at most 64'),
      ]);
      expect(await refused({ ...refund, source: 'jira' })).toEqual([
        400,
        '"jira" is not one of the systems this portal reads (reflexio, vertesia).',
      ]);
      expect(await refused({ ...refund, text: 'x'.repeat(17_000) })).toEqual([
        413,
        expect.stringContaining('over 16 KB'),
      ]);
      expect(
        await refused(JSON.stringify(refund), { 'content-type': 'application/x-json' }),
      ).toEqual([415, expect.stringContaining('as JSON')]);
      expect(await refused('[1]')).toEqual([400, 'The body must be a JSON object.']);
      expect((await call('alice@example.com', 'DELETE', '')).status).toBe(405);
      expect((await call('alice@example.com', 'GET', '/not-an-id')).status).toBe(404);
      // None of those reached the trail: refused before anything was attempted.
      expect(await trailOf(db)).toEqual([]);

      // One title per system and tag, whatever its case; another tag may reuse it.
      expect((await call('alice@example.com', 'POST', '', refund)).status).toBe(201);
      const again = await call('bob@example.com', 'POST', '', {
        ...refund,
        title: 'REFUND policy',
      });
      expect(again.status).toBe(409);
      expect(again.body.detail).toBe(
        'There is already a snippet called “REFUND policy” for reflexio: choose another title, or edit that one.',
      );
      expect(
        (await call('bob@example.com', 'POST', '', { ...refund, tag: 'billing' })).status,
      ).toBe(201);
      // The deployment's cap (2 here, 500 by default).
      const full = await call('bob@example.com', 'POST', '', { ...refund, title: 'Third' });
      expect(full.status).toBe(409);
      expect(full.body.detail).toContain('The team already keeps 2 snippets, the most');
      expect(full.body.detail).toContain('Manage snippets');
    },
    60_000,
  );

  runs(
    'an edit of a snippet someone changed meanwhile is refused with their version; a deleted one is gone',
    async () => {
      const [db] = (await open()) as [Db];
      const call = portal(snippetsOn(db));
      const { id } = (await call('alice@example.com', 'POST', '', refund)).body.snippet as Snippet;
      const edit = (who: string, version: number, text: string) =>
        call(who, 'PATCH', `/${id}`, { title: refund.title, text, version });
      expect((await edit('alice@example.com', 1, 'Alice’s words')).status).toBe(200);
      const late = await edit('bob@example.com', 1, 'Bob’s words');
      expect(late.status).toBe(409);
      expect(late.body.detail).toBe(
        'alice@example.com changed this snippet since you opened it: look at their version, then make your change again.',
      );
      expect(late.body.current).toMatchObject({ body: 'Alice’s words', version: 2 });
      expect((await call('bob@example.com', 'DELETE', `/${id}?version=1`)).status).toBe(409);
      expect((await call('bob@example.com', 'DELETE', `/${id}`)).status).toBe(200);
      const gone = await edit('alice@example.com', 2, 'Too late');
      expect(gone.status).toBe(404);
      expect(gone.body.detail).toContain('someone deleted it');
      expect((await call('bob@example.com', 'DELETE', `/${id}`)).status).toBe(404);
    },
    60_000,
  );

  runs(
    'a snippet that cannot be recorded in the trail is not saved; AUDIT_ANSWERS=hash keeps its text as a keyed hash',
    async () => {
      const [db] = (await open()) as [Db];
      const failing = portal(
        createSnippetsCore({
          store: sqlSnippets(db),
          trail: {
            insertAttempts: async () => {
              throw new Error('disk full');
            },
            insertOutcome: async () => {},
          },
          identity: SSO,
          systems: SYSTEMS,
          log: () => {},
        }),
      );
      const refused = await failing('alice@example.com', 'POST', '', refund);
      expect(refused.status).toBe(503);
      expect(refused.body.detail).toContain('could not write its audit trail');
      expect(await sqlSnippets(db).count()).toBe(0);

      const hashed = portal(snippetsOn(db, { answers: 'hash', hashKey: 'k'.repeat(32) }));
      expect((await hashed('alice@example.com', 'POST', '', refund)).status).toBe(201);
      const [entry] = await trailOf(db);
      expect(entry?.answerMode).toBe('hmac-sha256');
      expect(entry?.answer).toMatch(/^[0-9a-f]{64}$/);
    },
    60_000,
  );

  runs(
    'holds the cap when two replicas save at once',
    async () => {
      const dbs = await open(2);
      // Through the routes: the refusal the reviewer reads.
      const calls = dbs.map((db) => portal(snippetsOn(db, { max: 5 })));
      const results = await Promise.all(
        Array.from({ length: 12 }, (_, i) =>
          (calls[i % calls.length] as Call)(`r${i}@example.com`, 'POST', '', {
            ...refund,
            title: `Snippet ${i}`,
          }),
        ),
      );
      expect(results.filter((r) => r.status === 201).length).toBe(5);
      expect(results.filter((r) => r.status === 409).length).toBe(7);
      // The stores themselves, 60 at once: only the count and insert under one lock hold the cap.
      const stores = dbs.map(sqlSnippets);
      const created = await Promise.all(
        Array.from({ length: 60 }, (_, i) =>
          (stores[i % stores.length] as ReturnType<typeof sqlSnippets>).create(
            {
              id: globalThis.crypto.randomUUID(),
              sourceId: 'reflexio',
              reviewer: 'r@example.com',
              reviewerName: null,
              title: `Stored ${i}`,
              body: 'x',
              tag: null,
            },
            20,
          ),
        ),
      );
      expect(created.filter((r) => r.ok).length).toBe(15);
      expect(await sqlSnippets(dbs[0] as Db).count()).toBe(20);
    },
    60_000,
  );
});

describe('snippets behind the portal', () => {
  it('refuses a cross-site write, as every portal-api write is', async () => {
    const store = memorySnippets();
    const call = portal(
      createSnippetsCore({
        store,
        trail: sqlTrailStub(),
        identity: LOCAL,
        systems: SYSTEMS,
        log: () => {},
      }),
      LOCAL,
    );
    const crossSite = await call('alice', 'POST', '', refund, { 'sec-fetch-site': 'cross-site' });
    expect(crossSite.status).toBe(403);
    const otherOrigin = await call('alice', 'POST', '', refund, {
      origin: 'https://evil.example',
      host: 'portal.example',
    });
    expect(otherOrigin.status).toBe(403);
    const form = await call('alice', 'POST', '', JSON.stringify(refund), {
      'content-type': 'text/plain',
    });
    expect(form.status).toBe(415);
    expect(await store.count()).toBe(0);
    expect(
      (await call('alice', 'POST', '', refund, { 'sec-fetch-site': 'same-origin' })).status,
    ).toBe(201);
  });

  it('takes at most 60 changes a minute from one reviewer', async () => {
    let clock = 1_000_000;
    const call = portal(
      createSnippetsCore({
        store: memorySnippets(),
        trail: sqlTrailStub(),
        identity: SSO,
        systems: SYSTEMS,
        now: () => clock,
        log: () => {},
      }),
    );
    for (let i = 0; i < SNIPPET_LIMITS.writesPerMinute; i++) {
      expect((await call('alice@x', 'POST', '', { ...refund, title: `S${i}` })).status).toBe(201);
    }
    const held = await call('alice@x', 'POST', '', { ...refund, title: 'One more' });
    expect(held.status).toBe(429);
    expect(held.body.detail).toContain('what you typed is still here');
    expect((await call('bob@x', 'POST', '', { ...refund, title: 'One more' })).status).toBe(201);
    clock += 2_000;
    expect((await call('alice@x', 'POST', '', { ...refund, title: 'Later' })).status).toBe(201);
  });
});

/** A trail that keeps nothing (the tests above read the real one). */
function sqlTrailStub(): ReturnType<typeof sqlTrail> {
  return {
    insertAttempts: async () => {},
    insertOutcome: async () => {},
    listEntries: async () => ({ entries: [], nextCursor: null }),
  };
}
