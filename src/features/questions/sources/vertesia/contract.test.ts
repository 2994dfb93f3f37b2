import {
  ListPendingAsksResponseSchema,
  PendingAskDataSchema,
  PendingAskStatusSchema,
  ResolvePendingAskRequestSchema,
  ResolvePendingAskResponseSchema,
} from '@vertesia/common/api-schemas';
import type { QuestionOrigin } from '../../api/schemas';
import { questionPolicy } from '../../utils/question-policy';
import { createVertesiaSource } from '../system-sources';
import { mapAskList } from './map';
import { resolveAskRequest } from './requests';

/**
 * The Vertesia adapter against the zod schemas Vertesia itself publishes (`@vertesia/common`):
 * every record `PendingAskDataSchema` accepts is read (or, for an id the portal cannot use,
 * reported as unreadable, never thrown), and every body the adapter sends passes
 * `ResolvePendingAskRequestSchema`. The records come from a seeded generator, checked against the
 * published schema first, so a generator that drifts from it fails here rather than testing
 * nothing.
 */
type WireAsk = { [key: string]: unknown };

const NOW = Date.parse('2026-11-30T12:00:00.000Z');
const ORIGIN: QuestionOrigin = { id: 'vertesia', kind: 'vertesia', label: 'Vertesia' };
const ROOT = 'https://vertesia.test/api/v1';

function seeded(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
  const pick = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)] as T;
  return { next, pick, chance: (p: number) => next() < p };
}

const STRINGS = [
  '',
  ' ',
  'Ship it?',
  'x'.repeat(20_000),
  '日本語のテキスト',
  '🙂👨‍👩‍👧‍👦 e\u0301',
  '\u202Efdp.exe',
  'a\u0000b',
  '<script>alert(1)</script>',
  'line one\nline two\r\n\ttabbed',
  '.',
  '..',
  '/',
  'a/b?c#d',
  '%2e%2e%2f',
];
const NUMBERS = [0, -1, 1.5, NOW, NOW + 3_600_000, Number.MAX_SAFE_INTEGER, 1e308, -1e308, 5e-324];

function generateAsk(random: ReturnType<typeof seeded>, index: number): WireAsk {
  const { pick, chance, next } = random;
  const text = () => (chance(0.6) ? `${pick(STRINGS)} ${index}` : pick(STRINGS));
  const number = () => (chance(0.5) ? pick(NUMBERS) : Math.round(next() * 1e13) / 10);
  const questionCount = pick([0, 1, 1, 2, 3, 5, 200]);
  const channel = () => {
    if (chance(0.5)) return { type: 'interactive' };
    const email: WireAsk = { type: 'email', to_email: pick(STRINGS) };
    if (chance(0.5)) email.thread_subject = text();
    if (chance(0.5)) email.in_reply_to = text();
    if (chance(0.5)) email.references = Array.from({ length: pick([0, 1, 3]) }, text);
    if (chance(0.5)) email.route_key = text();
    return email;
  };
  const ask: WireAsk = {
    // Every edge string is an id once in the first 20 × STRINGS.length records ('' the first).
    askId:
      index % 20 === 0
        ? STRINGS[(index / 20) % STRINGS.length]
        : `ask-${index}-${pick(['', 'é', '..', '/x', ' ', '?#'])}`,
    runId: text(),
    workflowId: text(),
    projectId: text(),
    accountId: text(),
    agentName: text(),
    questions: Array.from({ length: questionCount }, text),
    timeoutHours: number(),
    userChannels: Array.from({ length: pick([0, 1, 2, 3]) }, channel),
    createdAt: number(),
    expiresAt: number(),
    status: pick(PendingAskStatusSchema.options),
  };
  if (chance(0.5)) ask.taskId = text();
  if (chance(0.5)) ask.resolvedAt = number();
  if (chance(0.5)) ask.response = text();
  return ask;
}

