import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import { ZenoClient, ZenoClientNotFoundError } from '@vertesia/client';
import { CURRENT_API_VERSION_HEADER_VALUE, VERSION_HEADER } from '@vertesia/common';
import {
  ListPendingAsksResponseSchema,
  PendingAskDataSchema,
  PendingAskStatusSchema,
  RegisterPendingAskRequestSchema,
  RegisterPendingAskResponseSchema,
  ResolvePendingAskRequestSchema,
  ResolvePendingAskResponseSchema,
} from '@vertesia/common/api-schemas';
import { afterEach, describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { createManualClock } from '../clock';
import { createVertesiaMock, VERTESIA_API_VERSION } from './app';
import { vertesiaDemoIds as ids } from './seed';

/**
 * The Vertesia mock against Vertesia's own published contract: driven over a real port by
 * Vertesia's client (`@vertesia/client`'s `pendingAsks`), every answer checked with the zod schemas
 * Vertesia publishes in `@vertesia/common/api-schemas`, and every request that client sends
 * accepted. The document-based contract (004_c6f74b07820db5b9.txt) is app.test.ts.
 */
const NOW = Date.parse('2026-11-30T12:00:00.000Z');
const KEY = 'vrt_contract_key';

interface Sent {
  method: string;
  path: string;
  headers: Headers;
  body: string;
}

const running: { close(): Promise<void> }[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((server) => server.close()));
});

