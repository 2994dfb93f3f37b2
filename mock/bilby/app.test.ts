import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createManualClock } from '../clock';
import { caller } from '../source-test-support';
import { createBilbyMock } from './app';
import { BILBY_ORGANIZATION_ID, BUSY_DEMO_MS, bilbyDemoIds as ids } from './seed';

/**
 * Contract of the Bilby mock: the documented tool-outputs call (003_ac7afb055ad84874.txt, its
 * example request and response) and the portal's assumptions for discovery and detail
 * (src/features/questions/sources/bilby/assumptions.ts), each response parsed with a schema
 * written from those texts.
 */
const START = Date.parse('2026-11-30T09:00:00.000Z');
const KEY = 'pulse_test_key';
const ORG = `organizationId=${BILBY_ORGANIZATION_ID}`;
const AUTH = { authorization: `Bearer ${KEY}` };
const UUID =
  /^([0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[1-8][0-9a-fA-F]{3}-[89abAB][0-9a-fA-F]{3}-[0-9a-fA-F]{12}|00000000-0000-0000-0000-000000000000|ffffffff-ffff-ffff-ffff-ffffffffffff)$/;

const isoDate = z.string().refine((value) => !Number.isNaN(Date.parse(value)), 'ISO date');
const listResponse = z
  .object({
    conversations: z.array(
      z
        .object({
          id: z.string(),
          title: z.string(),
          updatedAt: isoDate,
          pendingQuestionCount: z.number().int().min(0),
        })
        .strict(),
    ),
    nextCursor: z.string().nullable(),
  })
  .strict();
const question = z
  .object({
    question: z.string(),
    header: z.string(),
    options: z.array(z.object({ label: z.string(), description: z.string() }).strict()),
    multiSelect: z.boolean(),
  })
  .strict();
const detailResponse = z
  .object({
    id: z.string(),
    title: z.string(),
    status: z.enum(['idle', 'running']),
    updatedAt: isoDate,
    pendingQuestions: z.array(
      z
        .object({
          toolCallId: z.string(),
          createdAt: isoDate,
          questions: z.array(question).min(1).max(4),
        })
        .strict(),
    ),
  })
  .strict();
// The document's 202 response schema.
const acceptedResponse = z
  .object({
    ok: z.boolean(),
    conversationId: z.string().regex(UUID),
    status: z.string(),
    runId: z.string(),
    streamUrl: z.string(),
  })
  .strict();
const errorBody = z.object({ error: z.string(), message: z.string().optional() }).strict();

type Options = Parameters<typeof createBilbyMock>[0];

function setup(options: Options = {}) {
  const clock = createManualClock(START);
  const mock = createBilbyMock({ clock, apiKey: KEY, runAfterAnswerMs: 0, ...options });
  return { clock, mock, call: caller(mock.app, AUTH), raw: caller(mock.app) };
}

const outputsPath = (id: string) => `/api/v1/conversations/${id}/tool-outputs?${ORG}`;

function answer(toolCallId: string, answers: unknown[], summary = 'Done', status = 'answered') {
  return { outputs: [{ toolCallId, output: { status, answers, summary } }] };
}

const postgresQ = 'Which Postgres version should the new analytics database run?';
const extensionsQ = 'Which extensions should be installed from the start?';

describe('Bilby mock: the documented tool-outputs call', () => {
  it('the example request, placeholders filled with a real call: 202 and the example response’s shape', async () => {
    // The example sends no organizationId: a key bound to one organization.
    const { mock } = setup({ requireOrganizationId: false, seed: 'empty' });
    const call = caller(mock.app, AUTH);
    const created = await call('POST', '/__mock/conversations', {
      id: 'ee6e55e8-45fe-4a3e-9bc8-4669f9fdf77a',
      title: 'Example',
      pending: [
        {
          toolCallId: 'string',
          questions: [
            {
              question: 'string',
              header: 'string',
              options: [
                { label: 'string', description: '' },
                { label: 'other', description: '' },
              ],
              multiSelect: false,
            },
          ],
        },
      ],
    });
    expect(created.status).toBe(201);
    // The curl example's body, byte for byte.
    const exampleBody =
      '{  "outputs": [    {      "toolCallId": "string",      "output": {        "status": "answered",        "answers": [          {            "question": "string",            "selected": [              "string"            ]          }        ],        "summary": "string"      }    }  ]}';
    const response = await mock.app.request(
      'https://pulse.bilby.ai/api/v1/conversations/ee6e55e8-45fe-4a3e-9bc8-4669f9fdf77a/tool-outputs',
      {
        method: 'POST',
        headers: { Authorization: `Bearer ${KEY}`, 'Content-Type': 'application/json' },
        body: exampleBody,
      },
    );
    expect(response.status).toBe(202);
    const body = acceptedResponse.parse(await response.json());
    expect(body).toMatchObject({
      ok: true,
      conversationId: 'ee6e55e8-45fe-4a3e-9bc8-4669f9fdf77a',
      status: 'accepted',
    });
  });

  it('answered questions leave pendingQuestions; the conversation runs for a while, then idles', async () => {
    const { call, clock } = setup({ runAfterAnswerMs: 4000 });
    const reply = await call(
      'POST',
      outputsPath(ids.database),
      answer(
        ids.databaseCall,
        [
          { question: postgresQ, selected: ['Postgres 17'] },
          { question: extensionsQ, selected: ['pgvector', 'PostGIS'] },
        ],
        'Postgres: Postgres 17; Extensions: pgvector, PostGIS',
      ),
    );
    expect(reply.status).toBe(202);
    const detail = detailResponse.parse(
      (await call('GET', `/api/v1/conversations/${ids.database}?${ORG}`)).body,
    );
    expect(detail.pendingQuestions).toEqual([]);
    expect(detail.status).toBe('running');
    expect(Date.parse(detail.updatedAt)).toBe(START);
    clock.advance(4000);
    const later = detailResponse.parse(
      (await call('GET', `/api/v1/conversations/${ids.database}?${ORG}`)).body,
    );
    expect(later.status).toBe('idle');
  });

  it('409 while the turn runs, and the call stays pending; accepted once it has finished', async () => {
    const { call, clock } = setup();
    const body = answer(ids.busyCall, [
      {
        question: 'Should the quarterly report compare against last quarter or last year?',
        selected: ['Last year'],
      },
    ]);
    const busy = await call('POST', outputsPath(ids.busy), body);
    expect(busy.status).toBe(409);
    expect(errorBody.parse(busy.body).error).toBe('Conversation is busy');
    const detail = detailResponse.parse(
      (await call('GET', `/api/v1/conversations/${ids.busy}?${ORG}`)).body,
    );
    expect(detail.status).toBe('running');
    expect(detail.pendingQuestions.map((p) => p.toolCallId)).toEqual([ids.busyCall]);
    clock.advance(BUSY_DEMO_MS);
    expect((await call('POST', outputsPath(ids.busy), body)).status).toBe(202);
  });

  it('a second answer while the first one’s turn runs is a 409; the same call again is a 404', async () => {
    const { call } = setup({ runAfterAnswerMs: 5000 });
    const first = answer(ids.twoCallsFirst, [
      { question: 'Which day should the movers come?', selected: ['Friday'] },
    ]);
    expect((await call('POST', outputsPath(ids.twoCalls), first)).status).toBe(202);
    const second = answer(ids.twoCallsSecond, [
      { question: 'Is the new office’s Wi-Fi ready for the first day?', selected: ['Yes'] },
    ]);
    expect((await call('POST', outputsPath(ids.twoCalls), second)).status).toBe(409);
    const again = await call('POST', outputsPath(ids.twoCalls), first);
    expect(again.status).toBe(404);
    expect(errorBody.parse(again.body).error).toMatch(/already answered/);
  });

  it('dismissed: no answers needed; the call leaves the conversation', async () => {
    const { call } = setup();
    const reply = await call(
      'POST',
      outputsPath(ids.launch),
      answer(ids.launchCall, [], 'Not applicable', 'dismissed'),
    );
    expect(reply.status).toBe(202);
    const detail = detailResponse.parse(
      (await call('GET', `/api/v1/conversations/${ids.launch}?${ORG}`)).body,
    );
    expect(detail.pendingQuestions).toEqual([]);
  });

  it('free "other" text: custom with nothing selected is an answer', async () => {
    const { call } = setup();
    const reply = await call(
      'POST',
      outputsPath(ids.naming),
      answer(
        ids.namingCall,
        [
          {
            question: 'What should the new billing service be called? Pick one or write your own.',
            selected: [],
            custom: 'tally',
          },
        ],
        'Name: tally',
      ),
    );
    expect(reply.status).toBe(202);
  });

  it.each([
    ['an empty summary', answer(ids.launchCall, [], '  ', 'dismissed')],
    [
      'a label that is not an option',
      answer(ids.launchCall, [
        { question: 'Which audiences should get the spring launch email?', selected: ['Partners'] },
      ]),
    ],
    [
      'two labels for a single-select question',
      answer(ids.databaseCall, [
        { question: postgresQ, selected: ['Postgres 16', 'Postgres 17'] },
        { question: extensionsQ, selected: ['PostGIS'] },
      ]),
    ],
    [
      '"answered" with a question left unanswered',
      answer(ids.databaseCall, [{ question: postgresQ, selected: ['Postgres 17'] }]),
    ],
    [
      'a question the call does not have',
      answer(ids.launchCall, [{ question: 'Why?', selected: [] }]),
    ],
    [
      'an unknown top-level property',
      { ...answer(ids.launchCall, [], 'x', 'dismissed'), organizationId: BILBY_ORGANIZATION_ID },
    ],
    [
      'an unknown property in an output',
      {
        outputs: [
          {
            toolCallId: ids.launchCall,
            output: { status: 'dismissed', answers: [], summary: 'x', reason: 'n/a' },
          },
        ],
      },
    ],
    ['no outputs', { outputs: [] }],
    ['an unknown status', answer(ids.launchCall, [], 'x', 'skipped')],
    [
      'a bad reasoningEffort',
      { ...answer(ids.launchCall, [], 'x', 'dismissed'), reasoningEffort: 'extreme' },
    ],
  ])('400 for %s; nothing changes', async (_name, body) => {
    const { call } = setup();
    const reply = await call('POST', outputsPath(conversationFor(body)), body);
    expect(reply.status).toBe(400);
    expect(errorBody.parse(reply.body).error).toBe('Invalid request body');
    const list = listResponse.parse((await call('GET', `/api/v1/conversations?${ORG}`)).body);
    expect(list.conversations.reduce((n, c) => n + c.pendingQuestionCount, 0)).toBeGreaterThan(0);
    const detail = detailResponse.parse(
      (await call('GET', `/api/v1/conversations/${conversationFor(body)}?${ORG}`)).body,
    );
    expect(detail.status).toBe('idle');
    expect(detail.pendingQuestions.length).toBeGreaterThan(0);
  });

  it('404 for an unknown conversation and an unknown tool call', async () => {
    const { call } = setup();
    const unknownConversation = await call(
      'POST',
      outputsPath('00000000-0000-0000-0000-000000000000'),
      answer(ids.launchCall, [], 'x', 'dismissed'),
    );
    expect(unknownConversation.status).toBe(404);
    expect(errorBody.parse(unknownConversation.body).error).toBe('Conversation not found');
    const unknownCall = await call(
      'POST',
      outputsPath(ids.launch),
      answer('toolu_nope', [], 'x', 'dismissed'),
    );
    expect(unknownCall.status).toBe(404);
    expect((await call('GET', `/api/v1/conversations/nope?${ORG}`)).status).toBe(404);
  });
});

function conversationFor(body: unknown): string {
  const text = JSON.stringify(body);
  return text.includes(ids.databaseCall) ? ids.database : ids.launch;
}

describe('Bilby mock: discovery and detail as assumed', () => {
  it('pages of five with nextCursor until null; every conversation once', async () => {
    const { call } = setup();
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const query: string = cursor ? `&cursor=${encodeURIComponent(cursor)}` : '';
      const reply = await call('GET', `/api/v1/conversations?${ORG}${query}`);
      expect(reply.status).toBe(200);
      const page = listResponse.parse(reply.body);
      expect(page.conversations.length).toBeLessThanOrEqual(5);
      seen.push(...page.conversations.map((c) => c.id));
      cursor = page.nextCursor;
      pages += 1;
    } while (cursor !== null && pages < 50);
    expect(pages).toBeGreaterThanOrEqual(3);
    expect(new Set(seen).size).toBe(seen.length);
    expect(seen).toHaveLength(13);
    expect(seen).toContain(ids.quiet);
  });

  it('the list is newest first and counts pending calls', async () => {
    const { call } = setup({ pageSize: 50 });
    const page = listResponse.parse((await call('GET', `/api/v1/conversations?${ORG}`)).body);
    const times = page.conversations.map((c) => Date.parse(c.updatedAt));
    expect(times).toEqual([...times].sort((a, b) => b - a));
    expect(page.conversations.find((c) => c.id === ids.twoCalls)?.pendingQuestionCount).toBe(2);
    expect(page.conversations.find((c) => c.id === ids.quiet)?.pendingQuestionCount).toBe(0);
    expect(page.nextCursor).toBeNull();
  });

  it('the demo shows the shape: multi-select, single-select, two questions in one call, a busy conversation', async () => {
    const { call } = setup();
    const database = detailResponse.parse(
      (await call('GET', `/api/v1/conversations/${ids.database}?${ORG}`)).body,
    );
    const [call0] = database.pendingQuestions;
    expect(call0?.questions.map((q) => q.multiSelect)).toEqual([false, true]);
    expect(call0?.questions[1]?.options).toHaveLength(4);
    const busy = detailResponse.parse(
      (await call('GET', `/api/v1/conversations/${ids.busy}?${ORG}`)).body,
    );
    expect(busy.status).toBe('running');
  });

  it('a bad cursor is a 400', async () => {
    const { call } = setup();
    expect((await call('GET', `/api/v1/conversations?${ORG}&cursor=%%%`)).status).toBe(400);
  });
});

