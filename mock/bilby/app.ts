import { type Context, Hono } from 'hono';
import { z } from 'zod';
import { type Clock, systemClock } from '../clock';
import { base64UrlOf, randomHex32, textOfBase64Url } from '../hash';
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
import { BILBY_ORGANIZATION_ID, bilbySimulatorTemplates, buildBilbyStore } from './seed';
import type { Conversation, ConversationStore, ToolOutput } from './store';

/**
 * A mock of Bilby's conversation questions: the documented `POST …/tool-outputs`
 * (003_ac7afb055ad84874.txt) and the portal's stated assumptions for discovery and detail
 * (src/features/questions/sources/bilby/assumptions.ts), under `/api/v1`, with a control surface
 * under `/__mock`. Choices where neither says anything are marked "Not in the document".
 */
export interface BilbyMockOptions {
  clock?: Clock;
  apiKey?: string | null;
  /** When set, `/__mock` control routes need `Authorization: Bearer <controlKey>` (default none). */
  controlKey?: string | null;
  /** Tenants kept at most; the one used least recently goes first (default 100). */
  maxTenants?: number;
  seed?: SeedName;
  /** The organization the key belongs to. */
  organizationId?: string;
  /**
   * The key covers several organizations, so `organizationId` is required on every request
   * (default). Without it the organization is inferred, as for a key bound to one.
   */
  requireOrganizationId?: boolean;
  /** Conversations per page of the list (default 5, so paging shows). */
  pageSize?: number;
  /** How long a conversation stays `running` after an answer (default 3 s; 0 in tests). */
  runAfterAnswerMs?: number;
  simulatorIntervalMs?: number;
  latencyMs?: number;
}

export interface BilbyMock {
  app: Hono;
  /** A tenant's conversations and clock, for a host that keeps them between runs (the static demo). */
  snapshot(tenant?: string): BilbySnapshot;
  /** False, and the tenant left as it was, when `saved` is not a snapshot of this version. */
  restore(saved: unknown, tenant?: string): boolean;
  /** Tenants kept now (bounded by `maxTenants`). */
  tenantCount(): number;
  close(): void;
}

/** Bumped whenever the shape changes: an older saved snapshot is then refused. */
export const BILBY_SNAPSHOT_VERSION = 1;

export interface BilbySnapshot {
  version: typeof BILBY_SNAPSHOT_VERSION;
  clockOffsetMs: number;
  conversations: Conversation[];
}

export const BILBY_FAULT_KINDS = COMMON_FAULT_KINDS;
const faultSchema = sourceFaultSchema(BILBY_FAULT_KINDS);

// The document's pattern for organizationId (and conversationId in the 202 body).
const UUID =
  /^([0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[1-8][0-9a-fA-F]{3}-[89abAB][0-9a-fA-F]{3}-[0-9a-fA-F]{12}|00000000-0000-0000-0000-000000000000|ffffffff-ffff-ffff-ffff-ffffffffffff)$/;

/** Assumed error body: `{error, message?}`. */
export function bilbyError(status: number, error: string, message?: string): Response {
  return json(message === undefined ? { error } : { error, message }, status);
}

const REASONS: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  409: 'Conflict',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
  504: 'Gateway Timeout',
};

const toolOutputSchema = z
  .object({
    status: z.enum(['answered', 'dismissed']),
    answers: z.array(
      z
        .object({
          question: z.string(),
          selected: z.array(z.string()),
          custom: z.string().optional(),
        })
        .strict(),
    ),
    summary: z.string().refine((value) => value.trim() !== '', 'summary must not be empty'),
  })
  .strict();

const toolOutputsBodySchema = z
  .object({
    outputs: z
      .array(z.object({ toolCallId: z.string().min(1), output: toolOutputSchema }).strict())
      .min(1),
    locale: z.string().optional(),
    reasoningEffort: z.enum(['auto', 'low', 'medium', 'high', 'max']).optional(),
  })
  .strict();

const optionSchema = z.object({ label: z.string().min(1), description: z.string() }).strict();
const questionSchema = z
  .object({
    question: z.string().min(1),
    header: z.string(),
    options: z.array(optionSchema).min(2).max(4),
    multiSelect: z.boolean(),
  })
  .strict();
