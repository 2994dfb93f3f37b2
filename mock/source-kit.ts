import type { Context, Env, Hono } from 'hono';
import { z } from 'zod';
import { advancedOffset, type Clock } from './clock';
import {
  createFaultQueue,
  type Fault,
  type FaultQueue,
  htmlFaultResponse,
  malformedFaultResponse,
  redirectFaultResponse,
} from './faults';
import {
  clockSchema,
  DEFAULT_MAX_TENANTS,
  DEFAULT_TENANT,
  lastUsed,
  makeRoom,
  tenantName,
} from './tenancy';

/**
 * What the Vertesia and Bilby mocks share with each other and with the Reflexio mock: tenants
 * (`x-mock-tenant` header or `mock_tenant` cookie), a clock offset per tenant, the fault queue,
 * latency, bearer keys, and the control surface's body parsing. Each mock brings its own error
 * body, since that is what differs between the three systems.
 */

export type SeedName = 'demo' | 'empty';

/** Faults every source mock knows; a mock may add kinds of its own. */
export const COMMON_FAULT_KINDS = [
  'latency',
  'status',
  'html',
  'redirect',
  'malformed',
  'drop',
  'corrupt',
] as const;

export function sourceFaultSchema<K extends readonly [string, ...string[]]>(kinds: K) {
  return z
    .object({
      kind: z.enum(kinds),
      count: z.number().int().min(1).default(1),
      match: z
        .object({ method: z.string().min(1).optional(), path: z.string().optional() })
        .strict()
        .optional(),
      latencyMs: z.number().int().min(0).max(600_000).optional(),
      status: z.number().int().min(200).max(599).optional(),
      /** Replaces the error message (status) or the failure text (Vertesia's `unsuccessful`). */
      message: z.string().optional(),
      headers: z.record(z.string(), z.string()).optional(),
    })
    .strict();
}

export interface SourceFaultSpec {
  kind: string;
  count: number;
  match?: { method?: string | undefined; path?: string | undefined } | undefined;
  latencyMs?: number | undefined;
  status?: number | undefined;
  message?: string | undefined;
  headers?: Record<string, string> | undefined;
}

export interface Tenant<S> {
  name: string;
  offsetMs: number;
  faults: FaultQueue<SourceFaultSpec>;
  state: S;
  now(): number;
}

export interface TenantRegistry<S> {
  of(c: Context): Tenant<S>;
  /** The request's tenant if it exists already; never makes one (for requests not yet let in). */
  peek(c: Context): Tenant<S> | undefined;
  named(name: string): Tenant<S>;
  reset(tenant: Tenant<S>, seed: SeedName): void;
  all(): Tenant<S>[];
}

export function createTenantRegistry<S>(options: {
  clock: Clock;
  defaultSeed: SeedName;
  /** Fresh state for a tenant, seeded as of `now`. */
  build: (seed: SeedName, now: () => number) => S;
  /** Tenants kept at most; the one used least recently goes first (default 100). */
  maxTenants?: number;
}): TenantRegistry<S> {
  const tenants = new Map<string, Tenant<S>>();
  const maxTenants = Math.max(1, options.maxTenants ?? DEFAULT_MAX_TENANTS);

  function reset(tenant: Tenant<S>, seed: SeedName): void {
    tenant.offsetMs = 0;
    tenant.faults.clear();
    tenant.state = options.build(seed, () => tenant.now());
  }

  function named(name: string): Tenant<S> {
    const existing = lastUsed(tenants, name);
    if (existing) return existing;
    makeRoom(tenants, maxTenants);
    const tenant = {
      name,
      offsetMs: 0,
      faults: createFaultQueue<SourceFaultSpec>(),
      now: () => options.clock.now() + tenant.offsetMs,
    } as Tenant<S>;
    reset(tenant, options.defaultSeed);
    tenants.set(name, tenant);
    return tenant;
  }

  return {
    named,
    reset,
    of: (c) => named(tenantName(c)),
    peek: (c) => tenants.get(tenantName(c)),
    all: () => [...tenants.values()],
  };
}

/** What a source mock's snapshot holds besides its own data. */
export interface SnapshotHeader {
  /** Bumped whenever the shape changes: an older saved snapshot is then refused. */
  version: number;
  clockOffsetMs: number;
}

/**
 * A source mock's snapshot() and restore(), for a host that keeps its state between runs (the
 * static demo): a tenant's data (`dump`) with its clock offset. `restore` takes back only what
 * `schema` accepts; a damaged or older snapshot gives false and leaves the tenant as it was.
 */
export function tenantSnapshots<S, T extends SnapshotHeader>(
  tenants: TenantRegistry<S>,
  options: {
    version: T['version'];
    schema: z.ZodType<T>;
    dump(state: S): Omit<T, keyof SnapshotHeader>;
    load(state: S, saved: T): void;
  },
) {
  return {
    snapshot(name: string = DEFAULT_TENANT): T {
      const tenant = tenants.named(name);
      const data = options.dump(tenant.state);
      return { ...data, version: options.version, clockOffsetMs: tenant.offsetMs } as T;
    },
    restore(saved: unknown, name: string = DEFAULT_TENANT): boolean {
      const parsed = options.schema.safeParse(saved);
      if (!parsed.success) return false;
      const tenant = tenants.named(name);
      tenant.offsetMs = parsed.data.clockOffsetMs;
      options.load(tenant.state, parsed.data);
      return true;
    },
  };
}