describe('Bilby mock: organization and key', () => {
  it('organizationId required: 400 without it, 400 if not a UUID, 403 for another organization', async () => {
    const { call } = setup();
    const missing = await call('GET', '/api/v1/conversations');
    expect(missing.status).toBe(400);
    expect(errorBody.parse(missing.body).error).toBe('organizationId is required');
    expect((await call('GET', '/api/v1/conversations?organizationId=acme')).status).toBe(400);
    const other = await call(
      'GET',
      '/api/v1/conversations?organizationId=11111111-1111-4111-8111-111111111111',
    );
    expect(other.status).toBe(403);
  });

  it('the deprecated workspaceId works alone, and must match organizationId when both are sent', async () => {
    const { call } = setup();
    const alone = await call('GET', `/api/v1/conversations?workspaceId=${BILBY_ORGANIZATION_ID}`);
    expect(alone.status).toBe(200);
    const differ = await call(
      'GET',
      `/api/v1/conversations?${ORG}&workspaceId=11111111-1111-4111-8111-111111111111`,
    );
    expect(differ.status).toBe(400);
  });

  it('a key bound to one organization may leave organizationId out', async () => {
    const { call } = setup({ requireOrganizationId: false });
    expect((await call('GET', '/api/v1/conversations')).status).toBe(200);
  });

  it('401 without the bearer key or with another one', async () => {
    const { raw } = setup();
    expect((await raw('GET', `/api/v1/conversations?${ORG}`)).status).toBe(401);
    const wrong = await raw('GET', `/api/v1/conversations?${ORG}`, undefined, {
      authorization: 'Bearer pulse_other',
    });
    expect(wrong.status).toBe(401);
    expect(errorBody.parse(wrong.body).error).toBe('Unauthorized');
  });
});

