// The portal server's own routes (`portal-api/…`) as the static demo's Service Worker answers
// them: who is signed in, the audit trail and its CSV (server/audit/core.ts), presence and
// claims (server/team/core.ts) and the team's snippets (server/snippets/core.ts), with the trail,
// the claims and the snippets kept in this browser, and a
// simulated colleague (demo/colleague.ts). The visitor is named as `npm start` names a reviewer
// without REVIEWER_HEADER: by the "You are …" field, whose cookie the worker reads.
import { type Audit, createAuditCore } from '../server/audit/core';
import { memoryTrail } from '../server/audit/memory-trail';
import {
  BROWSER_REVIEWER_COOKIE,
  BROWSER_REVIEWER_HEADER,
  SECURE_REVIEWER_COOKIE,
} from '../server/identity/identity';
import { createInsightsApi } from '../server/insights/core';
import { memoryInsights } from '../server/insights/memory';
import { createSnippets } from '../server/snippets/core';
import { memorySnippets } from '../server/snippets/memory';
import { createTeamCore } from '../server/team/core';
import { memoryClaims } from '../server/team/memory-claims';
import type { Team } from '../server/team/types';
import type { DemoBackend } from './backends';
import {
  type Colleague,
  type ColleagueAction,
  colleagueActions,
  createColleague,
  type Subject,
  type Timers,
} from './colleague';
import { DEMO_SOURCES } from './config';
import { simulatedHistory } from './insights-history';

/** The cookie that keeps Sam to what he is told (the demo's e2e set it; see docs/mock.md). */
export const COLLEAGUE_COOKIE = 'qi_demo_colleague';
/** Where the trail, the claims and the snippets are kept (demo/persist.ts). */
export const TRAIL_KEY = 'portal-trail';
export const CLAIMS_KEY = 'portal-claims';
export const SNIPPETS_KEY = 'portal-snippets';
/** The newest entries the demo keeps (the oldest go first). */
const TRAIL_MAX_ENTRIES = 5000;

export interface DemoPortalOptions {
  backends: readonly DemoBackend[];
  /** A cookie of the page's (the visitor's name; Sam's switch); null when there is none. */
  cookie(name: string): Promise<string | null>;
  load(key: string): Promise<unknown>;
  save(key: string, value: unknown): Promise<void>;
  now?: () => number;
  random?: () => number;
  timers?: Timers;
  log?: (line: string) => void;
}

export interface DemoPortal {
  /** `innerPath` is `/portal-api/…`. */
  api(request: Request, innerPath: string): Promise<Response>;
  /**
   * A request to a mock (`request` has the mock's own path, `body` its body): passed to it, an
   * action on a question recorded on its way as the server records it.
   */
  forward(backend: DemoBackend, request: Request, body: ArrayBuffer | undefined): Promise<Response>;
  /** Resolves once everything changed so far is in IndexedDB. */
  saved(): Promise<void>;
  colleague: Colleague;
  team: Team;
}

function json(status: number, value: unknown): Response {
  return new Response(JSON.stringify(value), {
    status,
    headers: { 'content-type': 'application/json', 'cache-control': 'no-store' },
  });
}

/** The request with the visitor's name (the "You are …" cookie) as the server would read it. */
async function named(request: Request, cookie: DemoPortalOptions['cookie']): Promise<Request> {
  if (request.headers.has(BROWSER_REVIEWER_HEADER)) return request;
  // A worker sees no Cookie header: the name comes from the cookie store instead.
  const read = (name: string) => cookie(name).catch(() => null);
  // Over HTTPS the page keeps it as `__Host-qi_reviewer` (no other site can set that one).
  const name = (await read(SECURE_REVIEWER_COOKIE)) ?? (await read(BROWSER_REVIEWER_COOKIE));
  if (!name) return request;
  const headers = new Headers(request.headers);
  headers.set(BROWSER_REVIEWER_HEADER, name);
  const method = request.method.toUpperCase();
  const body = method === 'GET' || method === 'HEAD' ? undefined : await request.arrayBuffer();
  return new Request(request.url, { method, headers, body, signal: request.signal });
}

const list = (value: unknown) => (Array.isArray(value) ? (value as Record<string, unknown>[]) : []);

