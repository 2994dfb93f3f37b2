import {
  type ApiClientOptions,
  ApiError,
  createApiClient,
  type ErrorReader,
  isApiError,
} from '@/lib/api-client';
import type { SourceKind } from './types';

export type { ErrorReader, ErrorReading } from '@/lib/api-client';

/** One request to a source's API, built by its adapter: full URL, headers, and the exact body. */
export interface WireRequest {
  method: 'GET' | 'POST';
  url: string;
  headers: Record<string, string>;
  body?: unknown;
}

/** An ApiError that also says which system answered and why, in a code the UI can branch on. */
export class SourceApiError extends ApiError {
  readonly sourceKind: SourceKind;

  constructor(init: ConstructorParameters<typeof ApiError>[0] & { sourceKind: SourceKind }) {
    super(init);
    this.sourceKind = init.sourceKind;
  }
}

/** Told of every response, for the server clock (see ServerTime). */
export type OnResponse = NonNullable<ApiClientOptions['onResponse']>;

export interface SendOptions {
  sourceKind: SourceKind;
  readError: ErrorReader;
  fetchImpl?: typeof fetch;
  onResponse?: OnResponse;
  signal?: AbortSignal;
  timeoutMs?: number;
}

/**
 * Sends a wire request through the app's one fetch wrapper (timeouts, redirects and sign-in pages,
 * malformed JSON all handled there; error bodies read with the source's own reader). A failure
 * says which system it came from.
 */
export async function sendWire(request: WireRequest, options: SendOptions): Promise<unknown> {
  const client = createApiClient({
    baseUrl: new URL(request.url).origin,
    headers: () => request.headers,
    readError: options.readError,
    ...(options.fetchImpl ? { fetchImpl: options.fetchImpl } : {}),
    ...(options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }),
    ...(options.onResponse ? { onResponse: options.onResponse } : {}),
  });
  try {
    return await client.request(request.url, {
      method: request.method,
      body: request.body,
      ...(options.signal ? { signal: options.signal } : {}),
    });
  } catch (error) {
    // An HTTP failure (a status): the system answered, and its kind of error says so.
    if (!isApiError(error) || error.status < 400) throw error;
    throw new SourceApiError({
      kind: error.kind,
      status: error.status,
      detail: error.detail,
      code: error.code,
      description: error.description,
      fieldErrors: error.fieldErrors,
      retryAfterMs: error.retryAfterMs,
      method: error.method,
      url: error.url,
      message: error.message,
      sourceKind: options.sourceKind,
    });
  }
}
