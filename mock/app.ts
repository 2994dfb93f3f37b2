import { type Context, Hono, type Next } from 'hono';
import { z } from 'zod';
import { readTextWithin } from './body';
import { advancedOffset, type Clock, systemClock } from './clock';
import {
  corruptResponse,
  createFaultQueue,
  FAULT_KINDS,
  type Fault,
  type FaultQueue,
  faultSpecSchema,
  htmlFaultResponse,
  malformedFaultResponse,
  redirectFaultResponse,
  signInPage,
  statusFaultResponse,
} from './faults';
import { buildSeedRows, type SeedName } from './seed';
import { createSimulator, unref } from './simulator';
import {
  type CallStore,
  createCallStore,
  DEFAULT_ORG,
  fromRecord,
  type Outcome,
  type PendingToolCallRecord,
} from './store';
import {
  clockSchema,
  controlKeyGate,
  DEFAULT_MAX_TENANTS,
  DEFAULT_TENANT,
  lastUsed,
  makeRoom,
  tenantName,
} from './tenancy';
import {
  decodeBody,
  type RawBody,
  type ValidationIssue,
  validateAnswerBody,
  validateListQuery,
  validateNotApplicableBody,
  validateResolveBody,
} from './validation';

export interface MockOptions {
  clock?: Clock;
  apiKey?: string | null;
  seed?: SeedName;
  sweepIntervalMs?: number;
  simulatorIntervalMs?: number;
  checkUserAgent?: boolean;
  maxBodyBytes?: number;
  /** When set, `/__mock` control routes need `Authorization: Bearer <controlKey>` (default none). */
  controlKey?: string | null;
  /** Tenants kept at most; the one used least recently goes first (default 100). */
  maxTenants?: number;
  /** Every API answer takes this long, give or take a third (a real server is never instant); default 0. */
  latencyMs?: number;
}

export interface MockBackend {
  app: Hono;
  sweep(tenant?: string): number;
  reset(tenant?: string, seed?: SeedName): void;
  /** A tenant's questions and clock, for a host that keeps them between runs (the static demo). */
  snapshot(tenant?: string): MockSnapshot;
  restore(snapshot: MockSnapshot, tenant?: string): void;
  /** Tenants kept now (bounded by `maxTenants`). */
  tenantCount(): number;
  close(): void;
}

export interface MockSnapshot {
  calls: PendingToolCallRecord[];
  clockOffsetMs: number;
}

export {
  DEFAULT_MAX_TENANTS,
  DEFAULT_TENANT,
  TENANT_COOKIE,
  TENANT_HEADER,
} from './tenancy';

interface Tenant {
  name: string;
  offsetMs: number;
  store: CallStore;
  faults: FaultQueue;
  now(): number;
}

/** Under @hono/node-server `env` holds the Node request; under app.request()/MSW it is absent. */
export interface MockEnv {
  Bindings: { incoming?: { socket?: { destroy(): void } | null } };
  Variables: { tenant: Tenant; bodyText: string };
}

type MockContext = Context<MockEnv>;

const API = '/api/pending_tool_calls';

const API_ROUTES: { pattern: RegExp; methods: string[] }[] = [
  { pattern: /^\/api\/pending_tool_calls$/, methods: ['GET', 'HEAD'] },
  { pattern: /^\/api\/pending_tool_calls\/[^/]+$/, methods: ['GET', 'HEAD'] },
  { pattern: /^\/api\/pending_tool_calls\/[^/]+\/resolve$/, methods: ['POST'] },
  { pattern: /^\/api\/pending_tool_calls\/[^/]+\/answer$/, methods: ['PATCH'] },
  { pattern: /^\/api\/pending_tool_calls\/[^/]+\/not_applicable$/, methods: ['POST'] },
  { pattern: /^\/api\/pending_tool_calls\/[^/]+\/cancel$/, methods: ['POST'] },
];

function json(body: unknown, status = 200, headers?: Record<string, string>): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json', ...headers },
  });
}

function detail(status: number, message: unknown, headers?: Record<string, string>): Response {
  return json({ detail: message }, status, headers);
}

function outcomeResponse(outcome: Outcome): Response {
  return outcome.ok ? json(outcome.call) : detail(outcome.status, outcome.detail);
}