describe('Bilby mock: faults and control', () => {
  it('status fault: {error, message} with the given status, once', async () => {
    const { call } = setup();
    await call('POST', '/__mock/faults', { kind: 'status', status: 503, message: 'Maintenance' });
    const reply = await call('GET', `/api/v1/conversations?${ORG}`);
    expect(reply.status).toBe(503);
    expect(reply.body).toEqual({ error: 'Service Unavailable', message: 'Maintenance' });
    expect((await call('GET', `/api/v1/conversations?${ORG}`)).status).toBe(200);
  });

  it('corrupt damages one conversation of a page', async () => {
    const { call } = setup();
    await call('POST', '/__mock/faults', { kind: 'corrupt' });
    const reply = await call<{ conversations: unknown[] }>('GET', `/api/v1/conversations?${ORG}`);
    expect(listResponse.safeParse(reply.body).success).toBe(false);
    const item = listResponse.shape.conversations.element;
    expect(reply.body.conversations.filter((c) => !item.safeParse(c).success)).toHaveLength(1);
  });

  it('someone else answers through the control surface: the call leaves, a later answer is a 404', async () => {
    const { call } = setup();
    const other = await call(
      'POST',
      `/__mock/conversations/${ids.launch}/tool-calls/${ids.launchCall}/answer`,
    );
    expect(other.status).toBe(200);
    const reply = await call(
      'POST',
      outputsPath(ids.launch),
      answer(ids.launchCall, [], 'x', 'dismissed'),
    );
    expect(reply.status).toBe(404);
  });

  it('busy on demand, new conversations and questions, the simulator, reset; tenants apart', async () => {
    const { call } = setup({ seed: 'empty' });
    const a = { 'x-mock-tenant': 'a' };
    const created = await call<{ conversation: { id: string } }>(
      'POST',
      '/__mock/conversations',
      { title: 'Fresh' },
      a,
    );
    expect(created.status).toBe(201);
    const id = created.body.conversation.id;
    expect(id).toMatch(UUID);
    const added = await call(
      'POST',
      `/__mock/conversations/${id}/questions`,
      {
        toolCallId: 'toolu_x',
        questions: [
          {
            question: 'Go?',
            header: 'Go',
            options: [
              { label: 'Yes', description: '' },
              { label: 'No', description: '' },
            ],
            multiSelect: false,
          },
        ],
      },
      a,
    );
    expect(added.status).toBe(201);
    await call('POST', `/__mock/conversations/${id}/busy`, { ms: 60_000 }, a);
    const detail = detailResponse.parse(
      (await call('GET', `/api/v1/conversations/${id}?${ORG}`, undefined, a)).body,
    );
    expect(detail).toMatchObject({ status: 'running', title: 'Fresh' });
    expect(detail.pendingQuestions).toHaveLength(1);
    // The default tenant has none of it.
    const mine = listResponse.parse((await call('GET', `/api/v1/conversations?${ORG}`)).body);
    expect(mine.conversations).toEqual([]);
    const tick = await call('POST', '/__mock/simulator/tick');
    expect(tick.status).toBe(201);
    const afterTick = listResponse.parse((await call('GET', `/api/v1/conversations?${ORG}`)).body);
    expect(afterTick.conversations).toHaveLength(1);
    expect(afterTick.conversations[0]?.pendingQuestionCount).toBe(1);
    await call('POST', '/__mock/reset', { seed: 'demo' });
    const reset = listResponse.parse((await call('GET', `/api/v1/conversations?${ORG}`)).body);
    expect(reset.nextCursor).not.toBeNull();
  });
});
