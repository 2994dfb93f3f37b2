import type * as z from 'zod/mini';

export type ApiErrorKind =
  | 'not-found'
  | 'conflict'
  /** The item is being worked on right now (the system's own 409, e.g. Bilby's running agent). */
  | 'busy'
  | 'validation'
  | 'auth'
  | 'forbidden'
  | 'too-large'
  | 'rate-limited'
  | 'unavailable'
  | 'server'
  | 'network'
  | 'timeout'
  | 'bad-response';

export interface FieldError {
  /** Dotted path inside the request (the field the reviewer filled). */
  field: string;
  message: string;
}

/** Plain words for a failure a reviewer can meet (see describeError). */
export interface ErrorDescription {
  title: string;
  message: string;
  /** Whether trying again, as it stands, can help. */
  retryable: boolean;
}

/**
 * What a system's adapter reads from an HTTP error's JSON body; null when the body is not the
 * system's own (a proxy's error page, another shape), and the status alone decides.
 */
export interface ErrorReading {
  kind: ApiErrorKind;
  /** The server's own words. */
  detail: string | null;
  /** The system's machine-readable reason (Vertesia `errorCode`) or the adapter's own. */
  code?: string | null;
  fieldErrors?: FieldError[];
  /** The adapter's plain words for this failure, when it knows better than the generic ones. */
  description?: ErrorDescription | null;
}

export type ErrorReader = (status: number, body: unknown) => ErrorReading | null;

export interface ApiErrorInit {
  kind: ApiErrorKind;
  status: number;
  detail?: string | null;
  code?: string | null;
  description?: ErrorDescription | null;
  fieldErrors?: FieldError[];
  retryAfterMs?: number | null;
  method: string;
  url: string;
  message?: string;
}

export class ApiError extends Error {
  override readonly name = 'ApiError';
  readonly kind: ApiErrorKind;
  /** HTTP status; 0 when no HTTP response arrived. */
  readonly status: number;
  /** The server's own words, when it sent any (read by the system's adapter, see ErrorReader). */
  readonly detail: string | null;
  /** The system's machine-readable reason, when its adapter read one. */
  readonly code: string | null;
  /** Its adapter's plain words for this failure, if any: describeError shows them. */
  readonly description: ErrorDescription | null;
  readonly fieldErrors: FieldError[];
  readonly retryAfterMs: number | null;
  readonly method: string;
  readonly url: string;

  constructor(init: ApiErrorInit) {
    super(init.message ?? init.detail ?? `${init.method} ${init.url} failed (${init.kind})`);
    this.kind = init.kind;
    this.status = init.status;
    this.detail = init.detail ?? null;
    this.code = init.code ?? null;
    this.description = init.description ?? null;
    this.fieldErrors = init.fieldErrors ?? [];
    this.retryAfterMs = init.retryAfterMs ?? null;
    this.method = init.method;
    this.url = init.url;
  }
}

export function isApiError(error: unknown): error is ApiError {
  return error instanceof ApiError;
}

/** The sign-in in front of the API has ended: one app-wide state handles it, not each screen. */
export function isSignedOut(error: unknown): boolean {
  return isApiError(error) && error.kind === 'auth';
}

/**
 * The kind of an HTTP failure. `fromApi`: the body is the system's own error (its adapter read
 * it). An API's own 403 says why; a proxy's bare 403 (an SSO gate) means "sign in". An API's own
 * 404 says what was not found; a bare 404 means the API address is wrong.
 */
export function kindForStatus(status: number, fromApi: boolean): ApiErrorKind {
  if (status === 401) return 'auth';
  if (status === 403) return fromApi ? 'forbidden' : 'auth';
  if (status === 404) return fromApi ? 'not-found' : 'bad-response';
  if (status === 409) return 'conflict';
  if (status === 400 || status === 422) return 'validation';
  if (status === 413) return 'too-large';
  if (status === 429) return 'rate-limited';
  if (status === 504) return 'timeout';
  if (status === 502 || status === 503) return 'unavailable';
  return 'server';
}

export function parseRetryAfter(value: string | null, now = Date.now()): number | null {
  if (!value) return null;
  const seconds = Number(value.trim());
  if (Number.isFinite(seconds) && seconds >= 0) return Math.round(seconds * 1000);
  const date = Date.parse(value);
  return Number.isNaN(date) ? null : Math.max(0, date - now);
}

function isHtml(contentType: string | null): boolean {
  return !!contentType && /text\/html|application\/xhtml/i.test(contentType);
}

export interface RequestOptions {
  method?: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';
  query?: Record<string, string | number | undefined>;
  body?: unknown;
  signal?: AbortSignal;
}

export interface ApiClientOptions {
  /** Absolute URL of the API root (e.g. `https://host/inbox/api/`); a trailing slash is added if missing. */
  baseUrl: string | URL;
  /** Headers added to every request, read at call time (token mode changes them). */
  headers?: () => Record<string, string>;
  fetchImpl?: typeof fetch;
  timeoutMs?: number;
  /** Told of every HTTP response with when it was asked for and when it came (the server clock's input). */
  onResponse?: (timing: ResponseTiming) => void;
  /** Reads the system's own error bodies; without one (or when it reads null), the status decides. */
  readError?: ErrorReader;
}

export interface ResponseTiming {
  response: Response;
  /** `Date.now()` when the request was sent and when the response's headers arrived. */
  sentAt: number;
  receivedAt: number;
  /** The `Date` header, if readable (cross-origin APIs must list it in Access-Control-Expose-Headers). */
  date: string | null;
}