function unprocessable(issues: ValidationIssue[]): Response {
  return detail(422, issues);
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

const HELP = {
  description:
    'Questions Inbox mock backend control surface. Tenant: x-mock-tenant header or mock_tenant cookie.',
  api: [
    'GET /api/pending_tool_calls?status=&limit=',
    'GET /api/pending_tool_calls/:id',
    'POST /api/pending_tool_calls/:id/resolve {result, valid_for_seconds?}',
    'PATCH /api/pending_tool_calls/:id/answer {answer, valid_for_seconds?}',
    'POST /api/pending_tool_calls/:id/not_applicable {valid_for_seconds?}',
    'POST /api/pending_tool_calls/:id/cancel',
  ],
  control: [
    'GET /__mock/state',
    'POST /__mock/reset {seed?: "demo"|"empty"}',
    'POST /__mock/questions {id?, question, answer_format?, tags?, user_id?, tool_name?, args?, scope?, org_id?, expires_in_seconds?}',
    'POST /__mock/questions/:id/resolve {answer} | {result}, valid_for_seconds?',
    'POST /__mock/questions/:id/answer {answer, valid_for_seconds?}',
    'POST /__mock/questions/:id/not_applicable {valid_for_seconds?}',
    'POST /__mock/questions/:id/cancel',
    'POST /__mock/questions/:id/expire',
    'DELETE /__mock/questions/:id',
    'POST /__mock/sweep',
    'POST /__mock/clock {advanceMs}',
    'POST /__mock/faults {kind, count?, match?: {method?, path?}, latencyMs?, status?, detail?, headers?}',
    'DELETE /__mock/faults',
    'POST /__mock/simulator/tick',
    'GET /__mock/sign-in',
  ],
  faultKinds: FAULT_KINDS,
};

const createQuestionSchema = z
  .object({
    id: z
      .string()
      .regex(/^[A-Za-z0-9_-]{1,100}$/)
      .optional(),
    question: z.string().min(1),
    answer_format: z.string().nullable().optional(),
    tags: z.array(z.string()).optional(),
    user_id: z.string().nullable().optional(),
    tool_name: z.string().min(1).optional(),
    args: z.record(z.string(), z.unknown()).optional(),
    scope: z.record(z.string(), z.unknown()).optional(),
    org_id: z.string().min(1).optional(),
    expires_in_seconds: z.number().finite().optional(),
  })
  .strict();

const validForSchema = z.number().int().positive().optional();

const controlResolveSchema = z
  .object({
    answer: z.string().optional(),
    result: z.record(z.string(), z.unknown()).optional(),
    valid_for_seconds: validForSchema,
  })
  .strict()
  .refine((body) => (body.answer === undefined) !== (body.result === undefined), {
    message: 'Provide exactly one of answer or result',
  });

const controlAnswerSchema = z
  .object({ answer: z.string(), valid_for_seconds: validForSchema })
  .strict();

const controlNotApplicableSchema = z.object({ valid_for_seconds: validForSchema }).strict();

const resetSchema = z.object({ seed: z.enum(['demo', 'empty']).optional() }).strict();

export function createMockBackend(options: MockOptions = {}): MockBackend {
  const clock = options.clock ?? systemClock;
  const apiKey = options.apiKey ?? null;
  const defaultSeed = options.seed ?? 'demo';
  const sweepIntervalMs = options.sweepIntervalMs ?? 2000;
  const simulatorIntervalMs = options.simulatorIntervalMs ?? 0;
  const checkUserAgent = options.checkUserAgent ?? false;
  const maxBodyBytes = options.maxBodyBytes ?? 1_048_576;
  const baseLatencyMs = options.latencyMs ?? 0;
  const controlKey = options.controlKey ?? null;
  const maxTenants = Math.max(1, options.maxTenants ?? DEFAULT_MAX_TENANTS);

  const tenants = new Map<string, Tenant>();

  function resetTenant(tenant: Tenant, seed: SeedName): void {
    tenant.offsetMs = 0;
    tenant.faults.clear();
    tenant.store.replaceAll(buildSeedRows(seed, tenant.now()));
  }

  function tenantNamed(name: string): Tenant {
    const existing = lastUsed(tenants, name);
    if (existing) return existing;
    makeRoom(tenants, maxTenants);
    const tenant: Tenant = {
      name,
      offsetMs: 0,
      faults: createFaultQueue(),
      now: () => clock.now() + tenant.offsetMs,
      store: createCallStore(() => tenant.now()),
    };
    resetTenant(tenant, defaultSeed);
    tenants.set(name, tenant);
    return tenant;
  }

  function tenantOf(c: MockContext): Tenant {
    return tenantNamed(tenantName(c));
  }

  function sweep(name?: string): number {
    if (name !== undefined) return tenantNamed(name).store.sweep();
    let expired = 0;
    for (const tenant of tenants.values()) expired += tenant.store.sweep();
    return expired;
  }

  function reset(name?: string, seed: SeedName = defaultSeed): void {
    if (name !== undefined) {
      resetTenant(tenantNamed(name), seed);
      return;
    }
    tenantNamed(DEFAULT_TENANT);
    for (const tenant of tenants.values()) resetTenant(tenant, seed);
  }

  const simulator = createSimulator({
    intervalMs: simulatorIntervalMs,
    ask: (input) => tenantNamed(DEFAULT_TENANT).store.create(input),
  });

  const app = new Hono<MockEnv>();

  app.onError((error) => {
    console.error('[mock] unhandled error', error);
    return new Response('Internal Server Error', {
      status: 500,
      headers: { 'content-type': 'text/plain; charset=utf-8' },
    });
  });

  app.notFound((c) => {
    const url = new URL(c.req.url);
    const path = url.pathname;
    const route = API_ROUTES.find(({ pattern }) => pattern.test(path));
    if (route) return detail(405, 'Method Not Allowed', { allow: route.methods.join(', ') });
    // Starlette's redirect_slashes.
    if (path.length > 1 && path.endsWith('/')) {
      const trimmed = path.slice(0, -1);
      if (API_ROUTES.some(({ pattern }) => pattern.test(trimmed))) {
        const target = new URL(url);
        target.pathname = trimmed;
        return new Response(null, { status: 307, headers: { location: target.toString() } });
      }
    }
    return detail(404, 'Not Found');
  });

  // ---- API gate: faults, then what the real deployment checks before routing. ----
  app.use('/api/*', async (c: MockContext, next: Next) => {
    // Faults stand for what is in front of the API, so they come before its key is checked; but
    // only a tenant that exists can have one: a refused request makes no tenant.
    const fault = tenants
      .get(tenantName(c))
      ?.faults.take(c.req.method, new URL(c.req.url).pathname);
    if (baseLatencyMs > 0) await delay(baseLatencyMs * (0.66 + Math.random() * 0.67));
    if (fault?.latencyMs) await delay(fault.latencyMs);
    if (fault) {
      const replaced = replacingFaultResponse(c, fault);
      if (replaced) return replaced;
    }

    if (checkUserAgent && !(c.req.header('user-agent') ?? '').includes('Mozilla/')) {
      return detail(403, 'Forbidden: Suspicious user agent');
    }

    const bodyText =
      c.req.method === 'GET' || c.req.method === 'HEAD'
        ? ''
        : await readTextWithin(c.req.raw, maxBodyBytes);
    if (bodyText === null) return detail(413, 'Request body too large');
    c.set('bodyText', bodyText);

    if (apiKey !== null) {
      const authorization = c.req.header('authorization') ?? '';
      const match = /^bearer\s+(.+)$/i.exec(authorization.trim());
      if (!match) {
        return detail(401, 'Not authenticated', { 'www-authenticate': 'Bearer' });
      }
      if (match[1] !== apiKey) return detail(401, 'Invalid API key');
    }

    const tenant = tenantOf(c);
    c.set('tenant', tenant);
    await next();
    // The server's own clock, as a real Reflexio's Date header is (the tenant's clock may be shifted).
    c.res.headers.set('date', new Date(tenant.now()).toUTCString());

    if (fault?.kind === 'corrupt') {
      const corrupted = await corruptResponse(c.res);
      c.res = undefined;
      c.res = corrupted;
    }
  });

  function replacingFaultResponse(c: MockContext, fault: Fault): Response | null {
    switch (fault.kind) {
      case 'status':
        return statusFaultResponse(fault);
      case 'html':
        return htmlFaultResponse(fault);
      case 'redirect':
        return redirectFaultResponse(fault);
      case 'malformed':
        return malformedFaultResponse(fault);
      case 'drop': {
        const socket = c.env?.incoming?.socket;
        if (socket) {
          socket.destroy();
          return new Response(null, { status: 500 });
        }
        // MSW turns this into a network error; app.request() hands it back as type 'error'.
        return Response.error();
      }
      default:
        return null;
    }
  }

  function bodyOf(c: MockContext): { ok: true; raw: RawBody } | { ok: false; response: Response } {
    const decoded = decodeBody(c.get('bodyText') ?? '', c.req.header('content-type') ?? null);
    return decoded.ok
      ? { ok: true, raw: decoded.value }
      : { ok: false, response: unprocessable(decoded.issues) };
  }

  // ---- API routes. Order of checks: body/query validation (422 list) → 404 → tool (409) → state (409). ----
  app.get(API, (c) => {
    const query = validateListQuery(new URL(c.req.url));
    if (!query.ok) return unprocessable(query.issues);
    const calls = c.get('tenant').store.list({ orgId: DEFAULT_ORG, ...query.value });
    return json({ pending_tool_calls: calls });
  });

  app.get(`${API}/:id`, (c) => {
    const call = c.get('tenant').store.get(c.req.param('id'), DEFAULT_ORG);
    return call ? json(call) : detail(404, 'Pending tool call not found');
  });

  app.post(`${API}/:id/resolve`, (c) => {
    const body = bodyOf(c);
    if (!body.ok) return body.response;
    const payload = validateResolveBody(body.raw);
    if (!payload.ok) return unprocessable(payload.issues);
    const { result, validForSeconds } = payload.value;
    return outcomeResponse(
      c.get('tenant').store.resolve(c.req.param('id'), DEFAULT_ORG, result, validForSeconds),
    );
  });

  app.patch(`${API}/:id/answer`, (c) => {
    const body = bodyOf(c);
    if (!body.ok) return body.response;
    const payload = validateAnswerBody(body.raw);
    if (!payload.ok) return unprocessable(payload.issues);
    const { answer, validForSeconds } = payload.value;
    return outcomeResponse(
      c.get('tenant').store.updateAnswer(c.req.param('id'), DEFAULT_ORG, answer, validForSeconds),
    );
  });

  app.post(`${API}/:id/not_applicable`, (c) => {
    const body = bodyOf(c);
    if (!body.ok) return body.response;
    const payload = validateNotApplicableBody(body.raw);
    if (!payload.ok) return unprocessable(payload.issues);
    return outcomeResponse(
      c
        .get('tenant')
        .store.markNotApplicable(c.req.param('id'), DEFAULT_ORG, payload.value.validForSeconds),
    );
  });

  // The real endpoint declares no body, so whatever is sent is ignored.
  app.post(`${API}/:id/cancel`, (c) =>
    outcomeResponse(c.get('tenant').store.cancel(c.req.param('id'), DEFAULT_ORG)),
  );

  // ---- Control surface (never faulted; behind controlKey when one is set). ----
  const controlGate = controlKeyGate(controlKey, (message) => detail(401, message));
  app.use('/__mock/*', controlGate);
  app.use('/__mock', controlGate);

  async function controlBody<T>(
    c: MockContext,
    schema: z.ZodType<T>,
  ): Promise<{ ok: true; value: T } | { ok: false; response: Response }> {
    const text = await readTextWithin(c.req.raw, maxBodyBytes);
    if (text === null) return { ok: false, response: detail(413, 'Request body too large') };
    let raw: unknown = {};
    if (text.trim() !== '') {
      try {
        raw = JSON.parse(text);
      } catch {
        return { ok: false, response: detail(400, 'Invalid JSON body') };
      }
    }
    const parsed = schema.safeParse(raw);
    if (parsed.success) return { ok: true, value: parsed.data };
    return {
      ok: false,
      response: detail(
        422,
        parsed.error.issues.map((issue) => ({
          type: issue.code,
          loc: [
            'body',
            ...issue.path.map((part) => (typeof part === 'symbol' ? String(part) : part)),
          ],
          msg: issue.message,
        })),
      ),
    };
  }

  app.get('/__mock', () => json(HELP));

  app.get(
    '/__mock/sign-in',
    () => new Response(signInPage(), { headers: { 'content-type': 'text/html; charset=utf-8' } }),
  );
  app.post(
    '/__mock/sign-in',
    () => new Response(null, { status: 303, headers: { location: '/' } }),
  );

  app.get('/__mock/state', (c) => {
    const tenant = tenantOf(c);
    const now = tenant.now();
    return json({
      tenant: tenant.name,
      now: new Date(now).toISOString(),
      nowMs: now,
      clockOffsetMs: tenant.offsetMs,
      calls: tenant.store.all(),
      faults: tenant.faults.list(),
    });
  });

  app.post('/__mock/reset', async (c) => {
    const body = await controlBody(c, resetSchema);
    if (!body.ok) return body.response;
    const tenant = tenantOf(c);
    const seed = body.value.seed ?? defaultSeed;
    resetTenant(tenant, seed);
    return json({ tenant: tenant.name, seed, calls: tenant.store.all().length });
  });

  app.post('/__mock/questions', async (c) => {
    const body = await controlBody(c, createQuestionSchema);
    if (!body.ok) return body.response;
    const input = body.value;
    const scopeOrg = typeof input.scope?.org_id === 'string' ? input.scope.org_id : undefined;
    const { store } = tenantOf(c);
    if (input.id !== undefined && store.get(input.id)) {
      return detail(409, `Pending tool call ${input.id} already exists`);
    }
    const outcome = store.create({
      ...(input.id === undefined ? {} : { id: input.id }),
      question: input.question,
      answerFormat: input.answer_format ?? null,
      tags: input.tags ?? [],
      userId: input.user_id ?? null,
      toolName: input.tool_name ?? 'ask_human',
      orgId: input.org_id ?? scopeOrg ?? DEFAULT_ORG,
      ...(input.args ? { args: input.args } : {}),
      ...(input.scope ? { scope: input.scope } : {}),
      ...(input.expires_in_seconds === undefined
        ? {}
        : { expiresInSeconds: input.expires_in_seconds }),
    });
    return json(outcome, 201);
  });

  app.post('/__mock/questions/:id/resolve', async (c) => {
    const body = await controlBody(c, controlResolveSchema);
    if (!body.ok) return body.response;
    const { answer, result, valid_for_seconds } = body.value;
    const payload = result ?? { answer };
    return outcomeResponse(
      tenantOf(c).store.resolve(c.req.param('id'), undefined, payload, valid_for_seconds),
    );
  });

  app.post('/__mock/questions/:id/answer', async (c) => {
    const body = await controlBody(c, controlAnswerSchema);
    if (!body.ok) return body.response;
    return outcomeResponse(
      tenantOf(c).store.updateAnswer(
        c.req.param('id'),
        undefined,
        body.value.answer,
        body.value.valid_for_seconds,
      ),
    );
  });

  app.post('/__mock/questions/:id/not_applicable', async (c) => {
    const body = await controlBody(c, controlNotApplicableSchema);
    if (!body.ok) return body.response;
    return outcomeResponse(
      tenantOf(c).store.markNotApplicable(
        c.req.param('id'),
        undefined,
        body.value.valid_for_seconds,
      ),
    );
  });

  app.post('/__mock/questions/:id/cancel', (c) =>
    outcomeResponse(tenantOf(c).store.cancel(c.req.param('id'), undefined)),
  );

  app.post('/__mock/questions/:id/expire', (c) =>
    outcomeResponse(tenantOf(c).store.expireNow(c.req.param('id'))),
  );

  app.delete('/__mock/questions/:id', (c) => {
    const id = c.req.param('id');
    return tenantOf(c).store.remove(id)
      ? json({ deleted: id })
      : detail(404, 'Pending tool call not found');
  });

  app.post('/__mock/sweep', (c) => json({ expired: tenantOf(c).store.sweep() }));

  app.post('/__mock/clock', async (c) => {
    const body = await controlBody(c, clockSchema);
    if (!body.ok) return body.response;
    const tenant = tenantOf(c);
    const offset = advancedOffset(tenant.offsetMs, body.value.advanceMs);
    if (offset === null) {
      return detail(400, 'advanceMs would put the clock more than ten years off: reset it first');
    }
    tenant.offsetMs = offset;
    const now = tenant.now();
    return json({ now: new Date(now).toISOString(), nowMs: now, clockOffsetMs: tenant.offsetMs });
  });

  app.post('/__mock/faults', async (c) => {
    const body = await controlBody(c, faultSpecSchema);
    if (!body.ok) return body.response;
    return json({ fault: tenantOf(c).faults.add(body.value) }, 201);
  });

  app.delete('/__mock/faults', (c) => {
    const tenant = tenantOf(c);
    const cleared = tenant.faults.list().length;
    tenant.faults.clear();
    return json({ cleared });
  });

  app.post('/__mock/simulator/tick', (c) => {
    const tenant = tenantOf(c);
    return json(
      simulator.tick((input) => tenant.store.create(input)),
      201,
    );
  });

  tenantNamed(DEFAULT_TENANT);

  let sweepTimer: ReturnType<typeof setInterval> | null = null;
  if (sweepIntervalMs > 0) {
    sweepTimer = setInterval(() => sweep(), sweepIntervalMs);
    unref(sweepTimer);
  }
  simulator.start();

  return {
    // MockEnv only types what handlers read from the context; callers need fetch/request.
    app: app as unknown as Hono,
    sweep,
    reset,
    snapshot(name = DEFAULT_TENANT) {
      const tenant = tenantNamed(name);
      return { calls: tenant.store.all(), clockOffsetMs: tenant.offsetMs };
    },
    restore(snapshot, name = DEFAULT_TENANT) {
      const tenant = tenantNamed(name);
      tenant.offsetMs = snapshot.clockOffsetMs;
      tenant.store.replaceAll(snapshot.calls.map(fromRecord));
    },
    tenantCount: () => tenants.size,
    close() {
      if (sweepTimer !== null) clearInterval(sweepTimer);
      sweepTimer = null;
      simulator.stop();
    },
  };
}