export function json(body: unknown, status = 200, headers?: Record<string, string>): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json', ...headers },
  });
}

export function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** A mock's API latency, give or take a third, as a real server is never instant. */
export async function waitLatency(baseMs: number, fault: Fault<SourceFaultSpec> | null) {
  if (baseMs > 0) await delay(baseMs * (0.66 + Math.random() * 0.67));
  if (fault?.latencyMs) await delay(fault.latencyMs);
}

/**
 * The faults whose response replaces the API's: `status` answers with the source's own error body;
 * `html`, `redirect`, `malformed` and `drop` are what a proxy or a broken network does to any API.
 */
export function replacingFault(
  socket: { destroy(): void } | null | undefined,
  fault: Fault<SourceFaultSpec>,
  errorResponse: (status: number, message: string | undefined) => Response,
): Response | null {
  switch (fault.kind) {
    case 'status': {
      const response = errorResponse(fault.status ?? 500, fault.message);
      for (const [name, value] of Object.entries(fault.headers ?? {})) {
        response.headers.set(name, value);
      }
      return response;
    }
    case 'html':
      return htmlFaultResponse({ ...fault, kind: 'html' });
    case 'redirect':
      return redirectFaultResponse({ ...fault, kind: 'redirect' });
    case 'malformed':
      return malformedFaultResponse({ ...fault, kind: 'malformed' });
    case 'drop': {
      if (socket) {
        socket.destroy();
        return new Response(null, { status: 500 });
      }
      return Response.error();
    }
    default:
      return null;
  }
}

/** Damages the record at `index` of a JSON list (or the object itself) the way `corrupt` does. */
export async function corruptJson(
  response: Response,
  damage: (body: unknown) => void,
): Promise<Response> {
  if (!response.headers.get('content-type')?.includes('application/json')) return response;
  const text = await response.text();
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return new Response(text, response);
  }
  damage(parsed);
  const headers = new Headers(response.headers);
  headers.delete('content-length');
  return new Response(JSON.stringify(parsed), { status: response.status, headers });
}

/** `Authorization: Bearer <key>` when the mock was given a key; null when the request may pass. */
export function bearerProblem(c: Context, apiKey: string | null): string | null {
  if (apiKey === null) return null;
  const match = /^bearer\s+(.+)$/i.exec((c.req.header('authorization') ?? '').trim());
  if (!match) return 'Missing bearer token';
  return match[1] === apiKey ? null : 'Invalid API key';
}

export type ParsedBody<T> = { ok: true; value: T } | { ok: false; message: string };

/** JSON body of a control request (empty means `{}`), checked with a zod schema. */
export async function controlBody<T>(c: Context, schema: z.ZodType<T>): Promise<ParsedBody<T>> {
  const text = await c.req.text();
  let raw: unknown = {};
  if (text.trim() !== '') {
    try {
      raw = JSON.parse(text);
    } catch {
      return { ok: false, message: 'Invalid JSON body' };
    }
  }
  const parsed = schema.safeParse(raw);
  return parsed.success
    ? { ok: true, value: parsed.data }
    : { ok: false, message: describeIssues(parsed.error.issues) };
}

export function describeIssues(issues: z.core.$ZodIssue[]): string {
  return issues
    .map((issue) => {
      const where = issue.path.map((part) => String(part)).join('.');
      return where ? `${where}: ${issue.message}` : issue.message;
    })
    .join('; ');
}

/**
 * The control routes every source mock has alike: `POST /__mock/clock {advanceMs}` moves the
 * tenant's clock; `POST /__mock/faults` queues a fault, `DELETE /__mock/faults` clears them. A bad
 * body is answered with the mock's own error body (`controlError`).
 */
export function mountClockAndFaults<E extends Env, S>(
  app: Hono<E>,
  options: {
    tenants: TenantRegistry<S>;
    faultSchema: z.ZodType<SourceFaultSpec>;
    controlError: (status: number, message: string) => Response;
  },
): void {
  const { tenants, faultSchema, controlError } = options;

  app.post('/__mock/clock', async (c) => {
    const body = await controlBody(c, clockSchema);
    if (!body.ok) return controlError(400, body.message);
    const tenant = tenants.of(c);
    const offset = advancedOffset(tenant.offsetMs, body.value.advanceMs);
    if (offset === null) {
      return controlError(
        400,
        'advanceMs would put the clock more than ten years off: reset it first',
      );
    }
    tenant.offsetMs = offset;
    return json({ nowMs: tenant.now(), clockOffsetMs: tenant.offsetMs });
  });

  app.post('/__mock/faults', async (c) => {
    const body = await controlBody(c, faultSchema);
    if (!body.ok) return controlError(400, body.message);
    return json({ fault: tenants.of(c).faults.add(body.value) }, 201);
  });

  app.delete('/__mock/faults', (c) => {
    const tenant = tenants.of(c);
    const cleared = tenant.faults.list().length;
    tenant.faults.clear();
    return json({ cleared });
  });
}
export const resetSchema = z.object({ seed: z.enum(['demo', 'empty']).optional() }).strict();

// Deterministic so a demo run can be replayed.
export function mulberry32(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export function startTimer(intervalMs: number, tick: () => void): () => void {
  if (intervalMs <= 0) return () => {};
  const timer = setInterval(tick, intervalMs);
  if (typeof timer === 'object' && 'unref' in timer) timer.unref();
  return () => clearInterval(timer);
}
