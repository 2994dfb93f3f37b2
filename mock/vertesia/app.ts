import { type Context, Hono } from 'hono';
import { z } from 'zod';
import { type Clock, systemClock } from '../clock';
import {
  bearerProblem,
  COMMON_FAULT_KINDS,
  controlBody,
  corruptJson,
  createTenantRegistry,
  describeIssues,
  json,
  mountClockAndFaults,
  mulberry32,
  replacingFault,
  resetSchema,
  type SeedName,
  sourceFaultSchema,
  startTimer,
  tenantSnapshots,
  waitLatency,
} from '../source-kit';
import { controlKeyGate } from '../tenancy';
import { buildVertesiaStore, vertesiaSimulatorTemplates } from './seed';
import type { AskStore, NewAsk, PendingAskData } from './store';

/**
 * A mock of Vertesia's Pending Asks API (004_c6f74b07820db5b9.txt, API version 20260803), under
 * `/api/v1/pending-asks`, with a control surface under `/__mock`. Choices where the document is
 * silent are marked "Not in the document".
 */
export interface VertesiaMockOptions {
  clock?: Clock;
  apiKey?: string | null;
  /** When set, `/__mock` control routes need `Authorization: Bearer <controlKey>` (default none). */
  controlKey?: string | null;
  /** Tenants kept at most; the one used least recently goes first (default 100). */
  maxTenants?: number;
  seed?: SeedName;
  /** A new ask every this many ms (0: off). */
  simulatorIntervalMs?: number;
  latencyMs?: number;
}

export interface VertesiaMock {
  app: Hono;
  /** A tenant's asks and clock, for a host that keeps them between runs (the static demo). */
  snapshot(tenant?: string): VertesiaSnapshot;
  /** False, and the tenant left as it was, when `saved` is not a snapshot of this version. */
  restore(saved: unknown, tenant?: string): boolean;
  /** Tenants kept now (bounded by `maxTenants`). */
  tenantCount(): number;
  close(): void;
}

/** Bumped whenever the shape changes: an older saved snapshot is then refused. */
export const VERTESIA_SNAPSHOT_VERSION = 1;

export interface VertesiaSnapshot {
  version: typeof VERTESIA_SNAPSHOT_VERSION;
  clockOffsetMs: number;
  asks: PendingAskData[];
  requestIds: Record<string, string>;
}

/** The API version this mock implements; from it on, unknown request properties are a 400. */
export const VERTESIA_API_VERSION = '20260803';
export const VERTESIA_FAULT_KINDS = [...COMMON_FAULT_KINDS, 'unsuccessful'] as const;
const faultSchema = sourceFaultSchema(VERTESIA_FAULT_KINDS);

const REASONS: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  409: 'Conflict',
  413: 'Payload Too Large',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
  504: 'Gateway Timeout',
};

/** The document's `ErrorResponse`: `{error, status, message, details?, errorCode?}`. */
export function vertesiaError(
  status: number,
  message: string,
  extra: { details?: string; errorCode?: string } = {},
): Response {
  return json({ error: REASONS[status] ?? 'Error', status, message, ...extra }, status);
}

const DEFAULT_FAULT_MESSAGES: Record<number, string> = {
  500: 'Internal server error.',
  503: 'Service temporarily unavailable.',
};

const emailChannel = z
  .object({
    type: z.literal('email'),
    to_email: z.string(),
    thread_subject: z.string().optional(),
    in_reply_to: z.string().optional(),
    references: z.array(z.string()).optional(),
    route_key: z.string().optional(),
  })
  .strict();
const interactiveChannel = z.object({ type: z.literal('interactive') }).strict();
const taskField = z
  .object({
    name: z.string(),
    type: z.enum(['string', 'number', 'boolean', 'select', 'text']),
    required: z.boolean().optional(),
    label: z.string().optional(),
    options: z.array(z.string()).optional(),
    default: z.unknown().optional(),
  })
  .strict();

// `additionalProperties: false` throughout, enforced from 20260803 on; older versions drop extras.
function bodySchemas(strict: boolean) {
  const object = <T extends z.ZodRawShape>(shape: T) =>
    strict ? z.object(shape).strict() : z.object(shape).strip();
  return {
    resolve: object({ response: z.string() }),
    register: object({
      runId: z.string(),
      workflowId: z.string(),
      agentName: z.string(),
      questions: z.array(z.string()),
      timeoutHours: z.number().optional(),
      userChannels: z.array(z.discriminatedUnion('type', [emailChannel, interactiveChannel])),
      taskFields: z.array(taskField).optional(),
      requestId: z.string().optional(),
    }),
  };
}
const strictBodies = bodySchemas(true);
const lenientBodies = bodySchemas(false);

