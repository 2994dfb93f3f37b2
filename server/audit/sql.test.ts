import { createHmac } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { createMockBackend } from '../../mock/app';
import { createBilbyMock } from '../../mock/bilby/app';
import { BILBY_ORGANIZATION_ID } from '../../mock/bilby/seed';
import { createVertesiaMock, VERTESIA_API_VERSION } from '../../mock/vertesia/app';
import type { Db } from '../db/engine';
import { withEmbeddedDb } from '../db/test-db';
import { createPortalApp } from '../http/portal';
import type { IdentityConfig } from '../identity/identity';
import { servedSystems } from '../proxy/systems';
import { csvField } from './csv';
import { parseQuery } from './query';
import { type AuditOptions, createAudit } from './sql';
import type { AuditEntry } from './types';

const SSO: IdentityConfig = { header: 'x-forwarded-email', nameHeader: 'x-forwarded-user' };
const LOCAL: IdentityConfig = { header: null, nameHeader: null };

let db: Db;
const closers: (() => void)[] = [];
// One embedded database for the file, emptied between tests.
withEmbeddedDb((opened) => {
  db = opened;
});
afterEach(() => {
  for (const close of closers.splice(0)) close();
});

function portal(identity: IdentityConfig, extra: Partial<AuditOptions> = {}) {
  const mock = createMockBackend({ seed: 'demo' });
  const vertesia = createVertesiaMock({ seed: 'demo' });
  const bilby = createBilbyMock({ seed: 'demo', runAfterAnswerMs: 0 });
  closers.push(mock.close, vertesia.close, bilby.close);
  const audit = createAudit({ db, identity, log: () => {}, ...extra });
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
  });
  const call = async (
    method: string,
    path: string,
    body?: unknown,
    headers: Record<string, string> = {},
  ) => {
    const response = await app.request(path, {
      method,
      headers: {
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
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
  return { app, call };
}

type Call = ReturnType<typeof portal>['call'];

async function pendingReflexio(call: Call, count: number): Promise<string[]> {
  const list = await call('GET', '/api/pending_tool_calls?status=pending&limit=100');
  const calls = (list.json as { pending_tool_calls: { id: string; tool_name: string }[] })
    .pending_tool_calls;
  return calls.slice(0, count).map((c) => c.id);
}

async function activity(call: Call, query = '', headers: Record<string, string> = {}) {
  const reply = await call('GET', `/portal-api/activity${query}`, undefined, headers);
  expect(reply.status).toBe(200);
  return reply.json as { entries: AuditEntry[]; nextCursor: number | null };
}

const alice = { 'x-forwarded-email': 'alice@example.com', 'x-forwarded-user': 'Alice' };
const bob = { 'x-forwarded-email': 'bob@example.com' };

describe('the audit trail, recorded by the server', () => {
  it('tells the team which questions a system accepted an action on (their claims go), not refused ones', async () => {
    const accepted: [string, string[]][] = [];
    const { call } = portal(SSO, {
      onAccepted: async (source, ids) => {
        accepted.push([source, ids]);
      },
    });
    const [a] = await pendingReflexio(call, 1);
    await call(
      'POST',
      `/api/pending_tool_calls/${a}/resolve`,
      { result: { answer: 'Yes' } },
      alice,
    );
    await call(
      'POST',
      `/api/pending_tool_calls/${a}/resolve`,
      { result: { answer: 'Again' } },
      bob,
    );
    expect(accepted).toEqual([['reflexio', [a]]]);
  });

  it('records each Reflexio action with the reviewer, the answer sent and the outcome', async () => {
    const { call } = portal(SSO);
    const [a, b, c, d] = await pendingReflexio(call, 4);
    expect(d).toBeDefined();
    expect(
      (
        await call(
          'POST',
          `/api/pending_tool_calls/${a}/resolve`,
          { result: { answer: 'Yes' } },
          alice,
        )
      ).status,
    ).toBe(200);
    expect(
      (await call('PATCH', `/api/pending_tool_calls/${a}/answer`, { answer: 'No' }, bob)).status,
    ).toBe(200);
    await call('POST', `/api/pending_tool_calls/${b}/not_applicable`, {}, alice);
    await call('POST', `/api/pending_tool_calls/${c}/cancel`, undefined, alice);
    await call('POST', `/api/pending_tool_calls/${d}/resolve`, { result: { rows: 3 } }, bob);
    const { entries } = await activity(call, '', alice);
    expect(entries.map((e) => [e.questionId, e.action, e.reviewer, e.answer, e.status])).toEqual([
      [d, 'resolve-json', 'bob@example.com', '{"rows":3}', expect.any(Number)],
      [c, 'cancel', 'alice@example.com', null, 200],
      [b, 'not-applicable', 'alice@example.com', null, 200],
      [a, 'edit', 'bob@example.com', 'No', 200],
      [a, 'answer', 'alice@example.com', 'Yes', 200],
    ]);
    expect(entries.at(-1)?.reviewerName).toBe('Alice');
    expect(entries.every((e) => e.sourceId === 'reflexio' && e.requestId)).toBe(true);
  });

  it('records a refusal the upstream returned, with its status', async () => {
    const { call } = portal(SSO);
    const [a] = await pendingReflexio(call, 1);
    await call(
      'POST',
      `/api/pending_tool_calls/${a}/resolve`,
      { result: { answer: 'Yes' } },
      alice,
    );
    const again = await call(
      'POST',
      `/api/pending_tool_calls/${a}/resolve`,
      { result: { answer: 'Again' } },
      bob,
    );
    expect(again.status).toBe(409);
    const { entries } = await activity(call, `?question=${a}`, alice);
    expect(entries.map((e) => [e.reviewer, e.status])).toEqual([
      ['bob@example.com', 409],
      ['alice@example.com', 200],
    ]);
    expect(entries[0]?.detail).toBeTruthy();
  });

  it('records Vertesia answers and each member of a Bilby batch', async () => {
    const { call } = portal(SSO);
    const v = { 'x-api-version': VERTESIA_API_VERSION, ...alice };
    const asks = await call('GET', '/vertesia/api/v1/pending-asks', undefined, v);
    const ask = (asks.json as { asks: { askId: string; status: string }[] }).asks.find(
      (x) => x.status === 'pending',
    );
    expect(ask).toBeDefined();
    const resolved = await call(
      'POST',
      `/vertesia/api/v1/pending-asks/${ask?.askId}/resolve`,
      { response: 'Ship it' },
      v,
    );
    expect(resolved.status).toBeLessThan(300);

    const org = `organizationId=${BILBY_ORGANIZATION_ID}`;
    const list = await call('GET', `/bilby/api/v1/conversations?${org}`, undefined, bob);
    type Detail = {
      id: string;
      status: string;
      pendingQuestions: {
        toolCallId: string;
        questions: { question: string; options: { label: string }[] }[];
      }[];
    };
    let conversation: Detail | undefined;
    for (const listed of (
      list.json as { conversations: { id: string; pendingQuestionCount: number }[] }
    ).conversations) {
      if (listed.pendingQuestionCount === 0) continue;
      const detail = await call(
        'GET',
        `/bilby/api/v1/conversations/${listed.id}?${org}`,
        undefined,
        bob,
      );
      const read = detail.json as Detail;
      if (read.status === 'idle') {
        conversation = read;
        break;
      }
    }
    expect(conversation).toBeDefined();
    const pending = (conversation as Detail).pendingQuestions;
    const outputs = pending.map((p, index) => ({
      toolCallId: p.toolCallId,
      output:
        index === 0
          ? {
              status: 'answered',
              answers: p.questions.map((q) => ({
                question: q.question,
                selected: [q.options[0]?.label],
              })),
              summary: 'Chosen',
            }
          : { status: 'dismissed', answers: [], summary: 'Not applicable' },
    }));
    const sent = await call(
      'POST',
      `/bilby/api/v1/conversations/${conversation?.id}/tool-outputs?${org}`,
      { outputs },
      bob,
    );
    expect(sent.status).toBe(202);

    const vertesiaEntries = await activity(call, '?source=vertesia', alice);
    expect(vertesiaEntries.entries.map((e) => [e.questionId, e.action, e.answer])).toEqual([
      [ask?.askId, 'answer', 'Ship it'],
    ]);
    const bilbyEntries = (await activity(call, '?source=bilby', alice)).entries.reverse();
    expect(bilbyEntries.map((e) => [e.questionId, e.action, e.reviewer, e.status])).toEqual(
      outputs.map((o, index) => [
        `${conversation?.id}:${o.toolCallId}`,
        index === 0 ? 'answer' : 'not-applicable',
        'bob@example.com',
        202,
      ]),
    );
  });

  it('refuses a write without the SSO header, saying the proxy must set it, and records nothing', async () => {
    const { call } = portal(SSO);
    const [a] = await pendingReflexio(call, 1);
    const refused = await call('POST', `/api/pending_tool_calls/${a}/resolve`, {
      result: { answer: 'Yes' },
    });
    expect(refused.status).toBe(401);
    expect((refused.json as { detail: string }).detail).toMatch(
      /SSO proxy .* must set the x-forwarded-email header/,
    );
    expect((await call('GET', `/api/pending_tool_calls/${a}`)).json).toMatchObject({
      status: 'pending',
    });
    expect((await call('GET', '/portal-api/activity')).status).toBe(401);
    expect((await call('GET', '/portal-api/activity.csv')).status).toBe(401);
    expect((await activity(call, '', alice)).entries).toEqual([]);
  });

  it('ignores a browser-named reviewer when the SSO header decides', async () => {
    const { call } = portal(SSO);
    const [a, b] = await pendingReflexio(call, 2);
    const forged = { 'x-portal-reviewer': 'mallory', cookie: 'qi_reviewer=mallory' };
    expect(
      (await call('POST', `/api/pending_tool_calls/${a}/cancel`, undefined, forged)).status,
    ).toBe(401);
    await call('POST', `/api/pending_tool_calls/${b}/cancel`, undefined, { ...forged, ...bob });
    const { entries } = await activity(call, '', alice);
    expect(entries.map((e) => e.reviewer)).toEqual(['bob@example.com']);
    const me = await call('GET', '/portal-api/me', undefined, { ...forged, ...bob });
    expect(me.json).toMatchObject({
      reviewer: { id: 'bob@example.com', from: 'sso' },
      identity: 'sso',
    });
  });

  it('takes the reviewer named in the browser when there is no SSO proxy, defaulting to "Reviewer"', async () => {
    const { call } = portal(LOCAL);
    const [a, b] = await pendingReflexio(call, 2);
    await call('POST', `/api/pending_tool_calls/${a}/cancel`, undefined, {
      'x-portal-reviewer': encodeURIComponent('Zoë'),
    });
    await call('POST', `/api/pending_tool_calls/${b}/cancel`);
    const [c] = (await pendingReflexio(call, 1)) as [string];
    await call('POST', `/api/pending_tool_calls/${c}/cancel`, undefined, {
      cookie: `mock_tenant=default; qi_reviewer=${encodeURIComponent('Ann B')}`,
    });
    const { entries } = await activity(call);
    expect(entries.map((e) => e.reviewer)).toEqual(['Ann B', 'Reviewer', 'Zoë']);
  });

  it('never forwards an identity header upstream', async () => {
    const seen: Headers[] = [];
    const audit = createAudit({ db, identity: SSO, log: () => {} });
    const app = createPortalApp({
      mock: {
        fetch: (request: Request) => {
          seen.push(request.headers);
          return new Response('{"id":"x"}', { headers: { 'content-type': 'application/json' } });
        },
      },
      around: audit.around,
      portalApi: audit.api,
      log: () => {},
    });
    await app.request('/api/pending_tool_calls/x/cancel', {
      method: 'POST',
      headers: { ...alice, 'x-portal-reviewer': 'mallory', cookie: 'qi_reviewer=mallory; a=1' },
    });
    await app.request('/api/pending_tool_calls', { headers: alice });
    expect(seen).toHaveLength(2);
    for (const headers of seen) {
      expect(headers.get('x-forwarded-email')).toBeNull();
      expect(headers.get('x-forwarded-user')).toBeNull();
      expect(headers.get('x-portal-reviewer')).toBeNull();
    }
    expect(seen[0]?.get('cookie')).toBe('a=1');
  });

  it('keeps a keyed hash or nothing of the answer when AUDIT_ANSWERS says so', async () => {
    const hashed = portal(SSO, { answers: 'hash', hashKey: 'k'.repeat(32) });
    const [a] = await pendingReflexio(hashed.call, 1);
    await hashed.call(
      'POST',
      `/api/pending_tool_calls/${a}/resolve`,
      { result: { answer: 'secret' } },
      alice,
    );
    const [entry] = (await activity(hashed.call, '', alice)).entries;
    expect(entry?.answer).toBe(createHmac('sha256', 'k'.repeat(32)).update('secret').digest('hex'));
    expect(entry?.answerMode).toBe('hmac-sha256');
    expect(entry?.answerSha256).toBeNull();
  });

  it('does not send an action whose attempt cannot be recorded, and says so', async () => {
    const { call } = portal(SSO, { failWrites: () => new Error('No space left on device') });
    const [a] = await pendingReflexio(call, 1);
    const refused = await call(
      'POST',
      `/api/pending_tool_calls/${a}/resolve`,
      { result: { answer: 'Yes' } },
      alice,
    );
    expect(refused.status).toBe(503);
    expect((refused.json as { detail: string }).detail).toMatch(/audit trail.*still in the form/);
    expect((await call('GET', `/api/pending_tool_calls/${a}`)).json).toMatchObject({
      status: 'pending',
    });
  });

  it('exports the same filter as CSV, fields quoted and formulas defused', async () => {
    const { call } = portal(SSO);
    const [a, b] = await pendingReflexio(call, 2);
    await call(
      'POST',
      `/api/pending_tool_calls/${a}/resolve`,
      { result: { answer: 'Yes, "quoted", two\nlines' } },
      alice,
    );
    await call(
      'POST',
      `/api/pending_tool_calls/${b}/resolve`,
      { result: { answer: '=HYPERLINK(1)' } },
      bob,
    );
    const csv = await call(
      'GET',
      '/portal-api/activity.csv?reviewer=alice%40example.com',
      undefined,
      bob,
    );
    expect(csv.status).toBe(200);
    expect(csv.headers.get('content-type')).toMatch(/text\/csv/);
    expect(csv.headers.get('content-disposition')).toMatch(/attachment/);
    const lines = csv.text.trim().split('\r\n');
    expect(lines[0]).toBe(
      'time,reviewer,reviewer_name,source,source_kind,question_id,question_asked,action,status,request_id,answer,answer_kept_as,answer_bytes,answer_sha256,detail,reviewer_self_named',
    );
    expect(lines).toHaveLength(2);
    expect(lines[1]).toContain(
      `"alice@example.com","Alice","reflexio","reflexio","${a}",,"answer",200,`,
    );
    expect(lines[1]).toContain('"Yes, ""quoted"", two\nlines","full",24,');
    expect(csvField('=HYPERLINK(1)')).toBe(`"'=HYPERLINK(1)"`);
  });

  it('checks the read API query', () => {
    expect(parseQuery(new URLSearchParams('limit=0'))).toMatchObject({ error: /limit/ });
    expect(parseQuery(new URLSearchParams('action=delete'))).toMatchObject({
      error: /Unknown action/,
    });
    expect(parseQuery(new URLSearchParams('from=yesterday'))).toMatchObject({ error: /from/ });
    expect(parseQuery(new URLSearchParams('question=a&question=b&reviewer=x'))).toMatchObject({
      filter: { questionIds: ['a', 'b'], reviewer: 'x' },
      page: { cursor: null, limit: 50 },
    });
  });
});
