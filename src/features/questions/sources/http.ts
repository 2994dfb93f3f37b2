import {
  type ApiClientOptions,
  ApiError,
  type ApiErrorKind,
  createApiClient,
  type FieldError,
  isApiError,
} from '@/lib/api-client';
import type { SourceKind } from './types';

/** One request to a source's API, built by its adapter: full URL, headers, and the exact body. */
export interface WireRequest {
  method: 'GET' | 'POST';
  url: string;
  headers: Record<string, string>;
  body?: unknown;
}

/** What an adapter reads from an error body; null when the body is not the source's own. */
export interface ErrorReading {
  kind: ApiErrorKind;
  detail: string | null;
  /** The source's machine-readable reason (Vertesia `errorCode`) or the adapter's own. */
  code: string | null;
  fieldErrors?: FieldError[];
}

export type ErrorReader = (status: number, body: unknown) => ErrorReading | null;

/** An ApiError that also says which system answered and why, in a code the UI can branch on. */
export class SourceApiError extends ApiError {
  readonly sourceKind: SourceKind;
  readonly code: string | null;

  constructor(
    init: ConstructorParameters<typeof ApiError>[0] & {
      sourceKind: SourceKind;
      code: string | null;
    },
  ) {
    super(init);
    this.sourceKind = init.sourceKind;
    this.code = init.code;
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
 * malformed JSON all handled there), then reads an HTTP error's body with the source's own reader.
 * The wrapper only knows FastAPI's `{detail}`, so the failed response is kept aside here; once
 * `createApiClient` takes an error reader, this becomes a plain `client.request`.
 */
export async function sendWire(request: WireRequest, options: SendOptions): Promise<unknown> {
  const fetchImpl = options.fetchImpl ?? ((input, init) => fetch(input, init));
  let failed: { status: number; text: string; contentType: string | null } | null = null;
  const client = createApiClient({
    baseUrl: new URL(request.url).origin,
    headers: () => request.headers,
    ...(options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }),
    ...(options.onResponse ? { onResponse: options.onResponse } : {}),
    fetchImpl: async (input, init) => {
      const response = await fetchImpl(input, init);
      if (response.status >= 400) {
        failed = {
          status: response.status,
          text: await response.clone().text(),
          contentType: response.headers.get('content-type'),
        };
      }
      return response;
    },
  });
  try {
    return await client.request(request.url, {
      method: request.method,
      body: request.body,
      ...(options.signal ? { signal: options.signal } : {}),
    });
  } catch (error) {
    const response = failed as { status: number; text: string; contentType: string | null } | null;
    if (!isApiError(error) || !response || error.status !== response.status) throw error;
    let body: unknown = null;
    if (!/html/i.test(response.contentType ?? '')) {
      try {
        body = JSON.parse(response.text);
      } catch {
        body = null;
      }
    }
    const reading = body === null ? null : options.readError(response.status, body);
    // Not the source's own error body (a proxy's page, an empty answer): the wrapper's reading stands.
    if (!reading) throw error;
    throw new SourceApiError({
      kind: reading.kind,
      status: response.status,
      detail: reading.detail,
      fieldErrors: reading.fieldErrors ?? [],
      retryAfterMs: error.retryAfterMs,
      method: error.method,
      url: error.url,
      sourceKind: options.sourceKind,
      code: reading.code,
      ...(reading.detail ? { message: reading.detail } : {}),
    });
  }
}