/** The three mocks' state (`__mock/state`), each null when its mock does not answer. */
async function mockStates(backends: readonly DemoBackend[]) {
  const state = async (name: string) => {
    const backend = backends.find((candidate) => candidate.name === name);
    if (!backend) return null;
    const response = await backend.fetch(new Request('http://demo/__mock/state'));
    return response.ok ? ((await response.json()) as Record<string, unknown>) : null;
  };
  const [reflexio, vertesia, bilby] = await Promise.all([
    state('reflexio'),
    state('vertesia'),
    state('bilby'),
  ]);
  return { reflexio, vertesia, bilby };
}

/** Characters of a question's text the demo's Activity page is given (as the watcher keeps). */
const ASKED_CHARS = 500;
/** Question texts the demo remembers (Bilby's leave the mock's state once answered). */
const ASKED_KEPT = 5000;

/**
 * What the demo's questions ask, by `<source>\u0001<the system's own id>`: the static demo has no
 * watcher, so its Activity page learns them from the mocks each time it is read.
 */
async function learnAsked(
  backends: readonly DemoBackend[],
  known: Map<string, string>,
): Promise<void> {
  const { reflexio, vertesia, bilby } = await mockStates(backends);
  const keep = (source: string, id: unknown, text: unknown) => {
    if (typeof id !== 'string' || typeof text !== 'string' || !text) return;
    const key = `${source}\u0001${id}`;
    known.delete(key);
    known.set(key, text.slice(0, ASKED_CHARS));
  };
  for (const call of list(reflexio?.calls)) {
    const args = call.args as Record<string, unknown> | undefined;
    keep('reflexio', call.id, call.question_text ?? args?.question);
  }
  for (const ask of list(vertesia?.asks)) {
    const questions: unknown[] = Array.isArray(ask.questions) ? ask.questions : [];
    keep('vertesia', ask.askId, questions.filter((q) => typeof q === 'string').join('\n'));
  }
  for (const conversation of list(bilby?.conversations)) {
    for (const pending of list(conversation.pendingQuestions)) {
      const words = list(pending.questions)
        .map((prompt) => prompt.question)
        .filter((question): question is string => typeof question === 'string');
      keep('bilby', `${conversation.id}:${pending.toolCallId}`, words.join('\n'));
    }
  }
  for (const key of known.keys()) {
    if (known.size <= ASKED_KEPT) break;
    known.delete(key);
  }
}

/** Pending questions of the three mocks, named as the portal names them (config.ts sources). */
async function pendingQuestions(backends: readonly DemoBackend[]): Promise<Subject[]> {
  const { reflexio, vertesia, bilby } = await mockStates(backends);
  return [
    // Reflexio's ids are the portal's own; the others are `<source>:<native id>`.
    ...list(reflexio?.calls)
      .filter((call) => call.status === 'pending' && typeof call.id === 'string')
      .map((call) => ({ source: 'reflexio', id: call.id as string })),
    ...list(vertesia?.asks)
      .filter((ask) => ask.status === 'pending' && typeof ask.askId === 'string')
      .map((ask) => ({ source: 'vertesia', id: `vertesia:${ask.askId}` })),
    ...list(bilby?.conversations).flatMap((conversation) =>
      list(conversation.pendingQuestions)
        .filter((pending) => typeof pending.toolCallId === 'string')
        .map((pending) => ({
          source: 'bilby',
          id: `bilby:${conversation.id}:${pending.toolCallId}`,
        })),
    ),
  ];
}