const newPendingSchema = z
  .object({
    toolCallId: z.string().min(1).optional(),
    createdAgoMs: z.number().min(0).optional(),
    questions: z.array(questionSchema).min(1).max(4),
  })
  .strict();
const createConversationSchema = z
  .object({
    id: z.string().regex(UUID).optional(),
    title: z.string().min(1),
    updatedAgoMs: z.number().min(0).optional(),
    runningForMs: z.number().min(0).optional(),
    pending: z.array(newPendingSchema).optional(),
  })
  .strict();
const busySchema = z.object({ ms: z.number().min(0) }).strict();

const finite = z.number().finite();
const isoDate = z.string().refine((value) => !Number.isNaN(Date.parse(value)), 'an ISO date');
const snapshotSchema = z
  .object({
    version: z.literal(BILBY_SNAPSHOT_VERSION),
    clockOffsetMs: finite,
    conversations: z.array(
      z
        .object({
          id: z.string().min(1),
          title: z.string(),
          updatedAt: finite,
          runningUntil: finite,
          pendingQuestions: z.array(
            z
              .object({
                toolCallId: z.string().min(1),
                createdAt: isoDate,
                questions: z.array(questionSchema).min(1),
              })
              .strict(),
          ),
          answered: z.array(
            z.object({ toolCallId: z.string(), output: toolOutputSchema, at: isoDate }).strict(),
          ),
        })
        .strict(),
    ),
  })
  .strict();

const API_ROUTES: { pattern: RegExp; methods: string[] }[] = [
  { pattern: /^\/api\/v1\/conversations$/, methods: ['GET'] },
  { pattern: /^\/api\/v1\/conversations\/[^/]+$/, methods: ['GET'] },
  { pattern: /^\/api\/v1\/conversations\/[^/]+\/tool-outputs$/, methods: ['POST'] },
];

const HELP = {
  description:
    'Bilby conversation questions mock (documented tool-outputs plus the portal’s assumptions). Tenant: x-mock-tenant header or mock_tenant cookie.',
  api: [
    'GET /api/v1/conversations?organizationId=&cursor=',
    'GET /api/v1/conversations/:id?organizationId=',
    'POST /api/v1/conversations/:id/tool-outputs?organizationId= {outputs: [{toolCallId, output: {status, answers, summary}}], locale?, reasoningEffort?}',
  ],
  control: [
    'GET /__mock/state',
    'POST /__mock/reset {seed?: "demo"|"empty"}',
    'POST /__mock/conversations {title, id?, updatedAgoMs?, runningForMs?, pending?: [{questions, toolCallId?, createdAgoMs?}]}',
    'POST /__mock/conversations/:id/questions {questions, toolCallId?, createdAgoMs?}',
    'POST /__mock/conversations/:id/busy {ms}  (0: idle)',
    'POST /__mock/conversations/:id/tool-calls/:toolCallId/answer  (someone else answers)',
    'DELETE /__mock/conversations/:id',
    'POST /__mock/clock {advanceMs}',
    'POST /__mock/faults {kind, count?, match?: {method?, path?}, latencyMs?, status?, message?, headers?}',
    'DELETE /__mock/faults',
    'POST /__mock/simulator/tick',
  ],
  faultKinds: BILBY_FAULT_KINDS,
};

type Env = {
  Bindings: { incoming?: { socket?: { destroy(): void } | null } };
  Variables: { store: ConversationStore };
};

function encodeCursor(key: { updatedAt: number; id: string }): string {
  return base64UrlOf(`${key.updatedAt}|${key.id}`);
}

function decodeCursor(cursor: string): { updatedAt: number; id: string } | null {
  const [at, id] = (textOfBase64Url(cursor) ?? '').split('|');
  const updatedAt = Number(at);
  return id && Number.isFinite(updatedAt) ? { updatedAt, id } : null;
}

function damage(record: unknown): void {
  if (record === null || typeof record !== 'object' || Array.isArray(record)) return;
  Object.assign(record, { updatedAt: 'yesterday', pendingQuestionCount: 'many', questions: 7 });
}

