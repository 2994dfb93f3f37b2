import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createMockBackend } from './app';
import { corruptBody, createFaultQueue } from './faults';
import { demoIds } from './seed';
import type { PendingToolCallRecord } from './store';
import { harness } from './test-support';

const API = '/api/pending_tool_calls';
type List = { pending_tool_calls: PendingToolCallRecord[] };

afterEach(() => {
  vi.useRealTimers();
});

describe('fault queue', () => {
  it('takes the first matching fault with count left and decrements it', () => {
    const queue = createFaultQueue();
    queue.add({
      kind: 'status',
      count: 2,
      status: 503,
      match: { method: 'post', path: '/resolve' },
    });
    queue.add({ kind: 'html', count: 1 });
    expect(queue.take('GET', `${API}/x`)?.kind).toBe('html');
    expect(queue.take('GET', `${API}/x`)).toBeNull();
    expect(queue.take('POST', `${API}/x/resolve`)?.remaining).toBe(1);
    expect(queue.list()).toHaveLength(1);
    expect(queue.take('POST', `${API}/x/resolve`)?.remaining).toBe(0);
    expect(queue.list()).toEqual([]);
  });
});

describe('fault kinds through the app', () => {
  it('status: FastAPI body with the given detail and headers, then back to normal', async () => {
    const h = harness();
    const added = await h.control('POST', '/__mock/faults', {
      kind: 'status',
      status: 429,
      detail: 'Too many requests, slow down',
      headers: { 'Retry-After': '5' },
      count: 2,
    });
    expect(added.status).toBe(201);
    for (let i = 0; i < 2; i += 1) {
      const reply = await h.call('GET', API);
      expect(reply.status).toBe(429);
      expect(reply.body).toEqual({ detail: 'Too many requests, slow down' });
      expect(reply.headers.get('retry-after')).toBe('5');
      expect(reply.headers.get('content-type')).toBe('application/json');
    }
    expect((await h.call('GET', API)).status).toBe(200);
  });

  it('status: sensible default details, list-shaped 422, and non-JSON proxy pages', async () => {
    const h = harness();
    await h.control('POST', '/__mock/faults', { kind: 'status', status: 503 });
    expect(await h.call('GET', API)).toMatchObject({
      status: 503,
      body: { detail: 'Storage not configured' },
    });
    await h.control('POST', '/__mock/faults', {
      kind: 'status',
      status: 503,
      detail: 'Pending tool calls are not supported by the configured storage backend',
    });
    expect((await h.call('GET', API)).body).toEqual({
      detail: 'Pending tool calls are not supported by the configured storage backend',
    });
    const listDetail = [
      { type: 'missing', loc: ['body', 'result'], msg: 'Field required', input: {} },
    ];
    await h.control('POST', '/__mock/faults', { kind: 'status', status: 422, detail: listDetail });
    expect((await h.call('GET', API)).body).toEqual({ detail: listDetail });

    for (const status of [413, 502, 504]) {
      await h.control('POST', '/__mock/faults', { kind: 'status', status, detail: null });
      const reply = await h.call('GET', API);
      expect(reply.status).toBe(status);
      expect(reply.headers.get('content-type')).toContain('text/html');
      expect(() => JSON.parse(reply.text)).toThrow();
      expect(reply.text).toContain(String(status));
    }
  });

  it('status faults replace the request: nothing changes server-side', async () => {
    const h = harness();
    await h.control('POST', '/__mock/faults', { kind: 'status', status: 500 });
    const reply = await h.call('POST', `${API}/${demoIds.pendingYesNo}/cancel`);
    expect(reply).toMatchObject({ status: 500, body: { detail: 'Internal Server Error' } });
    expect((await h.getCall(demoIds.pendingYesNo)).status).toBe('pending');
  });

  it('match.method and match.path select which requests are faulted', async () => {
    const h = harness();
    await h.control('POST', '/__mock/faults', {
      kind: 'status',
      status: 409,
      match: { method: 'PATCH', path: '/answer' },
    });
    expect((await h.call('GET', API)).status).toBe(200);
    expect((await h.call('POST', `${API}/${demoIds.pendingYesNo}/cancel`)).status).toBe(200);
    const patched = await h.call('PATCH', `${API}/${demoIds.resolved}/answer`, { answer: 'x' });
    expect(patched.status).toBe(409);
    expect(
      (await h.call('PATCH', `${API}/${demoIds.resolved}/answer`, { answer: 'x' })).status,
    ).toBe(200);
  });

  it('latency: waits latencyMs, then answers normally', async () => {
    vi.useFakeTimers();
    const h = harness();
    await h.control('POST', '/__mock/faults', { kind: 'latency', latencyMs: 5000 });
    let settled = false;
    const pending = h.call('GET', API).then((reply) => {
      settled = true;
      return reply;
    });
    await vi.advanceTimersByTimeAsync(4999);
    expect(settled).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    const reply = await pending;
    expect(settled).toBe(true);
    expect(reply.status).toBe(200);
  });

  it('latency can be combined with another kind', async () => {
    vi.useFakeTimers();
    const h = harness();
    await h.control('POST', '/__mock/faults', { kind: 'status', status: 504, latencyMs: 60_000 });
    let settled = false;
    const pending = h.call('GET', API).then((reply) => {
      settled = true;
      return reply;
    });
    await vi.advanceTimersByTimeAsync(59_999);
    expect(settled).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect((await pending).status).toBe(504);
  });

  it('html: a 200 sign-in page where JSON was expected', async () => {
    const h = harness();
    await h.control('POST', '/__mock/faults', { kind: 'html' });
    const reply = await h.call('POST', `${API}/${demoIds.pendingYesNo}/resolve`, {
      result: { answer: 'yes' },
    });
    expect(reply.status).toBe(200);
    expect(reply.headers.get('content-type')).toContain('text/html');
    expect(reply.text).toContain('Sign in to continue');
    expect((await h.getCall(demoIds.pendingYesNo)).status).toBe('pending');
  });

  it('html with a status', async () => {
    const h = harness();
    await h.control('POST', '/__mock/faults', { kind: 'html', status: 401 });
    const reply = await h.call('GET', API);
    expect(reply.status).toBe(401);
    expect(reply.text).toContain('Sign in to continue');
  });

  it('redirect: 302 to /__mock/sign-in, which serves an HTML page', async () => {
    const h = harness();
    await h.control('POST', '/__mock/faults', { kind: 'redirect' });
    const reply = await h.call('GET', API);
    expect(reply.status).toBe(302);
    expect(reply.headers.get('location')).toBe('/__mock/sign-in');
    const page = await h.control('GET', '/__mock/sign-in');
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toContain('text/html');
    expect(page.text).toContain('Sign in to continue');
  });

  it('malformed: 200 application/json with a truncated body', async () => {
    const h = harness();
    await h.control('POST', '/__mock/faults', { kind: 'malformed' });
    const response = await h.backend.app.request(API);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/json');
    await expect(response.json()).rejects.toThrow();
  });

  it('corrupt: damages the record at index 1 of a list; the others stay intact', async () => {
    const h = harness();
    const clean = await h.call<List>('GET', `${API}?limit=5`);
    await h.control('POST', '/__mock/faults', { kind: 'corrupt' });
    const damaged = await h.call<{ pending_tool_calls: Record<string, unknown>[] }>(
      'GET',
      `${API}?limit=5`,
    );
    expect(damaged.status).toBe(200);
    const [first, second, ...rest] = damaged.body.pending_tool_calls;
    expect(first).toEqual(clean.body.pending_tool_calls[0]);
    expect(second).toEqual({
      ...clean.body.pending_tool_calls[1],
      status: 42,
      tags: 'not-a-list',
      created_at: 'yesterday',
    });
    expect(rest).toEqual(clean.body.pending_tool_calls.slice(2));
    expect(await h.call('GET', `${API}?limit=5`)).toMatchObject({ body: clean.body });
  });

  it('corrupt: a one-record list and a single record are damaged too', async () => {
    const h = harness();
    await h.control('POST', '/__mock/faults', { kind: 'corrupt', count: 2 });
    const one = await h.call<{ pending_tool_calls: Record<string, unknown>[] }>(
      'GET',
      `${API}?limit=1`,
    );
    expect(one.body.pending_tool_calls[0]).toMatchObject({ status: 42, tags: 'not-a-list' });
    const single = await h.call<Record<string, unknown>>('GET', `${API}/${demoIds.resolved}`);
    expect(single.body).toMatchObject({
      id: demoIds.resolved,
      status: 42,
      tags: 'not-a-list',
      created_at: 'yesterday',
    });
  });

  it('corrupt handles the request normally (the write happens)', async () => {
    const h = harness();
    await h.control('POST', '/__mock/faults', { kind: 'corrupt' });
    const reply = await h.call('POST', `${API}/${demoIds.pendingYesNo}/cancel`);
    expect(reply.body).toMatchObject({ status: 42 });
    expect((await h.getCall(demoIds.pendingYesNo)).status).toBe('cancelled');
  });

  it('corruptBody leaves error bodies alone', () => {
    expect(corruptBody({ detail: 'Not Found' })).toEqual({ detail: 'Not Found' });
    expect(corruptBody({ pending_tool_calls: [] })).toEqual({ pending_tool_calls: [] });
  });

  it('drop through app.request: Response.error() (a network error for MSW)', async () => {
    const h = harness();
    await h.control('POST', '/__mock/faults', { kind: 'drop' });
    const response = await h.backend.app.request(`${API}/${demoIds.pendingYesNo}/cancel`, {
      method: 'POST',
    });
    expect(response.type).toBe('error');
    expect(response.status).toBe(0);
    expect((await h.getCall(demoIds.pendingYesNo)).status).toBe('pending');
  });

  it('drop through a real @hono/node-server: fetch rejects, the server keeps serving', async () => {
    const h = harness();
    const server = serve({ fetch: h.backend.app.fetch, port: 0, hostname: '127.0.0.1' });
    try {
      await new Promise<void>((resolve) => {
        if (server.listening) resolve();
        else server.once('listening', () => resolve());
      });
      const { port } = server.address() as AddressInfo;
      const base = `http://127.0.0.1:${port}`;
      await fetch(`${base}/__mock/faults`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ kind: 'drop' }),
      });
      await expect(fetch(`${base}${API}`)).rejects.toThrow();
      const after = await fetch(`${base}${API}?limit=1`);
      expect(after.status).toBe(200);
    } finally {
      await new Promise<void>((resolve) => {
        if ('closeAllConnections' in server) server.closeAllConnections();
        server.close(() => resolve());
      });
    }
  });

  it('faults never touch /__mock and are listed in state until used up', async () => {
    const h = harness();
    await h.control('POST', '/__mock/faults', { kind: 'status', status: 500, count: 3 });
    const state = await h.control<{ faults: { kind: string; remaining: number }[] }>(
      'GET',
      '/__mock/state',
    );
    expect(state.status).toBe(200);
    expect(state.body.faults).toMatchObject([{ kind: 'status', remaining: 3 }]);
    await h.call('GET', API);
    const later = await h.control<{ faults: { remaining: number }[] }>('GET', '/__mock/state');
    expect(later.body.faults).toMatchObject([{ remaining: 2 }]);
    const cleared = await h.control('DELETE', '/__mock/faults');
    expect(cleared.body).toEqual({ cleared: 1 });
    expect((await h.call('GET', API)).status).toBe(200);
  });

  it('a fault fires before auth (it stands for a proxy in front of the API)', async () => {
    const h = harness({ apiKey: 'secret' });
    await h.control('POST', '/__mock/faults', { kind: 'status', status: 502 });
    expect((await h.call('GET', API)).status).toBe(502);
    expect((await h.call('GET', API)).status).toBe(401);
  });

  it('rejects an invalid fault spec', async () => {
    const h = harness();
    const reply = await h.control('POST', '/__mock/faults', { kind: 'explode' });
    expect(reply.status).toBe(422);
    const unknownKey = await h.control('POST', '/__mock/faults', { kind: 'drop', often: true });
    expect(unknownKey.status).toBe(422);
  });
});

describe('base latency', () => {
  it('makes every API answer take latencyMs, give or take a third', async () => {
    vi.useFakeTimers();
    try {
      const backend = createMockBackend({ latencyMs: 1000, sweepIntervalMs: 0 });
      let answered = false;
      const request = Promise.resolve(backend.app.request('/api/pending_tool_calls?limit=1')).then(
        (response) => {
          answered = true;
          return response;
        },
      );
      await vi.advanceTimersByTimeAsync(600);
      expect(answered).toBe(false);
      await vi.advanceTimersByTimeAsync(800);
      expect((await request).status).toBe(200);
      backend.close();
    } finally {
      vi.useRealTimers();
    }
  });
});
