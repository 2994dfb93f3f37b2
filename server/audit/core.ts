// The audit trail without its database: which write is which action (audit-actions.ts), what is
// kept of an answer (audit-answer.ts), the attempt written before a forward and its outcome after,
// and the read API (`me`, `activity` by cursor, its CSV). No Node built-ins: the portal server runs
// it over PostgreSQL (server/audit/sql.ts), the static demo's Service Worker over a trail kept in the
// browser (memoryTrail below; demo/portal.ts).
import { Hono } from 'hono';
import type { ForwardCall, ForwardHook } from '../http/forward-hook';
import {
  type IdentityConfig,
  identify,
  type Reviewer,
  withoutIdentity,
} from '../identity/identity';
import { message } from '../lib/message';
import { classifyAction, MAX_QUESTION_ID_LENGTH } from './actions';
import { type AnswerMode, DEFAULT_ANSWER_MAX_BYTES, keepAnswer, keptRefusal } from './answer';
import { csvStream } from './csv';
import { DEFAULT_WRITES_PER_MINUTE, ReadsBusy, readGate, writeRate } from './limits';
import { parseQuery } from './query';
import { type AuditAttempt, type AuditFilter, type AuditPage, NUL, type TrailStore } from './types';

export interface AuditCoreOptions {
  trail: TrailStore;
  identity: IdentityConfig;
  /** AUDIT_ANSWERS: keep the answer sent, its HMAC, or nothing (default full). */
  answers?: AnswerMode;
  /** AUDIT_ANSWER_MAX_BYTES: how much of an answer `full` keeps (default 4096). */
  answerMaxBytes?: number;
  /** The HMAC key of `hash` (the server keeps one per deployment in its database). */
  hashKey?: () => Promise<Uint8Array<ArrayBuffer>>;
  /** AUDIT_WRITES_PER_MINUTE: entries one reviewer may add a minute (default 600). */
  writesPerMinute?: number;
  log?: (line: string) => void;
  /** After a system accepted an action: its questions (the team's claims on them go). */
  onAccepted?: (sourceId: string, questionIds: string[], reviewer: string) => Promise<void>;
  /** Tests: an error thrown instead of writing the attempt. */
  failWrites?: () => Error | null;
  now?: () => number;
  /** Resolves on the event loop's next task: reads of the trail let other work in between. */
  nextTask?: () => Promise<void>;
}

export interface Audit {
  around: ForwardHook;
  /** `/portal-api/…` (the path under the portal's base): who am I, the trail, its CSV. */
  api: (request: Request, innerPath: string) => Promise<Response>;
}

const CSV_PAGE = 500;
/** A Bilby batch is one write of several answers; more than this in one is no reviewer's. */
const MAX_ACTIONS_PER_WRITE = 500;

function parseBody(body: Uint8Array | null): unknown {
  if (!body || body.byteLength === 0) return null;
  try {
    return JSON.parse(new TextDecoder().decode(body));
  } catch {
    return null;
  }
}

function jsonResponse(status: number, value: unknown, headers?: Record<string, string>) {
  return new Response(JSON.stringify(value), {
    status,
    headers: { 'content-type': 'application/json', 'cache-control': 'no-store', ...headers },
  });
}

/** The upstream's own words on a refusal (its error body, never a success's). */
async function refusalBody(response: Response): Promise<string | null> {
  if (response.status < 400) return null;
  try {
    // Only the start is kept: a huge error body is not read whole.
    const reader = response.clone().body?.getReader();
    if (!reader) return null;
    const { value } = await reader.read();
    // Not awaited: a branch of a tee'd body settles its cancel only once the other one goes too.
    reader.cancel().catch(() => {});
    return value ? new TextDecoder().decode(value.subarray(0, 2048)) : null;
  } catch {
    return null;
  }
}

/** Said in an entry's detail when the reviewer's browser went before the system answered. */
export const CLIENT_LEFT = 'client left before the answer';