/** Many generated records, each one the published schema accepts, sent as JSON would send it. */
function publishedAsks(count: number, seed = 20_260_803): WireAsk[] {
  const random = seeded(seed);
  return Array.from({ length: count }, (_, index) => {
    const ask = generateAsk(random, index);
    const parsed = PendingAskDataSchema.safeParse(ask);
    expect(parsed.error?.issues ?? []).toEqual([]);
    return JSON.parse(JSON.stringify(ask)) as WireAsk;
  });
}

/** A stand-in Vertesia that serves `asks` and takes resolve bodies only if the published schema does. */
function publishedServer(asks: WireAsk[]) {
  const byId = new Map(asks.map((ask) => [ask.askId as string, ask]));
  const bodies: unknown[] = [];
  const reply = (body: unknown, status = 200) =>
    new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
  const fetchImpl: typeof fetch = async (input, init) => {
    const request = new Request(input, init);
    const path = decodeURIComponent(new URL(request.url).pathname.replace('/api/v1', ''));
    if (request.method === 'GET' && path === '/pending-asks') {
      return reply(ListPendingAsksResponseSchema.parse({ asks }));
    }
    const resolve = /^\/pending-asks\/(.*)\/resolve$/s.exec(path);
    if (request.method === 'POST' && resolve) {
      const body: unknown = JSON.parse(await request.text());
      bodies.push(body);
      if (!ResolvePendingAskRequestSchema.safeParse(body).success) {
        return reply(
          { error: 'Bad Request', status: 400, message: 'Request validation failed.' },
          400,
        );
      }
      const ask = byId.get(resolve[1] as string);
      if (!ask) return reply({ error: 'Not Found', status: 404, message: 'No ask.' }, 404);
      Object.assign(ask, {
        status: 'resolved',
        response: (body as { response: string }).response,
        resolvedAt: NOW,
      });
      return reply(ResolvePendingAskResponseSchema.parse({ success: true, webhookSent: false }));
    }
    const one = /^\/pending-asks\/(.*)$/s.exec(path);
    const ask = request.method === 'GET' && one ? byId.get(one[1] as string) : undefined;
    if (ask) return reply(PendingAskDataSchema.parse(ask));
    return reply({ error: 'Not Found', status: 404, message: 'No route.' }, 404);
  };
  return { fetchImpl, bodies };
}

const UNADDRESSABLE = ['', '.', '..'];

