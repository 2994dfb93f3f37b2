import { z } from 'zod';

export const FAULT_KINDS = [
  'latency',
  'status',
  'html',
  'redirect',
  'malformed',
  'drop',
  'corrupt',
] as const;
export type FaultKind = (typeof FAULT_KINDS)[number];

export const faultSpecSchema = z
  .object({
    kind: z.enum(FAULT_KINDS),
    count: z.number().int().min(1).default(1),
    match: z
      .object({ method: z.string().min(1).optional(), path: z.string().optional() })
      .strict()
      .optional(),
    latencyMs: z.number().int().min(0).max(600_000).optional(),
    status: z.number().int().min(200).max(599).optional(),
    detail: z.unknown().optional(),
    headers: z.record(z.string(), z.string()).optional(),
  })
  .strict();

export type FaultSpec = z.infer<typeof faultSpecSchema>;

/** What the queue needs of a fault; the Vertesia and Bilby mocks queue their own kinds too. */
export interface QueuedFaultSpec {
  count: number;
  match?: { method?: string | undefined; path?: string | undefined } | undefined;
}

export type Fault<S extends QueuedFaultSpec = FaultSpec> = S & {
  id: string;
  /** Requests this fault will still take. */
  remaining: number;
};

export interface FaultQueue<S extends QueuedFaultSpec = FaultSpec> {
  add(spec: S): Fault<S>;
  /** First fault matching the request with count left; decrements it. */
  take(method: string, path: string): Fault<S> | null;
  clear(): void;
  list(): Fault<S>[];
}

export function createFaultQueue<S extends QueuedFaultSpec = FaultSpec>(): FaultQueue<S> {
  let faults: Fault<S>[] = [];
  let sequence = 0;
  return {
    add(spec) {
      sequence += 1;
      const fault: Fault<S> = { ...spec, id: `flt_${sequence}`, remaining: spec.count };
      faults.push(fault);
      return fault;
    },
    take(method, path) {
      const fault = faults.find(
        (candidate) =>
          candidate.remaining > 0 &&
          (!candidate.match?.method ||
            candidate.match.method.toUpperCase() === method.toUpperCase()) &&
          (!candidate.match?.path || path.includes(candidate.match.path)),
      );
      if (!fault) return null;
      fault.remaining -= 1;
      faults = faults.filter((candidate) => candidate.remaining > 0);
      return { ...fault };
    },
    clear() {
      faults = [];
    },
    list() {
      return faults.map((fault) => ({ ...fault }));
    },
  };
}

const REASONS: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  408: 'Request Timeout',
  409: 'Conflict',
  413: 'Request Entity Too Large',
  422: 'Unprocessable Entity',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
  504: 'Gateway Timeout',
};

const DEFAULT_DETAILS: Record<number, unknown> = {
  401: 'Not authenticated',
  403: 'Forbidden: Suspicious user agent',
  404: 'Pending tool call not found',
  409: 'Pending tool call already resolved with a different result',
  413: 'Request body too large',
  422: [{ type: 'missing', loc: ['body'], msg: 'Field required', input: null }],
  503: 'Storage not configured',
};

function reason(status: number): string {
  return REASONS[status] ?? 'Error';
}

const NO_BODY_STATUSES = new Set([204, 205, 304]);

export function statusFaultResponse(fault: Fault): Response {
  const status = fault.status ?? 500;
  const headers = new Headers(fault.headers);
  if (NO_BODY_STATUSES.has(status)) return new Response(null, { status, headers });
  // A proxy in front of the API answers with its own HTML, not FastAPI JSON.
  if (fault.detail === null) {
    headers.set('content-type', 'text/html; charset=utf-8');
    const title = `${status} ${reason(status)}`;
    return new Response(
      `<html>\r\n<head><title>${title}</title></head>\r\n<body>\r\n<center><h1>${title}</h1></center>\r\n<hr><center>nginx</center>\r\n</body>\r\n</html>\r\n`,
      { status, headers },
    );
  }
  const detail =
    fault.detail === undefined ? (DEFAULT_DETAILS[status] ?? reason(status)) : fault.detail;
  headers.set('content-type', 'application/json');
  return new Response(JSON.stringify({ detail }), { status, headers });
}

export function signInPage(): string {
  return `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>Sign in</title></head>
<body>
<main>
<h1>Sign in to continue</h1>
<p>Your session has expired. Sign in with your company account to continue.</p>
<form method="post" action="/__mock/sign-in">
<label>Email <input type="email" name="email" autocomplete="username"></label>
<label>Password <input type="password" name="password" autocomplete="current-password"></label>
<button type="submit">Sign in</button>
</form>
</main>
</body>
</html>
`;
}

export function htmlFaultResponse(fault: Fault): Response {
  const headers = new Headers(fault.headers);
  headers.set('content-type', 'text/html; charset=utf-8');
  return new Response(signInPage(), { status: fault.status ?? 200, headers });
}

export function redirectFaultResponse(fault: Fault): Response {
  const status = fault.status && fault.status >= 300 && fault.status < 400 ? fault.status : 302;
  const headers = new Headers(fault.headers);
  headers.set('location', '/__mock/sign-in');
  return new Response(null, { status, headers });
}

export function malformedFaultResponse(fault: Fault): Response {
  const headers = new Headers(fault.headers);
  headers.set('content-type', 'application/json');
  return new Response('{"pending_tool_calls": [{"id": "ptc_4f1c0a9e", "status": "pend', {
    status: fault.status ?? 200,
    headers,
  });
}

function damage(record: unknown): void {
  if (record === null || typeof record !== 'object' || Array.isArray(record)) return;
  Object.assign(record, { status: 42, tags: 'not-a-list', created_at: 'yesterday' });
}

/** Damages one record of a JSON body (list: index 1, or 0 if only one); other records stay intact. */
export function corruptBody(body: unknown): unknown {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return body;
  const list = (body as { pending_tool_calls?: unknown }).pending_tool_calls;
  if (Array.isArray(list)) {
    if (list.length > 0) damage(list[Math.min(1, list.length - 1)]);
  } else if ('id' in body) {
    damage(body);
  }
  return body;
}

export async function corruptResponse(response: Response): Promise<Response> {
  if (!response.headers.get('content-type')?.includes('application/json')) return response;
  const text = await response.text();
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return new Response(text, response);
  }
  const headers = new Headers(response.headers);
  headers.delete('content-length');
  return new Response(JSON.stringify(corruptBody(parsed)), {
    status: response.status,
    statusText: response.statusText,
    headers,
  });
}
