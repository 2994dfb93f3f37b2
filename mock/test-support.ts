import { createMockBackend, type MockBackend, type MockOptions } from './app';
import { createManualClock, type ManualClock } from './clock';
import type { PendingToolCallRecord } from './store';

/** Shared by the mock's own tests only. */
export const START = Date.parse('2026-11-30T09:00:00.000Z');
export const SECOND = 1000;
export const MINUTE = 60 * SECOND;
export const HOUR = 60 * MINUTE;
export const DAY = 24 * HOUR;

export interface Reply<T = unknown> {
  status: number;
  body: T;
  headers: Headers;
  text: string;
}

export interface Harness {
  backend: MockBackend;
  clock: ManualClock;
  call<T = unknown>(
    method: string,
    path: string,
    body?: unknown,
    headers?: Record<string, string>,
  ): Promise<Reply<T>>;
  control<T = unknown>(
    method: string,
    path: string,
    body?: unknown,
    headers?: Record<string, string>,
  ): Promise<Reply<T>>;
  ask(question: string, extra?: Record<string, unknown>): Promise<PendingToolCallRecord>;
  getCall(id: string): Promise<PendingToolCallRecord>;
}

export function harness(options: MockOptions = {}): Harness {
  const clock = createManualClock(START);
  const backend = createMockBackend({ clock, sweepIntervalMs: 0, ...options });

  async function call<T>(
    method: string,
    path: string,
    body?: unknown,
    headers: Record<string, string> = {},
  ): Promise<Reply<T>> {
    const init: RequestInit = { method, headers: { ...headers } };
    if (body !== undefined) {
      init.body = typeof body === 'string' ? body : JSON.stringify(body);
      init.headers = { 'content-type': 'application/json', ...headers };
    }
    const response = await backend.app.request(path, init);
    const text = await response.text();
    let parsed: unknown = text;
    try {
      parsed = JSON.parse(text);
    } catch {
      // Non-JSON bodies (faults, proxies) stay as text.
    }
    return { status: response.status, body: parsed as T, headers: response.headers, text };
  }

  async function ask(question: string, extra: Record<string, unknown> = {}) {
    const reply = await call<{ created: boolean; call: PendingToolCallRecord }>(
      'POST',
      '/__mock/questions',
      { question, ...extra },
    );
    if (reply.status !== 201) throw new Error(`ask failed: ${reply.status} ${reply.text}`);
    return reply.body.call;
  }

  async function getCall(id: string) {
    const reply = await call<PendingToolCallRecord>('GET', `/api/pending_tool_calls/${id}`);
    if (reply.status !== 200) throw new Error(`get ${id} failed: ${reply.status} ${reply.text}`);
    return reply.body;
  }

  return { backend, clock, call, control: call, ask, getCall };
}

export function iso(ms: number): string {
  return new Date(ms).toISOString();
}
