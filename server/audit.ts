// The audit trail as the portal server keeps it: every action on a question that passes through
// the server is recorded here, by the server, with the reviewer the identity rules name. The
// attempt is written before the action is forwarded and its outcome after; an attempt that cannot
// be written stops the action (the reviewer's answer stays in their form), so an answer the
// upstream accepted is never missing from the trail.
import { createHash, randomUUID } from 'node:crypto';
import { Hono } from 'hono';
import { classifyAction } from './audit-actions';
import type { Db } from './db/engine';
import {
  type AnswerMode,
  type AuditEntry,
  type AuditFilter,
  auditActions,
  insertAttempts,
  insertOutcome,
  listEntries,
  pruneOlderThan,
} from './db/queries';
import {
  type IdentityConfig,
  missingIdentity,
  type Reviewer,
  readReviewer,
  withoutIdentity,
} from './identity';

export interface AuditOptions {
  db: Db;
  identity: IdentityConfig;
  /** AUDIT_ANSWERS: keep the answer sent, its SHA-256, or nothing (default full). */
  answers?: AnswerMode;
  log?: (line: string) => void;
  /** After a system accepted an action: its questions (the team's claims on them go). */
  onAccepted?: (sourceId: string, questionIds: string[]) => Promise<void>;
  /** Tests: an error thrown instead of writing the attempt. */
  failWrites?: () => Error | null;
}

/** One write on its way to a system, as the portal server's forward sees it. */
export interface ForwardCall {
  request: Request;
  body: Uint8Array | null;
  source: { id: string; kind: string };
  /** The path the system sees, e.g. `/api/pending_tool_calls/x/resolve`. */
  targetPath: string;
}

export type Send = (request: Request) => Promise<Response>;

/** The hook portal.ts runs every forward through (see PortalOptions.around). */
export type ForwardHook = (call: ForwardCall, send: Send) => Promise<Response>;

export const PAGE_LIMIT_DEFAULT = 50;
export const PAGE_LIMIT_MAX = 200;
const CSV_MAX_ROWS = 100_000;

function keptAnswer(answer: string | null, mode: AnswerMode): string | null {
  if (answer === null || mode === 'none') return null;
  if (mode === 'hash') return createHash('sha256').update(answer).digest('hex');
  return answer;
}

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

/** The upstream's own words on a refusal, short (its error body, never a success's). */
async function refusalDetail(response: Response): Promise<string | null> {
  if (response.status < 400) return null;
  try {
    const text = await response.clone().text();
    return text.slice(0, 500) || null;
  } catch {
    return null;
  }
}

export interface Audit {
  around: ForwardHook;
  /** `/portal-api/…` (the path under the portal's base): who am I, the trail, its CSV. */
  api: (request: Request, innerPath: string) => Promise<Response>;
}