const createAskSchema = z
  .object({
    askId: z
      .string()
      .regex(/^[A-Za-z0-9_-]{1,64}$/)
      .optional(),
    agentName: z.string().min(1).default('Demo agent'),
    questions: z.array(z.string().min(1)).min(1),
    timeoutHours: z.number().positive().optional(),
    userChannels: z
      .array(z.discriminatedUnion('type', [emailChannel, interactiveChannel]))
      .optional(),
    taskId: z.string().optional(),
    runId: z.string().optional(),
    workflowId: z.string().optional(),
    createdAgoMs: z.number().min(0).optional(),
  })
  .strict();

const controlResolveSchema = z.object({ response: z.string() }).strict();

const finite = z.number().finite();
const snapshotSchema = z
  .object({
    version: z.literal(VERTESIA_SNAPSHOT_VERSION),
    clockOffsetMs: finite,
    asks: z.array(
      z
        .object({
          askId: z.string().min(1),
          runId: z.string(),
          workflowId: z.string(),
          projectId: z.string(),
          accountId: z.string(),
          agentName: z.string(),
          questions: z.array(z.string()),
          timeoutHours: finite,
          userChannels: z.array(z.discriminatedUnion('type', [emailChannel, interactiveChannel])),
          createdAt: finite,
          expiresAt: finite,
          status: z.enum(['pending', 'resolved', 'expired']),
          taskId: z.string().optional(),
          resolvedAt: finite.optional(),
          response: z.string().optional(),
        })
        .strict(),
    ),
    requestIds: z.record(z.string(), z.string()),
  })
  .strict();

const API = '/api/v1/pending-asks';
const API_ROUTES: { pattern: RegExp; methods: string[] }[] = [
  { pattern: /^\/api\/v1\/pending-asks$/, methods: ['GET', 'POST'] },
  { pattern: /^\/api\/v1\/pending-asks\/[^/]+$/, methods: ['GET'] },
  { pattern: /^\/api\/v1\/pending-asks\/[^/]+\/resolve$/, methods: ['POST'] },
];

const HELP = {
  description:
    'Vertesia Pending Asks mock (API version 20260803). Tenant: x-mock-tenant header or mock_tenant cookie.',
  api: [
    'GET /api/v1/pending-asks',
    'POST /api/v1/pending-asks {runId, workflowId, agentName, questions, userChannels, timeoutHours?, taskFields?, requestId?}',
    'GET /api/v1/pending-asks/:askId',
    'POST /api/v1/pending-asks/:askId/resolve {response}',
    'every request: x-api-version: 20260803',
  ],
  control: [
    'GET /__mock/state',
    'POST /__mock/reset {seed?: "demo"|"empty"}',
    'POST /__mock/asks {questions, agentName?, askId?, timeoutHours?, userChannels?, taskId?, createdAgoMs?}',
    'POST /__mock/asks/:askId/resolve {response}  (someone else answers)',
    'POST /__mock/asks/:askId/expire',
    'DELETE /__mock/asks/:askId',
    'POST /__mock/clock {advanceMs}',
    'POST /__mock/faults {kind, count?, match?: {method?, path?}, latencyMs?, status?, message?, headers?}',
    'DELETE /__mock/faults',
    'POST /__mock/simulator/tick',
  ],
  faultKinds: VERTESIA_FAULT_KINDS,
};

type Env = {
  Bindings: { incoming?: { socket?: { destroy(): void } | null } };
  Variables: { store: AskStore; strict: boolean };
};

function damage(record: unknown): void {
  if (record === null || typeof record !== 'object' || Array.isArray(record)) return;
  Object.assign(record, { status: 42, questions: 'not-a-list', createdAt: 'yesterday' });
}