export interface ApiClient {
  readonly baseUrl: string;
  request(path: string, options?: RequestOptions): Promise<unknown>;
}

function withTrailingSlash(url: string | URL): string {
  const text = url.toString();
  return text.endsWith('/') ? text : `${text}/`;
}

export function createApiClient(options: ApiClientOptions): ApiClient {
  const baseUrl = withTrailingSlash(options.baseUrl);
  const timeoutMs = options.timeoutMs ?? 30_000;
  const fetchImpl = options.fetchImpl ?? ((input, init) => fetch(input, init));

  async function request(
    path: string,
    { method = 'GET', query, body, signal }: RequestOptions = {},
  ) {
    const url = new URL(path.replace(/^\//, ''), baseUrl);
    for (const [key, value] of Object.entries(query ?? {})) {
      if (value !== undefined) url.searchParams.set(key, String(value));
    }
    const href = url.toString();
    const fail = (init: Omit<ApiErrorInit, 'method' | 'url'>) =>
      new ApiError({ ...init, method, url: href });

    const timeout = AbortSignal.timeout(timeoutMs);
    const combined = signal ? AbortSignal.any([signal, timeout]) : timeout;
    const headers: Record<string, string> = { Accept: 'application/json', ...options.headers?.() };
    if (body !== undefined) headers['Content-Type'] = 'application/json';

    let response: Response;
    const sentAt = Date.now();
    try {
      response = await fetchImpl(href, {
        method,
        headers,
        body: body === undefined ? undefined : JSON.stringify(body),
        credentials: 'same-origin',
        // A redirect from an API call is a proxy sending the reviewer to sign in, never data.
        redirect: 'manual',
        signal: combined,
      });
    } catch (error) {
      if (signal?.aborted) throw error;
      if (timeout.aborted) {
        throw fail({ kind: 'timeout', status: 0, message: 'The server did not answer in time.' });
      }
      throw fail({ kind: 'network', status: 0, message: 'The server could not be reached.' });
    }
    const date = response.headers.get('date');
    if (options.onResponse && response.type !== 'opaqueredirect') {
      options.onResponse({ response, sentAt, receivedAt: Date.now(), date });
    }

    if (response.type === 'opaqueredirect' || (response.status >= 300 && response.status < 400)) {
      throw fail({ kind: 'auth', status: response.status, message: 'Redirected to sign in.' });
    }

    let text: string;
    try {
      text = await response.text();
    } catch (error) {
      if (signal?.aborted) throw error;
      throw fail({
        kind: timeout.aborted ? 'timeout' : 'network',
        status: 0,
        message: 'The connection was lost while reading the answer.',
      });
    }

    // The portal server never serves an upstream's web page as one: it sends it as text and
    // names its type in X-Upstream-Content-Type.
    const contentType =
      response.headers.get('x-upstream-content-type') ?? response.headers.get('content-type');
    let json: unknown;
    let jsonOk = false;
    if (!isHtml(contentType) && text.length > 0) {
      try {
        json = JSON.parse(text);
        jsonOk = true;
      } catch {
        jsonOk = false;
      }
    }

    if (!response.ok) {
      const reading = jsonOk ? (options.readError?.(response.status, json) ?? null) : null;
      const kind = reading?.kind ?? kindForStatus(response.status, false);
      const detail = reading?.detail ?? null;
      throw fail({
        kind,
        status: response.status,
        detail,
        code: reading?.code ?? null,
        description: reading?.description ?? null,
        fieldErrors: reading?.fieldErrors ?? [],
        // An HTTP-date in Retry-After is the server's time: measured against its own Date header.
        retryAfterMs: parseRetryAfter(
          response.headers.get('retry-after'),
          (date && Date.parse(date)) || Date.now(),
        ),
        message:
          kind === 'bad-response'
            ? `The API address answered HTTP ${response.status}.`
            : (detail ?? `HTTP ${response.status}`),
      });
    }

    if (isHtml(contentType)) {
      // A 200 HTML page where JSON was expected is an SSO proxy's sign-in page.
      throw fail({
        kind: 'auth',
        status: response.status,
        message: 'Got a web page instead of data.',
      });
    }
    if (!jsonOk) {
      throw fail({
        kind: 'bad-response',
        status: response.status,
        message:
          text.length === 0
            ? 'The server sent an empty answer.'
            : 'The server sent malformed JSON.',
      });
    }
    return json;
  }

  return { baseUrl, request };
}

/** Parses a response body at the boundary; a mismatch is a `bad-response` ApiError, not a crash. */
export function parseResponse<S extends z.ZodMiniType>(
  schema: S,
  data: unknown,
  where: { method: string; url: string },
): z.infer<S> {
  const parsed = schema.safeParse(data);
  if (parsed.success) return parsed.data;
  throw new ApiError({
    kind: 'bad-response',
    status: 200,
    method: where.method,
    url: where.url,
    message: `Unexpected answer shape: ${parsed.error.issues[0]?.message ?? 'invalid'}`,
  });
}

/**
 * Whether a failed call to the portal server's own API (`portal-api/…`) means there is no portal
 * server here: nginx or a static host answers 404, or its index page where JSON was expected.
 */
export function isNoPortalServer(error: unknown): boolean {
  return (
    error instanceof ApiError &&
    (error.status === 404 ||
      error.kind === 'bad-response' ||
      (error.kind === 'auth' && error.status === 200))
  );
}
