import { type ApiClientOptions, createApiClient, type ErrorReader } from '@/lib/api-client';

export type { ErrorReader, ErrorReading } from '@/lib/api-client';

/** One request to a source's API, built by its adapter: full URL, headers, and the exact body. */
export interface WireRequest {
  method: 'GET' | 'POST';
  url: string;
  headers: Record<string, string>;
  body?: unknown;
}

/** Told of every response, for the server clock (see ServerTime). */
export type OnResponse = NonNullable<ApiClientOptions['onResponse']>;

export interface SendOptions {
  readError: ErrorReader;
  fetchImpl?: typeof fetch;
  onResponse?: OnResponse;
  signal?: AbortSignal;
  timeoutMs?: number;
}

/**
 * Sends a wire request through the app's one fetch wrapper (timeouts, redirects and sign-in pages,
 * malformed JSON all handled there; error bodies read with the source's own reader).
 */
export function sendWire(request: WireRequest, options: SendOptions): Promise<unknown> {
  const client = createApiClient({
    baseUrl: new URL(request.url).origin,
    headers: () => request.headers,
    readError: options.readError,
    ...(options.fetchImpl ? { fetchImpl: options.fetchImpl } : {}),
    ...(options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }),
    ...(options.onResponse ? { onResponse: options.onResponse } : {}),
  });
  return client.request(request.url, {
    method: request.method,
    body: request.body,
    ...(options.signal ? { signal: options.signal } : {}),
  });
}
