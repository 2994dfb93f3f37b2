import type { Hono } from 'hono';

/** Shared by the Vertesia and Bilby mocks' own tests only. */
export interface Reply<T = unknown> {
  status: number;
  body: T;
  headers: Headers;
  text: string;
}

export function caller(app: Pick<Hono, 'request'>, defaults: Record<string, string> = {}) {
  return async function call<T = unknown>(
    method: string,
    path: string,
    body?: unknown,
    headers: Record<string, string> = {},
  ): Promise<Reply<T>> {
    const init: RequestInit = { method, headers: { ...defaults, ...headers } };
    if (body !== undefined) {
      init.body = typeof body === 'string' ? body : JSON.stringify(body);
      init.headers = { 'content-type': 'application/json', ...defaults, ...headers };
    }
    const response = await app.request(path, init);
    const text = await response.text();
    let parsed: unknown = text;
    try {
      parsed = JSON.parse(text);
    } catch {
      // Non-JSON bodies (faults) stay as text.
    }
    return { status: response.status, body: parsed as T, headers: response.headers, text };
  };
}