export function createVertesiaMock(options: VertesiaMockOptions = {}): VertesiaMock {
  const clock = options.clock ?? systemClock;
  const apiKey = options.apiKey ?? null;
  const defaultSeed = options.seed ?? 'demo';
  const latencyMs = options.latencyMs ?? 0;
  const tenants = createTenantRegistry<AskStore>({
    clock,
    defaultSeed,
    build: buildVertesiaStore,
    maxTenants: options.maxTenants,
  });
  const random = mulberry32(20_260_803);
  const nextTemplate = (): NewAsk => {
    const index = Math.floor(random() * vertesiaSimulatorTemplates.length);
    return vertesiaSimulatorTemplates[index] ?? (vertesiaSimulatorTemplates[0] as NewAsk);
  };

  const app = new Hono<Env>();

  app.onError((error) => {
    console.error('[vertesia mock] unhandled error', error);
    return vertesiaError(500, 'Internal server error.');
  });

  app.notFound((c) => {
    const path = new URL(c.req.url).pathname;
    const route = API_ROUTES.find(({ pattern }) => pattern.test(path));
    if (route) {
      const response = vertesiaError(405, `${c.req.method} is not allowed on ${path}.`);
      response.headers.set('allow', route.methods.join(', '));
      return response;
    }
    return vertesiaError(404, `No route for ${c.req.method} ${path}.`);
  });

  app.use('/api/*', async (c, next) => {
    // Only a tenant that exists can have a fault queued: a refused request makes no tenant.
    const fault = tenants.peek(c)?.faults.take(c.req.method, new URL(c.req.url).pathname) ?? null;
    await waitLatency(latencyMs, fault);
    if (fault) {
      const replaced = replacingFault(c.env?.incoming?.socket, fault, (status, message) =>
        vertesiaError(status, message ?? DEFAULT_FAULT_MESSAGES[status] ?? 'Request failed.'),
      );
      if (replaced) return replaced;
      if (fault.kind === 'unsuccessful') {
        return json({
          success: false,
          error: fault.message ?? 'The agent run is no longer waiting for this answer.',
        });
      }
    }

    const authProblem = bearerProblem(c, apiKey);
    if (authProblem) return vertesiaError(401, authProblem);

    // Not in the document: a version that is not 8 digits is refused; versions before 20260803
    // get the older behaviour (unknown request properties are dropped, not refused).
    const version = c.req.header('x-api-version')?.trim() ?? '';
    if (version === '') {
      return vertesiaError(400, 'Missing required header: x-api-version.', {
        details: `Send x-api-version: ${VERTESIA_API_VERSION}.`,
        errorCode: 'missing_api_version',
      });
    }
    if (!/^\d{8}$/.test(version)) {
      return vertesiaError(400, `Unsupported x-api-version: ${version.slice(0, 40)}.`, {
        errorCode: 'invalid_api_version',
      });
    }
    c.set('strict', version >= VERTESIA_API_VERSION);
    c.set('store', tenants.of(c).state);

    await next();

    if (fault?.kind === 'corrupt') {
      const corrupted = await corruptJson(c.res, (body) => {
        const asks = (body as { asks?: unknown }).asks;
        if (Array.isArray(asks)) damage(asks[Math.min(1, asks.length - 1)]);
        else damage(body);
      });
      c.res = undefined;
      c.res = corrupted;
    }
  });

  async function apiBody<T>(
    c: Context<Env>,
    pick: (bodies: typeof strictBodies) => z.ZodType<T>,
  ): Promise<{ ok: true; value: T } | { ok: false; response: Response }> {
    const text = await c.req.text();
    let raw: unknown;
    try {
      raw = JSON.parse(text);
    } catch {
      return {
        ok: false,
        response: vertesiaError(400, 'Request validation failed.', {
          details: text.trim() === '' ? 'A JSON body is required.' : 'The body is not valid JSON.',
        }),
      };
    }
    const parsed = pick(c.get('strict') ? strictBodies : lenientBodies).safeParse(raw);
    if (parsed.success) return { ok: true, value: parsed.data };
    return {
      ok: false,
      response: vertesiaError(400, 'Request validation failed.', {
        details: describeIssues(parsed.error.issues),
      }),
    };
  }

  app.get(API, (c) => json({ asks: c.get('store').list() }));

  app.post(API, async (c) => {
    const body = await apiBody(c, (b) => b.register);
    if (!body.ok) return body.response;
    const input = body.value;
    const store = c.get('store');
    if (input.requestId !== undefined) {
      // Not in the document: a repeated requestId registers nothing new.
      const existing = store.byRequestId(input.requestId);
      if (existing) return json({ success: true, askId: existing.askId, webhookSent: false });
    }
    // Not in the document: an ask with no question is refused in the body, the way it can report.
    if (input.questions.length === 0) {
      return json({ success: false, error: 'An ask needs at least one question.' });
    }
    const ask = store.register({
      runId: input.runId,
      workflowId: input.workflowId,
      agentName: input.agentName,
      questions: input.questions,
      ...(input.timeoutHours === undefined ? {} : { timeoutHours: input.timeoutHours }),
      userChannels: input.userChannels,
      ...(input.requestId === undefined ? {} : { requestId: input.requestId }),
    });
    return json({
      success: true,
      askId: ask.askId,
      webhookSent: input.userChannels.some((channel) => channel.type === 'email'),
    });
  });

  app.get(`${API}/:askId`, (c) => {
    const askId = c.req.param('askId');
    const ask = c.get('store').get(askId);
    return ask
      ? json(ask)
      : vertesiaError(404, `Pending ask ${askId} not found.`, {
          errorCode: 'pending_ask_not_found',
        });
  });

  app.post(`${API}/:askId/resolve`, async (c) => {
    const askId = c.req.param('askId');
    const store = c.get('store');
    // Not in the document: an unknown ask is a 404 before the body is looked at.
    if (!store.get(askId)) {
      return vertesiaError(404, `Pending ask ${askId} not found.`, {
        errorCode: 'pending_ask_not_found',
      });
    }
    const body = await apiBody(c, (b) => b.resolve);
    if (!body.ok) return body.response;
    const outcome = store.resolve(askId, body.value.response);
    if (!outcome.ok) {
      return vertesiaError(outcome.status, outcome.message, { errorCode: outcome.code });
    }
    return json({ success: true, webhookSent: true, waitDurationMs: outcome.waitDurationMs });
  });

  // ---- Control surface (never faulted, never authenticated). ----
  const controlError = (status: number, message: string) => vertesiaError(status, message);

  const controlGate = controlKeyGate(options.controlKey ?? null, (message) =>
    vertesiaError(401, message),
  );
  app.use('/__mock/*', controlGate);
  app.use('/__mock', controlGate);

  app.get('/__mock', () => json(HELP));

  app.get('/__mock/state', (c) => {
    const tenant = tenants.of(c);
    return json({
      tenant: tenant.name,
      nowMs: tenant.now(),
      clockOffsetMs: tenant.offsetMs,
      asks: tenant.state.list(),
      faults: tenant.faults.list(),
    });
  });

  app.post('/__mock/reset', async (c) => {
    const body = await controlBody(c, resetSchema);
    if (!body.ok) return controlError(400, body.message);
    const tenant = tenants.of(c);
    const seed = body.value.seed ?? defaultSeed;
    tenants.reset(tenant, seed);
    return json({ tenant: tenant.name, seed, asks: tenant.state.list().length });
  });

  app.post('/__mock/asks', async (c) => {
    const body = await controlBody(c, createAskSchema);
    if (!body.ok) return controlError(400, body.message);
    const { state } = tenants.of(c);
    if (body.value.askId !== undefined && state.get(body.value.askId)) {
      return controlError(409, `Pending ask ${body.value.askId} already exists.`);
    }
    return json({ ask: state.register(body.value) }, 201);
  });

  app.post('/__mock/asks/:askId/resolve', async (c) => {
    const body = await controlBody(c, controlResolveSchema);
    if (!body.ok) return controlError(400, body.message);
    const outcome = tenants.of(c).state.resolve(c.req.param('askId'), body.value.response);
    return outcome.ok
      ? json({ ask: outcome.ask })
      : vertesiaError(outcome.status, outcome.message, { errorCode: outcome.code });
  });

  app.post('/__mock/asks/:askId/expire', (c) => {
    const ask = tenants.of(c).state.expireNow(c.req.param('askId'));
    return ask ? json({ ask }) : controlError(404, 'Pending ask not found.');
  });

  app.delete('/__mock/asks/:askId', (c) => {
    const askId = c.req.param('askId');
    return tenants.of(c).state.remove(askId)
      ? json({ deleted: askId })
      : controlError(404, 'Pending ask not found.');
  });

  mountClockAndFaults(app, { tenants, faultSchema, controlError });

  app.post('/__mock/simulator/tick', (c) =>
    json({ ask: tenants.of(c).state.register(nextTemplate()) }, 201),
  );

  const stopSimulator = startTimer(options.simulatorIntervalMs ?? 0, () => {
    tenants.named('default').state.register(nextTemplate());
  });

  return {
    app: app as unknown as Hono,
    ...tenantSnapshots<AskStore, VertesiaSnapshot>(tenants, {
      version: VERTESIA_SNAPSHOT_VERSION,
      schema: snapshotSchema,
      dump: (state) => state.dump(),
      load: (state, saved) => state.load(saved),
    }),
    tenantCount: () => tenants.all().length,
    close: stopSimulator,
  };
}