export function createBilbyMock(options: BilbyMockOptions = {}): BilbyMock {
  const clock = options.clock ?? systemClock;
  const apiKey = options.apiKey ?? null;
  const organizationId = options.organizationId ?? BILBY_ORGANIZATION_ID;
  const requireOrganizationId = options.requireOrganizationId ?? true;
  const pageSize = options.pageSize ?? 5;
  const runAfterAnswerMs = options.runAfterAnswerMs ?? 3000;
  const latencyMs = options.latencyMs ?? 0;
  const tenants = createTenantRegistry<ConversationStore>({
    clock,
    defaultSeed: options.seed ?? 'demo',
    build: buildBilbyStore,
    maxTenants: options.maxTenants,
  });
  const random = mulberry32(20_261_130);

  function simulate(store: ConversationStore) {
    const index = Math.floor(random() * bilbySimulatorTemplates.length);
    const template = bilbySimulatorTemplates[index] ?? bilbySimulatorTemplates[0];
    if (!template) throw new Error('no Bilby simulator templates');
    return store.create({ title: template.title, pending: [{ questions: template.questions }] });
  }

  const app = new Hono<Env>();

  app.onError((error) => {
    console.error('[bilby mock] unhandled error', error);
    return bilbyError(500, 'Internal Server Error');
  });

  app.notFound((c) => {
    const path = new URL(c.req.url).pathname;
    const route = API_ROUTES.find(({ pattern }) => pattern.test(path));
    if (route) {
      const response = bilbyError(405, 'Method Not Allowed');
      response.headers.set('allow', route.methods.join(', '));
      return response;
    }
    return bilbyError(404, 'Not Found', `No route for ${c.req.method} ${path}`);
  });

  app.use('/api/*', async (c, next) => {
    // Only a tenant that exists can have a fault queued: a refused request makes no tenant.
    const fault = tenants.peek(c)?.faults.take(c.req.method, new URL(c.req.url).pathname) ?? null;
    await waitLatency(latencyMs, fault);
    if (fault) {
      const replaced = replacingFault(c.env?.incoming?.socket, fault, (status, message) =>
        bilbyError(status, REASONS[status] ?? 'Error', message),
      );
      if (replaced) return replaced;
    }

    const authProblem = bearerProblem(c, apiKey);
    if (authProblem) return bilbyError(401, 'Unauthorized', authProblem);

    // The document: organizationId is optional for a key bound to one organization, required
    // otherwise; the deprecated workspaceId is still accepted and must match when both are sent.
    const url = new URL(c.req.url);
    const org = url.searchParams.get('organizationId');
    const workspace = url.searchParams.get('workspaceId');
    if (org !== null && workspace !== null && org !== workspace) {
      return bilbyError(400, 'organizationId and workspaceId differ');
    }
    const given = org ?? workspace;
    if (given === null) {
      if (requireOrganizationId) {
        return bilbyError(
          400,
          'organizationId is required',
          'This API key covers several organizations: pass organizationId on each request.',
        );
      }
    } else if (!UUID.test(given)) {
      return bilbyError(400, 'Invalid organizationId', 'organizationId must be a UUID.');
    } else if (given.toLowerCase() !== organizationId.toLowerCase()) {
      // Not in the document: another organization is a 403.
      return bilbyError(403, 'Forbidden', 'This API key does not cover that organization.');
    }

    c.set('store', tenants.of(c).state);
    await next();

    if (fault?.kind === 'corrupt') {
      const corrupted = await corruptJson(c.res, (body) => {
        const list = (body as { conversations?: unknown }).conversations;
        const pending = (body as { pendingQuestions?: unknown }).pendingQuestions;
        if (Array.isArray(list)) damage(list[Math.min(1, list.length - 1)]);
        else if (Array.isArray(pending)) damage(pending[0]);
      });
      c.res = undefined;
      c.res = corrupted;
    }
  });

  app.get('/api/v1/conversations', (c) => {
    const store = c.get('store');
    const cursor = new URL(c.req.url).searchParams.get('cursor');
    const after = cursor ? decodeCursor(cursor) : null;
    if (cursor && !after) return bilbyError(400, 'Invalid cursor');
    // One more than a page tells whether another page follows.
    const rows = store.page(pageSize + 1, after);
    const page = rows.slice(0, pageSize);
    const last = page.at(-1);
    return json({
      conversations: page.map((conversation) => store.summary(conversation)),
      nextCursor: rows.length > pageSize && last ? encodeCursor(last) : null,
    });
  });

  app.get('/api/v1/conversations/:id', (c) => {
    const detail = c.get('store').detail(c.req.param('id'));
    return detail ? json(detail) : bilbyError(404, 'Conversation not found');
  });

  app.post('/api/v1/conversations/:id/tool-outputs', async (c) => {
    const store = c.get('store');
    const id = c.req.param('id');
    const conversation = store.get(id);
    if (!conversation) return bilbyError(404, 'Conversation not found');

    let raw: unknown;
    try {
      raw = JSON.parse(await c.req.text());
    } catch {
      return bilbyError(400, 'Invalid request body', 'The body is not valid JSON.');
    }
    const parsed = toolOutputsBodySchema.safeParse(raw);
    if (!parsed.success) {
      return bilbyError(400, 'Invalid request body', describeIssues(parsed.error.issues));
    }
    const { outputs } = parsed.data;

    // Not in the document: the order of checks. A body that can never succeed is a 400 or 404
    // first; 409 (try again later) only for one that would be accepted once the turn ends.
    const seen = new Set<string>();
    for (const [index, { toolCallId, output }] of outputs.entries()) {
      if (seen.has(toolCallId)) {
        return bilbyError(400, 'Invalid request body', `outputs.${index}: ${toolCallId} twice`);
      }
      seen.add(toolCallId);
      const pending = conversation.pendingQuestions.find((p) => p.toolCallId === toolCallId);
      if (!pending) {
        return bilbyError(
          404,
          'Tool call not found or already answered',
          `${toolCallId} is not pending in this conversation.`,
        );
      }
      const problem = answerProblem(pending.questions, output);
      if (problem) return bilbyError(400, 'Invalid request body', `outputs.${index}: ${problem}`);
    }

    if (store.isRunning(conversation)) {
      return bilbyError(
        409,
        'Conversation is busy',
        'A turn is still running in this conversation; retry when it has finished.',
      );
    }

    store.accept(id, outputs, runAfterAnswerMs);
    const runId = `run_${randomHex32().slice(0, 16)}`;
    return json(
      {
        ok: true,
        conversationId: id,
        status: 'accepted',
        runId,
        streamUrl: `/api/v1/conversations/${id}/stream?runId=${runId}`,
      },
      202,
    );
  });

  // ---- Control surface (never faulted, never authenticated). ----
  const controlError = (status: number, message: string) => bilbyError(status, message);
  const storeOf = (c: Context) => tenants.of(c).state;

  const controlGate = controlKeyGate(options.controlKey ?? null, (message) =>
    bilbyError(401, 'Unauthorized', message),
  );
  app.use('/__mock/*', controlGate);
  app.use('/__mock', controlGate);

  app.get('/__mock', () => json({ ...HELP, organizationId, pageSize, runAfterAnswerMs }));

  app.get('/__mock/state', (c) => {
    const tenant = tenants.of(c);
    return json({
      tenant: tenant.name,
      nowMs: tenant.now(),
      clockOffsetMs: tenant.offsetMs,
      conversations: tenant.state.all().map((conversation) => ({
        ...conversation,
        status: tenant.state.isRunning(conversation) ? 'running' : 'idle',
      })),
      faults: tenant.faults.list(),
    });
  });

  app.post('/__mock/reset', async (c) => {
    const body = await controlBody(c, resetSchema);
    if (!body.ok) return controlError(400, body.message);
    const tenant = tenants.of(c);
    const seed = body.value.seed ?? 'demo';
    tenants.reset(tenant, seed);
    return json({ tenant: tenant.name, seed, conversations: tenant.state.all().length });
  });

  app.post('/__mock/conversations', async (c) => {
    const body = await controlBody(c, createConversationSchema);
    if (!body.ok) return controlError(400, body.message);
    const store = storeOf(c);
    if (body.value.id !== undefined && store.get(body.value.id)) {
      return controlError(409, `Conversation ${body.value.id} already exists`);
    }
    return json({ conversation: store.create(body.value) }, 201);
  });

  app.post('/__mock/conversations/:id/questions', async (c) => {
    const body = await controlBody(c, newPendingSchema);
    if (!body.ok) return controlError(400, body.message);
    const pending = storeOf(c).addPending(c.req.param('id'), body.value);
    return pending ? json({ pending }, 201) : controlError(404, 'Conversation not found');
  });

  app.post('/__mock/conversations/:id/busy', async (c) => {
    const body = await controlBody(c, busySchema);
    if (!body.ok) return controlError(400, body.message);
    const store = storeOf(c);
    const conversation = store.setRunning(c.req.param('id'), body.value.ms);
    return conversation
      ? json({ conversation: store.detail(conversation.id) })
      : controlError(404, 'Conversation not found');
  });

  app.post('/__mock/conversations/:id/tool-calls/:toolCallId/answer', (c) => {
    const store = storeOf(c);
    const conversation = store.get(c.req.param('id'));
    const callId = c.req.param('toolCallId');
    const pending = conversation?.pendingQuestions.find((p) => p.toolCallId === callId);
    if (!conversation || !pending) return controlError(404, 'Tool call not found');
    const first = pending.questions[0];
    store.accept(
      conversation.id,
      [
        {
          toolCallId: callId,
          output: {
            status: 'answered',
            answers: pending.questions.map((q) => ({
              question: q.question,
              selected: [q.options[0]?.label ?? ''],
            })),
            summary: `${first?.header ?? 'Answer'}: ${first?.options[0]?.label ?? ''}`,
          },
        },
      ],
      0,
    );
    return json({ conversation: store.detail(conversation.id) });
  });

  app.delete('/__mock/conversations/:id', (c) => {
    const id = c.req.param('id');
    return storeOf(c).remove(id) ? json({ deleted: id }) : controlError(404, 'Not found');
  });

  mountClockAndFaults(app, { tenants, faultSchema, controlError });

  app.post('/__mock/simulator/tick', (c) => json({ conversation: simulate(storeOf(c)) }, 201));

  const stopSimulator = startTimer(options.simulatorIntervalMs ?? 0, () => {
    simulate(tenants.named('default').state);
  });

  return {
    app: app as unknown as Hono,
    ...tenantSnapshots<ConversationStore, BilbySnapshot>(tenants, {
      version: BILBY_SNAPSHOT_VERSION,
      schema: snapshotSchema,
      dump: (state) => ({ conversations: state.all() }),
      load: (state, saved) => state.replaceAll(saved.conversations),
    }),
    tenantCount: () => tenants.all().length,
    close: stopSimulator,
  };
}

/**
 * Not in the document: what makes an answer fit its questions. Every answer names one of the
 * call's questions; `selected` holds that question's option labels (one at most unless it is
 * multi-select); `answered` needs something chosen or written for every question.
 */
function answerProblem(
  questions: { question: string; options: { label: string }[]; multiSelect: boolean }[],
  output: ToolOutput,
): string | null {
  for (const answer of output.answers) {
    const question = questions.find((q) => q.question === answer.question);
    if (!question) return `no question "${answer.question.slice(0, 80)}" in this tool call`;
    const labels = new Set(question.options.map((o) => o.label));
    const unknown = answer.selected.find((label) => !labels.has(label));
    if (unknown !== undefined)
      return `"${unknown.slice(0, 80)}" is not an option of "${question.question.slice(0, 80)}"`;
    if (!question.multiSelect && answer.selected.length > 1) {
      return `"${question.question.slice(0, 80)}" takes one option`;
    }
  }
  if (output.status === 'answered') {
    for (const question of questions) {
      const answer = output.answers.find((a) => a.question === question.question);
      const given = answer && (answer.selected.length > 0 || (answer.custom ?? '').trim() !== '');
      if (!given) return `"${question.question.slice(0, 80)}" has no answer`;
    }
  }
  return null;
}