describe('Vertesia adapter against @vertesia/common’s published schemas', () => {
  it('the generator covers every field of PendingAskData, each optional one present and absent', () => {
    const asks = publishedAsks(20 * STRINGS.length);
    for (const [key, field] of Object.entries(PendingAskDataSchema.shape)) {
      expect(asks.some((ask) => key in ask)).toBe(true);
      if (field.safeParse(undefined).success) expect(asks.some((ask) => !(key in ask))).toBe(true);
    }
    for (const status of PendingAskStatusSchema.options) {
      expect(asks.some((ask) => ask.status === status)).toBe(true);
    }
    expect(asks.some((ask) => (ask.questions as string[]).length === 0)).toBe(true);
    for (const id of STRINGS) expect(asks.some((ask) => ask.askId === id)).toBe(true);
  });

  it('every published record maps to a Question, or (an empty askId) is reported, never thrown', () => {
    const asks = publishedAsks(200);
    const list = mapAskList('vertesia', asks);
    const empty = asks.flatMap((ask, index) => (ask.askId === '' ? [index] : []));
    expect(list.unreadable.map((record) => record.index)).toEqual(empty);
    expect(list.questions).toHaveLength(asks.length - empty.length);
    const readable = asks.filter((ask) => ask.askId !== '');
    list.questions.forEach((question, index) => {
      const ask = readable[index] as WireAsk;
      const questions = ask.questions as string[];
      expect(question).toMatchObject({
        nativeId: ask.askId,
        status: ask.status,
        text: questions.join('\n'),
        createdAt: ask.createdAt,
        expiresAt: ask.expiresAt,
        resolvedAt: ask.resolvedAt ?? null,
        answerText: ask.response ?? null,
        agent: ask.agentName || null,
      });
      expect(question.prompts.map((prompt) => prompt.text)).toEqual(questions);
    });
  });

  it('through the whole source: the list reads, and every Question has a policy', async () => {
    const asks = publishedAsks(100, 7);
    const source = createVertesiaSource(
      ORIGIN,
      { apiBaseUrl: ROOT },
      publishedServer(asks).fetchImpl,
    );
    const list = await source.list({ limit: 1000 }, undefined);
    expect(list.questions.length + list.unreadable.length).toBe(asks.length);
    for (const question of list.questions) {
      expect(() => questionPolicy(question, NOW)).not.toThrow();
    }
  });

  it('fields the published schema does not know yet are read past, not refused', () => {
    const [ask] = publishedAsks(1, 3);
    const list = mapAskList('vertesia', [{ ...ask, askId: 'later', priority: 'high', meta: {} }]);
    expect(list.unreadable).toEqual([]);
    expect(list.questions[0]?.nativeId).toBe('later');
  });

  it('every resolve body the adapter sends passes ResolvePendingAskRequestSchema', async () => {
    const asks = publishedAsks(80, 11).filter(
      (ask) =>
        !UNADDRESSABLE.includes(ask.askId as string) && (ask.questions as string[]).length > 0,
    );
    for (const ask of asks) ask.status = 'pending';
    const server = publishedServer(asks);
    const source = createVertesiaSource(ORIGIN, { apiBaseUrl: ROOT }, server.fetchImpl);
    const random = seeded(5);
    for (const ask of asks) {
      const prompts = (ask.questions as string[]).length;
      const custom = () => (random.chance(0.3) ? '' : `${random.pick(STRINGS)} answer`);
      const answers = Array.from({ length: prompts }, () => ({ selected: [], custom: custom() }));
      if (answers.every((answer) => answer.custom.trim() === ''))
        answers[0] = { selected: [], custom: 'yes' };
      const resolved = await source
        .resolve(ask.askId as string, { result: { answer: 'unused' }, answers })
        .catch((error: unknown) => {
          throw new Error(`ask ${JSON.stringify(ask.askId)}: ${String(error)}`);
        });
      expect(resolved.status).toBe('resolved');
    }
    expect(server.bodies).toHaveLength(asks.length);
    for (const body of server.bodies) {
      expect(ResolvePendingAskRequestSchema.safeParse(body).error?.issues ?? []).toEqual([]);
    }
    // The request builder itself, for any string the reviewer may type.
    for (const text of STRINGS) {
      const request = resolveAskRequest({ apiBaseUrl: ROOT }, 'a', text);
      expect(ResolvePendingAskRequestSchema.safeParse(request.body).success).toBe(true);
    }
  });

  it('an ask whose id is a dot step is read, but never addressed by a request', async () => {
    const [first, second] = publishedAsks(2, 13) as [WireAsk, WireAsk];
    const asks = [
      { ...first, askId: '..', status: 'pending', questions: ['Ship it?'] },
      { ...second, askId: '.', status: 'pending', questions: ['Ship it?'] },
    ];
    for (const ask of asks) expect(PendingAskDataSchema.safeParse(ask).success).toBe(true);
    const server = publishedServer(asks);
    const requests: string[] = [];
    const fetchImpl: typeof fetch = (input, init) => {
      requests.push(new Request(input, init).url);
      return server.fetchImpl(input, init);
    };
    const source = createVertesiaSource(ORIGIN, { apiBaseUrl: ROOT }, fetchImpl);
    const list = await source.list({ limit: 1000 }, undefined);
    expect(list.questions.map((question) => question.id)).toEqual(['..', '.']);
    requests.length = 0;
    for (const id of ['..', '.']) {
      await expect(source.get(id, undefined)).rejects.toMatchObject({ kind: 'validation' });
      await expect(
        source.resolve(id, {
          result: { answer: 'yes' },
          answers: [{ selected: [], custom: 'yes' }],
        }),
      ).rejects.toMatchObject({ kind: 'validation' });
    }
    expect(requests).toEqual([]);
    expect(server.bodies).toEqual([]);
  });
});