export function createAudit(options: AuditOptions): Audit {
  const { db, identity } = options;
  const mode = options.answers ?? 'full';
  const log = options.log ?? ((line: string) => console.error(line));

  const around: ForwardHook = async (call, send) => {
    const request = withoutIdentity(call.request, identity);
    const isWrite = !['GET', 'HEAD', 'OPTIONS'].includes(call.request.method.toUpperCase());
    if (!isWrite || !call.targetPath.startsWith('/api/')) return send(request);
    const reviewer = readReviewer(call.request.headers, identity);
    if (!reviewer) return missingIdentity(identity);
    const actions = classifyAction(
      call.source.kind,
      call.request.method,
      call.targetPath,
      parseBody(call.body),
    );
    if (!actions) return send(request);

    const requestId = randomUUID();
    try {
      const failure = options.failWrites?.();
      if (failure) throw failure;
      await insertAttempts(
        db,
        actions.map((action) => ({
          requestId,
          reviewer: reviewer.id,
          reviewerName: reviewer.name,
          sourceId: call.source.id,
          sourceKind: call.source.kind,
          questionId: action.questionId,
          action: action.action,
          answer: keptAnswer(action.answer, mode),
          answerMode: mode,
        })),
      );
    } catch (error) {
      log(`[audit] could not record ${call.request.method} ${call.targetPath}: ${message(error)}`);
      return jsonResponse(503, {
        detail:
          'Not sent: the portal could not write its audit trail, so the action was not passed on. Your answer is still in the form; try again in a moment, or tell whoever runs the portal.',
      });
    }

    let response: Response;
    try {
      response = await send(request);
    } catch (error) {
      await recordOutcome(requestId, 0, message(error));
      throw error;
    }
    await recordOutcome(requestId, response.status, await refusalDetail(response));
    if (response.status < 400 && options.onAccepted) {
      await options.onAccepted(
        call.source.id,
        actions.map((action) => action.questionId),
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

  async function recordOutcome(requestId: string, status: number, detail: string | null) {
    // The attempt is already in the trail: a lost outcome leaves it "outcome unknown", never lost.
    for (let attempt = 0; attempt < 2; attempt++) {
      try {
        await insertOutcome(db, { requestId, status, detail });
        return;
      } catch (error) {
        if (attempt === 1)
          log(`[audit] could not record the outcome of ${requestId}: ${message(error)}`);
      }
    }
  }

  const app = new Hono();
  const signedIn = (request: Request): Reviewer | Response =>
    readReviewer(request.headers, identity) ?? missingIdentity(identity);

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
      const page = await listEntries(db, parsed.filter, parsed.page);
      return jsonResponse(200, page);
    } catch (error) {
      log(`[audit] could not read the trail: ${message(error)}`);
      return jsonResponse(503, {
        detail: 'The audit trail could not be read: its database is unavailable.',
      });
    }
  });

  app.get('/portal-api/activity.csv', async (c) => {
    const reviewer = signedIn(c.req.raw);
    if (reviewer instanceof Response) return reviewer;
    const parsed = parseQuery(new URL(c.req.url).searchParams);
    if ('error' in parsed) return jsonResponse(400, { detail: parsed.error });
    const lines = [CSV_COLUMNS.join(',')];
    let cursor: number | null = null;
    try {
      do {
        const page: { entries: AuditEntry[]; nextCursor: number | null } = await listEntries(
          db,
          parsed.filter,
          { cursor, limit: 1000 },
        );
        for (const entry of page.entries) lines.push(csvRow(entry));
        cursor = page.nextCursor;
      } while (cursor !== null && lines.length <= CSV_MAX_ROWS);
    } catch (error) {
      log(`[audit] could not read the trail: ${message(error)}`);
      return jsonResponse(503, {
        detail: 'The audit trail could not be read: its database is unavailable.',
      });
    }
    return new Response(`${lines.join('\r\n')}\r\n`, {
      headers: {
        'content-type': 'text/csv; charset=utf-8',
        'content-disposition': 'attachment; filename="activity.csv"',
        'cache-control': 'no-store',
      },
    });
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

function message(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).split('\n')[0] ?? 'unknown error';
}

export const CSV_COLUMNS = [
  'time',
  'reviewer',
  'reviewer_name',
  'source',
  'source_kind',
  'question_id',
  'action',
  'status',
  'request_id',
  'answer',
  'answer_kept_as',
] as const;

/** A CSV field: quoted when needed, and a leading = + - @ defused so a spreadsheet shows it as text. */
export function csvField(value: string | number | null): string {
  if (value === null) return '';
  let text = String(value);
  if (typeof value === 'string' && /^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

function csvRow(entry: AuditEntry): string {
  return [
    entry.at,
    entry.reviewer,
    entry.reviewerName,
    entry.sourceId,
    entry.sourceKind,
    entry.questionId,
    entry.action,
    entry.status,
    entry.requestId,
    entry.answer,
    entry.answerMode,
  ]
    .map(csvField)
    .join(',');
}

type Parsed =
  | { filter: AuditFilter; page: { cursor: number | null; limit: number } }
  | { error: string };

/** The read API's query: `question` (repeatable), `source`, `reviewer`, `action`, `from`, `to`, `q`, `cursor`, `limit`. */
export function parseQuery(params: URLSearchParams): Parsed {
  const filter: AuditFilter = {};
  const text = (name: string) => params.get(name)?.trim().slice(0, 500) || undefined;
  const questions = params
    .getAll('question')
    .map((q) => q.trim())
    .filter(Boolean);
  if (questions.length > 100) return { error: 'At most 100 question ids at once.' };
  if (questions.length) filter.questionIds = questions;
  filter.sourceId = text('source');
  filter.reviewer = text('reviewer');
  filter.search = text('q');
  const action = text('action');
  if (action && !(auditActions as readonly string[]).includes(action)) {
    return { error: `Unknown action "${action}": one of ${auditActions.join(', ')}.` };
  }
  filter.action = action;
  for (const name of ['from', 'to'] as const) {
    const value = text(name);
    if (value === undefined) continue;
    const time = Date.parse(value);
    if (Number.isNaN(time)) return { error: `${name} must be a date or time (ISO 8601).` };
    filter[name] = new Date(time).toISOString();
  }
  const limitText = text('limit');
  const limit = limitText === undefined ? PAGE_LIMIT_DEFAULT : Number(limitText);
  if (!Number.isSafeInteger(limit) || limit < 1 || limit > PAGE_LIMIT_MAX) {
    return { error: `limit must be a whole number from 1 to ${PAGE_LIMIT_MAX}.` };
  }
  const cursorText = text('cursor');
  const cursor = cursorText === undefined ? null : Number(cursorText);
  if (cursor !== null && (!Number.isSafeInteger(cursor) || cursor < 1)) {
    return { error: 'cursor is not one this server gave.' };
  }
  return { filter, page: { cursor, limit } };
}

/** Prunes entries past `days` now and once a day after; returns the stop function. */
export function scheduleRetention(
  db: Db,
  days: number,
  log: (line: string) => void = (line) => console.error(line),
): () => void {
  const prune = () =>
    pruneOlderThan(db, days).then(
      (removed) => {
        if (removed > 0) log(`[audit] removed ${removed} entries older than ${days} days`);
      },
      (error) => log(`[audit] retention could not prune: ${message(error)}`),
    );
  void prune();
  const timer = setInterval(prune, 86_400_000);
  timer.unref();
  return () => clearInterval(timer);
}