/** Why the attempts cannot be kept as they are (a 400 names it), or null. */
function unstorable(attempts: AuditAttempt[]): string | null {
  for (const attempt of attempts) {
    if (attempt.questionId.length > MAX_QUESTION_ID_LENGTH) {
      return `Not sent: a question id longer than ${MAX_QUESTION_ID_LENGTH} characters is not one the systems give.`;
    }
    if (attempt.questionId.includes(NUL)) return 'Not sent: the question id holds a NUL character.';
    if (attempt.answer?.includes(NUL)) {
      return 'Not sent: the answer holds a NUL character (U+0000), which the audit trail cannot keep. Remove it and send again.';
    }
    if (attempt.reviewer.includes(NUL) || attempt.reviewerName?.includes(NUL)) {
      return "Not sent: the reviewer's name holds a NUL character; name yourself again and send.";
    }
  }
  return null;
}

export function createAuditCore(options: AuditCoreOptions): Audit {
  const { trail, identity } = options;
  const mode = options.answers ?? 'full';
  const maxBytes = options.answerMaxBytes ?? DEFAULT_ANSWER_MAX_BYTES;
  const log = options.log ?? ((line: string) => console.error(line));
  const rate = writeRate(options.writesPerMinute ?? DEFAULT_WRITES_PER_MINUTE, options.now);
  const read = readGate({ running: 2, waiting: 6, nextTask: options.nextTask });

  const refuse = (call: ForwardCall, status: number, detail: string, headers = {}) => {
    log(`[audit] refused ${call.request.method} ${call.targetPath}: ${status}`);
    return jsonResponse(status, { detail }, headers);
  };

  const around: ForwardHook = async (call, send) => {
    const request = withoutIdentity(call.request, identity);
    const isWrite = !['GET', 'HEAD', 'OPTIONS'].includes(call.request.method.toUpperCase());
    const underApi = call.targetPath === '/api' || call.targetPath.startsWith('/api/');
    if (!isWrite) return send(request);
    // Every write needs the reviewer, the mock's control routes (`/__mock/…`) included.
    const reviewer = identify(call.request.headers, identity);
    if (reviewer instanceof Response) return reviewer;
    if (!underApi) return send(request);
    const classified = classifyAction(
      call.source.kind,
      call.request.method,
      call.targetPath,
      parseBody(call.body),
    );
    if ('refused' in classified) return refuse(call, 400, classified.refused);
    const { actions } = classified;
    if (actions.length > MAX_ACTIONS_PER_WRITE) {
      return refuse(call, 400, `Not sent: at most ${MAX_ACTIONS_PER_WRITE} answers in one send.`);
    }

    const requestId = globalThis.crypto.randomUUID();
    let attempts: AuditAttempt[];
    try {
      const hashKey = mode === 'hash' && options.hashKey ? await options.hashKey() : null;
      attempts = await Promise.all(
        actions.map(async (action) => ({
          requestId,
          reviewer: reviewer.id,
          reviewerName: reviewer.name,
          selfNamed: reviewer.from === 'browser',
          sourceId: call.source.id,
          sourceKind: call.source.kind,
          questionId: action.questionId,
          action: action.action,
          ...(await keepAnswer(action.answer, mode, { maxBytes, hashKey })),
        })),
      );
    } catch (error) {
      return notRecorded(call, error);
    }
    const problem = unstorable(attempts);
    if (problem) return refuse(call, 400, problem);
    const wait = rate(reviewer.id, attempts.length);
    if (wait > 0) {
      return refuse(
        call,
        429,
        `Not sent: more actions than the portal records for one reviewer in a minute. Your answer is still in the form; send it again in ${wait} seconds.`,
        { 'retry-after': String(wait) },
      );
    }
    try {
      const failure = options.failWrites?.();
      if (failure) throw failure;
      await trail.insertAttempts(attempts);
    } catch (error) {
      return notRecorded(call, error);
    }

    let response: Response;
    try {
      response = await send(request);
    } catch (error) {
      await recordOutcome(requestId, 0, message(error));
      throw error;
    }
    const refusal = keptRefusal(response.status, await refusalBody(response), mode);
    // The reviewer's browser went while the system was answering: what the system did is recorded
    // all the same, and says so (their History shows it once they are back).
    const left = call.request.signal.aborted;
    await recordOutcome(
      requestId,
      response.status,
      left ? `${CLIENT_LEFT}${refusal ? `; ${refusal}` : ''}` : refusal,
    );
    if (response.status < 400 && options.onAccepted) {
      await options.onAccepted(
        call.source.id,
        actions.map((action) => action.questionId),
        reviewer.id,
      );
    }
    const headers = new Headers(response.headers);
    headers.set('x-audit-request-id', requestId);
    return new Response(response.body, {
      status: response.status,
      statusText: response.statusText,
      headers,
    });
  };

  function notRecorded(call: ForwardCall, error: unknown) {
    log(`[audit] could not record ${call.request.method} ${call.targetPath}: ${message(error)}`);
    return jsonResponse(503, {
      detail:
        'Not sent: the portal could not write its audit trail, so the action was not passed on. Your answer is still in the form; try again in a moment, or tell whoever runs the portal.',
    });
  }

  async function recordOutcome(requestId: string, status: number, detail: string | null) {
    // The attempt is already in the trail: a lost outcome leaves it "outcome unknown", never lost.
    for (let attempt = 0; attempt < 2; attempt++) {
      try {
        await trail.insertOutcome({ requestId, status, detail });
        return;
      } catch (error) {
        if (attempt === 1)
          log(`[audit] could not record the outcome of ${requestId}: ${message(error)}`);
      }
    }
  }

  const app = new Hono();
  const signedIn = (request: Request): Reviewer | Response => identify(request.headers, identity);
  const unreadable = (error: unknown) => {
    if (error instanceof ReadsBusy) {
      return jsonResponse(
        503,
        { detail: 'The audit trail is busy answering other searches: try again in a few seconds.' },
        { 'retry-after': '2' },
      );
    }
    log(`[audit] could not read the trail: ${message(error)}`);
    return jsonResponse(503, {
      detail: /statement timeout/i.test(message(error))
        ? 'The search took too long: narrow it (a reviewer, an action or a time range) and try again.'
        : 'The audit trail could not be read: its database is unavailable.',
    });
  };
  const listed = (filter: AuditFilter, page: { cursor: number | null; limit: number }) =>
    read(() => trail.listEntries(filter, page));

  app.get('/portal-api/me', (c) => {
    const reviewer = signedIn(c.req.raw);
    if (reviewer instanceof Response) return reviewer;
    return jsonResponse(200, { reviewer, identity: identity.header ? 'sso' : 'browser' });
  });

  app.get('/portal-api/activity', async (c) => {
    const reviewer = signedIn(c.req.raw);
    if (reviewer instanceof Response) return reviewer;
    const parsed = parseQuery(new URL(c.req.url).searchParams);
    if ('error' in parsed) return jsonResponse(400, { detail: parsed.error });
    try {
      return jsonResponse(200, await listed(parsed.filter, parsed.page));
    } catch (error) {
      return unreadable(error);
    }
  });

  app.get('/portal-api/activity.csv', async (c) => {
    const reviewer = signedIn(c.req.raw);
    if (reviewer instanceof Response) return reviewer;
    const parsed = parseQuery(new URL(c.req.url).searchParams);
    if ('error' in parsed) return jsonResponse(400, { detail: parsed.error });
    let first: AuditPage;
    try {
      first = await listed(parsed.filter, { cursor: null, limit: CSV_PAGE });
    } catch (error) {
      return unreadable(error);
    }
    return new Response(
      csvStream(first, (cursor) => listed(parsed.filter, cursor), log),
      {
        headers: {
          'content-type': 'text/csv; charset=utf-8',
          'content-disposition': 'attachment; filename="activity.csv"',
          'cache-control': 'no-store',
        },
      },
    );
  });

  app.all('*', () => jsonResponse(404, { detail: 'Not Found' }));

  return {
    around,
    api: async (request, innerPath) => {
      const url = new URL(request.url);
      url.pathname = innerPath;
      return app.fetch(new Request(url, { method: request.method, headers: request.headers }));
    },
  };
}