async function setup() {
  const clock = createManualClock(NOW);
  const mock = createVertesiaMock({ clock, apiKey: KEY });
  const server = serve({ fetch: mock.app.fetch, port: 0, hostname: '127.0.0.1' });
  running.push({
    close: () =>
      new Promise<void>((resolve) => {
        if ('closeAllConnections' in server) server.closeAllConnections();
        server.close(() => resolve());
        mock.close();
      }),
  });
  await new Promise<void>((resolve) => {
    if (server.listening) resolve();
    else server.once('listening', () => resolve());
  });
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const sent: Sent[] = [];
  const responses: Response[] = [];
  const client = new ZenoClient({
    serverUrl: base,
    apikey: KEY,
    fetch: async (input, init) => {
      const request = new Request(input, init);
      sent.push({
        method: request.method,
        path: new URL(request.url).pathname,
        headers: request.headers,
        body: await request.clone().text(),
      });
      const response = await fetch(request);
      responses.push(response.clone());
      return response;
    },
  });
  const control = (path: string, body: unknown = {}) =>
    fetch(`${base}/__mock/${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
  return { base, client, sent, responses, control };
}

/** Parses with a published schema; on failure the issues are the assertion's message. */
function published<T>(schema: z.ZodType<T>, value: unknown): T {
  const parsed = schema.safeParse(value);
  expect(parsed.error?.issues ?? [], JSON.stringify(value).slice(0, 400)).toEqual([]);
  return parsed.data as T;
}

async function rejection(promise: Promise<unknown>) {
  return promise.then(
    () => {
      throw new Error('expected the call to fail');
    },
    (error: unknown) => error as Error & { status?: number; payload?: unknown },
  );
}

describe('the Vertesia mock, driven by @vertesia/client and checked by @vertesia/common', () => {
  it('pendingAsks.list: a ListPendingAsksResponse holding every status the schema has', async () => {
    const { client, sent, responses } = await setup();
    const list = published(ListPendingAsksResponseSchema, await client.pendingAsks.list());
    expect(new Set(list.asks.map((ask) => ask.status))).toEqual(
      new Set(PendingAskStatusSchema.options),
    );
    expect(list.asks.some((ask) => ask.taskId !== undefined)).toBe(true);
    expect(list.asks.some((ask) => ask.userChannels.some((c) => c.type === 'email'))).toBe(true);
    // What the client sends is what the mock implements: the path, the version, the key.
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatchObject({ method: 'GET', path: '/api/v1/pending-asks' });
    expect(sent[0]?.headers.get(VERSION_HEADER)).toBe(CURRENT_API_VERSION_HEADER_VALUE);
    expect(CURRENT_API_VERSION_HEADER_VALUE).toBe(VERTESIA_API_VERSION);
    expect(sent[0]?.headers.get('authorization')).toBe(`Bearer ${KEY}`);
    expect(responses[0]?.status).toBe(200);
  });

  it('pendingAsks.retrieve: a PendingAskData for each ask the list holds', async () => {
    const { client } = await setup();
    const { asks } = await client.pendingAsks.list();
    expect(asks.length).toBeGreaterThan(3);
    for (const listed of asks) {
      const ask = published(PendingAskDataSchema, await client.pendingAsks.retrieve(listed.askId));
      expect(ask).toEqual(listed);
    }
  });

  it('pendingAsks.resolve: a ResolvePendingAskResponse, then the ask reads as resolved', async () => {
    const { client, sent, control } = await setup();
    await control('clock', { advanceMs: 90_000 });
    const request = published(ResolvePendingAskRequestSchema, { response: 'eu-west-1, Dana' });
    const reply = published(
      ResolvePendingAskResponseSchema,
      await client.pendingAsks.resolve(ids.twoQuestions, request),
    );
    expect(reply.success).toBe(true);
    const last = sent.at(-1);
    expect(last).toMatchObject({
      method: 'POST',
      path: `/api/v1/pending-asks/${ids.twoQuestions}/resolve`,
    });
    published(ResolvePendingAskRequestSchema, JSON.parse(last?.body ?? 'null'));
    const ask = published(
      PendingAskDataSchema,
      await client.pendingAsks.retrieve(ids.twoQuestions),
    );
    expect(ask).toMatchObject({
      status: 'resolved',
      response: 'eu-west-1, Dana',
      resolvedAt: NOW + 90_000,
    });
    published(ListPendingAsksResponseSchema, await client.pendingAsks.list());
  });

  it('pendingAsks.register: a RegisterPendingAskResponse, and the new ask lists as PendingAskData', async () => {
    const { client } = await setup();
    const request = published(RegisterPendingAskRequestSchema, {
      runId: 'run-1',
      workflowId: 'wf-1',
      agentName: 'Contract agent',
      questions: ['First?', 'Second?'],
      timeoutHours: 2,
      userChannels: [
        { type: 'interactive' },
        { type: 'email', to_email: 'ops@example.com', thread_subject: 'Asks' },
      ],
      taskFields: [{ name: 'region', type: 'select', options: ['eu', 'us'], required: true }],
    });
    const reply = published(
      RegisterPendingAskResponseSchema,
      await client.pendingAsks.register(request),
    );
    expect(reply).toMatchObject({ success: true, webhookSent: true });
    const ask = published(
      PendingAskDataSchema,
      await client.pendingAsks.retrieve(reply.askId as string),
    );
    expect(ask).toMatchObject({
      status: 'pending',
      questions: ['First?', 'Second?'],
      expiresAt: NOW + 2 * 3_600_000,
    });
  });

  it('a resolve body is refused exactly when the published request schema refuses it', async () => {
    const { base } = await setup();
    const bodies: unknown[] = [
      { response: 'yes' },
      { response: '' },
      { response: '✓ 日本語 🙂'.repeat(500) },
      {},
      { response: 42 },
      { response: null },
      { response: 'yes', extra: true },
      { answer: 'yes' },
      [],
      'yes',
    ];
    for (const body of bodies) {
      const fresh = await fetch(`${base}/__mock/reset`, { method: 'POST' });
      expect(fresh.status).toBe(200);
      const response = await fetch(`${base}/api/v1/pending-asks/${ids.contract}/resolve`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${KEY}`,
          [VERSION_HEADER]: CURRENT_API_VERSION_HEADER_VALUE,
          'content-type': 'application/json',
        },
        body: JSON.stringify(body),
      });
      const accepted = ResolvePendingAskRequestSchema.safeParse(body).success;
      expect(response.status, JSON.stringify(body).slice(0, 80)).toBe(accepted ? 200 : 400);
      if (accepted) published(ResolvePendingAskResponseSchema, await response.json());
    }
  });

  it('resolving an ask twice: the client throws the 409 with the mock error body', async () => {
    const { client } = await setup();
    await client.pendingAsks.resolve(ids.refund, { response: 'Approve' });
    const error = await rejection(client.pendingAsks.resolve(ids.refund, { response: 'Deny' }));
    // @vertesia/common publishes no error schema; this is the document's ErrorResponse.
    expect(error.status).toBe(409);
    expect(error.payload).toMatchObject({
      error: 'Conflict',
      status: 409,
      message: expect.any(String),
      errorCode: 'pending_ask_already_resolved',
    });
    const ask = published(PendingAskDataSchema, await client.pendingAsks.retrieve(ids.refund));
    expect(ask).toMatchObject({ status: 'resolved', response: 'Approve' });
  });

  it('an unknown ask: the client raises its own not-found error', async () => {
    const { client } = await setup();
    const error = await rejection(client.pendingAsks.retrieve('no-such-ask'));
    expect(error).toBeInstanceOf(ZenoClientNotFoundError);
    expect(error.status).toBe(404);
    const resolving = await rejection(client.pendingAsks.resolve('no-such-ask', { response: 'x' }));
    expect(resolving).toBeInstanceOf(ZenoClientNotFoundError);
  });

  it('expired and superseded states still read as published records', async () => {
    const { client, control } = await setup();
    await control(`asks/${ids.contract}/expire`);
    await control(`asks/${ids.twoQuestions}/resolve`, { response: 'answered elsewhere' });
    await control('clock', { advanceMs: 30 * 24 * 3_600_000 });
    const list = published(ListPendingAsksResponseSchema, await client.pendingAsks.list());
    expect(list.asks.every((ask) => ask.status !== 'pending')).toBe(true);
    const error = await rejection(client.pendingAsks.resolve(ids.contract, { response: 'late' }));
    expect(error.status).toBeGreaterThanOrEqual(400);
    expect(error.status).toBeLessThan(500);
  });
});