export async function createDemoPortal(options: DemoPortalOptions): Promise<DemoPortal> {
  const log = options.log ?? ((line: string) => console.warn(line));
  let saving: Promise<void> = Promise.resolve();
  const persist = (key: string, value: () => unknown) => {
    saving = saving
      .then(() => options.save(key, value()))
      .catch((error: unknown) => log(`[demo] could not save ${key}: ${String(error)}`));
  };
  const asked = new Map<string, string>();
  const trail = memoryTrail({
    askedOf: (sourceId, questionId) => asked.get(`${sourceId}\u0001${questionId}`) ?? null,
    maxEntries: TRAIL_MAX_ENTRIES,
    now: options.now,
    onChange: () => persist(TRAIL_KEY, () => trail.snapshot()),
  });
  const claims = memoryClaims({
    now: options.now,
    onChange: () => persist(CLAIMS_KEY, () => claims.snapshot()),
  });
  const restore = async (key: string, into: { restore(saved: unknown): boolean }) => {
    try {
      const saved = await options.load(key);
      if (saved !== undefined) into.restore(saved);
    } catch (error) {
      log(`[demo] could not read ${key}; starting afresh: ${String(error)}`);
    }
  };
  const snippetStore = memorySnippets({
    now: options.now,
    onChange: () => persist(SNIPPETS_KEY, () => snippetStore.snapshot()),
  });
  await Promise.all([
    restore(TRAIL_KEY, trail),
    restore(CLAIMS_KEY, claims),
    restore(SNIPPETS_KEY, snippetStore),
  ]);

  const identity = { header: null, nameHeader: null };
  const team = await createTeamCore({
    claims,
    trail,
    identity,
    systems: DEMO_SOURCES,
    now: options.now,
    log,
  });
  const audit: Audit = createAuditCore({
    trail,
    identity,
    answers: 'full',
    log,
    onAccepted: team.answered,
  });
  const snippets = createSnippets({
    store: snippetStore,
    trail,
    identity,
    systems: DEMO_SOURCES,
    answers: 'full',
    now: options.now,
    log,
  });
  // The Insights page over a few days of made-up activity (demo/insights-history.ts).
  const clock = options.now ?? Date.now;
  const insights = createInsightsApi({
    store: memoryInsights(() => simulatedHistory(clock()), clock),
    identity,
    perReviewer: true,
    log,
  });
  const colleague = createColleague({
    team,
    pending: () => pendingQuestions(options.backends),
    autonomous: async () => (await options.cookie(COLLEAGUE_COOKIE).catch(() => null)) !== 'driven',
    random: options.random,
    timers: options.timers,
  });

  const demoControl = async (request: Request, route: string): Promise<Response> => {
    if (request.method.toUpperCase() !== 'POST') return json(405, { detail: 'POST only.' });
    if (route === 'reset') {
      trail.clear();
      claims.clear();
      snippetStore.clear();
      await colleague.reset();
      await team.claimsChanged();
      return json(200, { reset: true });
    }
    if (route === 'colleague') {
      let body: Record<string, unknown>;
      try {
        body = (await request.json()) as Record<string, unknown>;
      } catch {
        return json(400, { detail: 'The body must be a JSON object.' });
      }
      const action = body?.action;
      if (!(colleagueActions as readonly unknown[]).includes(action)) {
        return json(400, { detail: `action: one of ${colleagueActions.join(', ')}.` });
      }
      const question = body.question as Record<string, unknown> | undefined;
      const subject =
        question && typeof question.source === 'string' && typeof question.id === 'string'
          ? { source: question.source, id: question.id }
          : undefined;
      if (question !== undefined && !subject) {
        return json(400, { detail: 'question: {source, id} of a question.' });
      }
      return colleague.act(action as ColleagueAction, subject);
    }
    return json(404, { detail: 'Not Found' });
  };

  return {
    async api(request, innerPath) {
      if (innerPath.startsWith('/portal-api/__demo/')) {
        return demoControl(request, innerPath.slice('/portal-api/__demo/'.length));
      }
      const reviewed = await named(request, options.cookie);
      if (innerPath.startsWith('/portal-api/activity')) {
        await learnAsked(options.backends, asked).catch((error: unknown) =>
          log(`[demo] could not read what the questions ask: ${String(error)}`),
        );
      }
      return (
        (await insights(reviewed, innerPath)) ??
        (await team.api(reviewed, innerPath)) ??
        (await snippets.api(reviewed, innerPath)) ??
        audit.api(reviewed, innerPath)
      );
    },
    async forward(backend, request, body) {
      // The trail's hook passes the request on without the visitor's name (and without its body,
      // which it has read already): the mock gets the body back here.
      const send = async (passed: Request) =>
        backend.fetch(
          new Request(passed.url, { method: passed.method, headers: passed.headers, body }),
        );
      return audit.around(
        {
          request: await named(request, options.cookie),
          body: body ? new Uint8Array(body) : null,
          source: demoSource(backend),
          targetPath: new URL(request.url).pathname,
        },
        send,
      );
    },
    saved: async () => {
      // A change may queue another save while one runs: wait until none is left.
      let last: Promise<void>;
      do {
        last = saving;
        await last;
      } while (last !== saving);
    },
    colleague,
    team,
  };
}

/** The portal source (id and kind) of a demo backend. */
export function demoSource(backend: DemoBackend): { id: string; kind: string } {
  const source = DEMO_SOURCES.find((candidate) => candidate.id === backend.name);
  return source ? { id: source.id, kind: source.kind } : { id: backend.name, kind: backend.name };
}
