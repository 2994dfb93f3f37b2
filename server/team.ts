// Who is on it: presence (who has a question open, who is typing) and claims (who holds one).
// Presence lives in memory with a time-to-live and, with PostgreSQL, travels between replicas by
// LISTEN/NOTIFY; claims live in the database. Browsers get both over one Server-Sent Events
// stream (`portal-api/team/events`), as a whole snapshot each time something changes.
import { randomUUID } from 'node:crypto';
import { readBodyWithin } from './body-limit';
import type { Db } from './db/engine';
import {
  type Claim,
  dropClaims,
  insertAttempts,
  insertOutcome,
  listClaims,
  pruneClaims,
  takeClaim,
} from './db/queries';
import { type IdentityConfig, missingIdentity, type Reviewer, readReviewer } from './identity';

export interface TeamConfig {
  /** CLAIM_MINUTES: how long a claim holds (default 15; a fraction for tests). */
  claimMinutes: number;
  /** MAX_CLAIMS: claims one reviewer may hold at once (default 50). */
  maxClaims: number;
  /** PRESENCE_TTL_SECONDS: a viewer without a heartbeat for this long is gone (default 25). */
  presenceTtlSeconds: number;
}

export const DEFAULT_TEAM_CONFIG: TeamConfig = {
  claimMinutes: 15,
  maxClaims: 50,
  presenceTtlSeconds: 25,
};

/** A channel between replicas (PostgreSQL LISTEN/NOTIFY); absent with the embedded database. */
export interface TeamBus {
  publish(message: string): Promise<void>;
  subscribe(onMessage: (message: string) => void): Promise<() => Promise<void>>;
}

export interface TeamOptions {
  db: Db;
  identity: IdentityConfig;
  config?: Partial<TeamConfig>;
  bus?: TeamBus | null;
  log?: (line: string) => void;
  /** Tests: the clock presence is kept by. */
  now?: () => number;
}

/** One reviewer on one question, as every browser sees it. */
export interface Viewer {
  sourceId: string;
  questionId: string;
  reviewer: string;
  reviewerName: string | null;
  typing: boolean;
}

export interface TeamSnapshot {
  viewers: Viewer[];
  claims: Claim[];
  /** The server's clock, so a browser with a skewed one still counts claims down right. */
  serverTime: string;
}

interface Seen {
  reviewer: string;
  reviewerName: string | null;
  sourceId: string;
  questionId: string;
  typingUntil: number;
  expiresAt: number;
  /** The replica that heard it (this one, or another through the bus). */
  replica: string;
}

/** The PostgreSQL NOTIFY channel replicas share presence and claim changes on. */
export const TEAM_CHANNEL = 'qi_team';
const TYPING_MS = 5000;
const BODY_MAX = 2048;
const ID_MAX = 300;
const STREAMS_PER_REVIEWER = 20;
const HEARTBEAT_MS = 15_000;
/** Requests per reviewer per minute, per kind. */
const RATE = { presence: 120, claims: 120 };

function json(status: number, value: unknown): Response {
  return new Response(JSON.stringify(value), {
    status,
    headers: { 'content-type': 'application/json', 'cache-control': 'no-store' },
  });
}

function text(value: unknown, max = ID_MAX): string | null {
  return typeof value === 'string' && value.trim() && value.length <= max ? value.trim() : null;
}

export interface Team {
  /** `/portal-api/team/…`, or null when the path is not the team's. */
  api(request: Request, innerPath: string): Promise<Response | null>;
  /** A question was answered through the portal: its claims go. */
  answered(sourceId: string, questionIds: string[]): Promise<void>;
  close(): Promise<void>;
}

export async function createTeam(options: TeamOptions): Promise<Team> {
  const { db, identity } = options;
  const config = { ...DEFAULT_TEAM_CONFIG, ...options.config };
  const now = options.now ?? Date.now;
  const log = options.log ?? ((line: string) => console.error(line));
  const replica = randomUUID();
  /** `<tab>` → what that tab has open (tabs of one reviewer are counted once when shown). */
  const seen = new Map<string, Seen>();
  const streams = new Set<{
    reviewer: string;
    send: (data: string) => void;
    end: () => void;
  }>();
  const counters = new Map<string, { windowStart: number; count: number }>();
  let claims: Claim[] = await listClaims(db).catch(() => []);

  const limited = (kind: keyof typeof RATE, reviewer: string): boolean => {
    const key = `${kind}\n${reviewer}`;
    const at = now();
    const counter = counters.get(key);
    if (!counter || at - counter.windowStart >= 60_000) {
      counters.set(key, { windowStart: at, count: 1 });
      return false;
    }
    counter.count += 1;
    return counter.count > RATE[kind];
  };

  const snapshot = (): TeamSnapshot => {
    const at = now();
    const byKey = new Map<string, Viewer>();
    for (const entry of seen.values()) {
      if (entry.expiresAt <= at) continue;
      const key = `${entry.sourceId}\n${entry.questionId}\n${entry.reviewer}`;
      const typing = entry.typingUntil > at;
      const known = byKey.get(key);
      if (known) known.typing ||= typing;
      else
        byKey.set(key, {
          sourceId: entry.sourceId,
          questionId: entry.questionId,
          reviewer: entry.reviewer,
          reviewerName: entry.reviewerName,
          typing,
        });
    }
    return {
      viewers: [...byKey.values()],
      claims: claims.filter((claim) => Date.parse(claim.expiresAt) > at),
      serverTime: new Date(at).toISOString(),
    };
  };

  let lastSent = '';
  let pending: ReturnType<typeof setTimeout> | null = null;
  const broadcast = () => {
    if (pending) return;
    // Changes within 100 ms go out as one message.
    pending = setTimeout(() => {
      pending = null;
      const { serverTime: _, ...state } = snapshot();
      const key = JSON.stringify(state);
      if (key === lastSent) return;
      lastSent = key;
      const data = JSON.stringify(snapshot());
      for (const stream of streams) stream.send(data);
    }, 100);
  };

  const reloadClaims = async () => {
    try {
      claims = await listClaims(db);
      broadcast();
    } catch (error) {
      log(`[team] could not read claims: ${error instanceof Error ? error.message : error}`);
    }
  };

  // Expired presence and claims leave on their own: swept every second.
  const sweep = setInterval(() => {
    const at = now();
    for (const [tab, entry] of seen) if (entry.expiresAt <= at) seen.delete(tab);
    broadcast();
  }, 1000);
  sweep.unref();
  const prune = setInterval(() => {
    void pruneClaims(db).catch(() => {});
  }, 60_000);
  prune.unref();

  const bus = options.bus ?? null;
  const publish = (message: object) => {
    if (!bus) return;
    bus.publish(JSON.stringify({ ...message, replica })).catch((error: unknown) => {
      log(
        `[team] could not tell other replicas: ${error instanceof Error ? error.message : error}`,
      );
    });
  };
  const unsubscribe = bus
    ? await bus.subscribe((message) => {
        let parsed: { replica?: string; kind?: string; tab?: string; entry?: Seen | null };
        try {
          parsed = JSON.parse(message);
        } catch {
          return;
        }
        if (parsed.replica === replica) return;
        if (parsed.kind === 'claims') void reloadClaims();
        if (parsed.kind === 'presence' && typeof parsed.tab === 'string') {
          const tab = `${parsed.replica}:${parsed.tab}`;
          if (parsed.entry) {
            // The other replica's clock may differ: its entry lives for the TTL from now here.
            seen.set(tab, {
              ...parsed.entry,
              typingUntil: parsed.entry.typingUntil > 0 ? now() + TYPING_MS : 0,
              expiresAt: now() + config.presenceTtlSeconds * 1000,
            });
          } else seen.delete(tab);
          broadcast();
        }
      })
    : null;

  const audit = async (reviewer: Reviewer, changed: Claim[], action: 'claim' | 'release') => {
    if (changed.length === 0) return;
    const requestId = randomUUID();
    try {
      await insertAttempts(
        db,
        changed.map((claim) => ({
          requestId,
          reviewer: reviewer.id,
          reviewerName: reviewer.name,
          sourceId: claim.sourceId,
          sourceKind: claim.sourceId,
          questionId: claim.questionId,
          action,
          answer: null,
          answerMode: 'none' as const,
        })),
      );
      await insertOutcome(db, { requestId, status: 200, detail: null });
    } catch (error) {
      log(`[team] could not record a ${action}: ${error instanceof Error ? error.message : error}`);
    }
  };

  const claimsChanged = async () => {
    await reloadClaims();
    publish({ kind: 'claims' });
  };

  const readJson = async (request: Request): Promise<Record<string, unknown> | Response> => {
    const read = await readBodyWithin(request, BODY_MAX);
    if (!read.ok) return read.response;
    try {
      const value: unknown = JSON.parse(new TextDecoder().decode(read.body ?? new Uint8Array()));
      if (typeof value === 'object' && value !== null && !Array.isArray(value))
        return value as Record<string, unknown>;
    } catch {}
    return json(400, { detail: 'The body must be a JSON object.' });
  };

  const questionsOf = (body: Record<string, unknown>) => {
    const list = Array.isArray(body.questions) ? body.questions : [];
    if (list.length === 0 || list.length > 100) return null;
    const out: { sourceId: string; questionId: string }[] = [];
    for (const item of list) {
      const record =
        typeof item === 'object' && item !== null ? (item as Record<string, unknown>) : {};
      const sourceId = text(record.source, 64);
      const questionId = text(record.id);
      if (!sourceId || !questionId) return null;
      out.push({ sourceId, questionId });
    }
    return out;
  };

  const events = (request: Request, reviewer: Reviewer): Response => {
    if ([...streams].filter((s) => s.reviewer === reviewer.id).length >= STREAMS_PER_REVIEWER) {
      return json(429, { detail: 'Too many open event streams for this reviewer.' });
    }
    const encoder = new TextEncoder();
    let entry: { reviewer: string; send: (data: string) => void; end: () => void } | null = null;
    let heartbeat: ReturnType<typeof setInterval> | null = null;
    const stop = () => {
      if (entry) streams.delete(entry);
      if (heartbeat) clearInterval(heartbeat);
      entry = null;
    };
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        const write = (chunk: string) => {
          try {
            controller.enqueue(encoder.encode(chunk));
          } catch {
            stop();
          }
        };
        const end = () => {
          stop();
          try {
            controller.close();
          } catch {}
        };
        entry = {
          reviewer: reviewer.id,
          send: (data) => write(`event: team\ndata: ${data}\n\n`),
          end,
        };
        streams.add(entry);
        write(`retry: 3000\nevent: team\ndata: ${JSON.stringify(snapshot())}\n\n`);
        heartbeat = setInterval(() => write(': keep-alive\n\n'), HEARTBEAT_MS);
        request.signal.addEventListener('abort', end);
      },
      cancel: stop,
    });
    return new Response(body, {
      headers: {
        'content-type': 'text/event-stream; charset=utf-8',
        'cache-control': 'no-store',
        'x-accel-buffering': 'no',
      },
    });
  };

  const api = async (request: Request, innerPath: string): Promise<Response | null> => {
    if (!innerPath.startsWith('/portal-api/team/')) return null;
    const route = innerPath.slice('/portal-api/team/'.length);
    const method = request.method.toUpperCase();
    const reviewer = readReviewer(request.headers, identity);
    if (!reviewer) return missingIdentity(identity);

    if (route === 'events' && method === 'GET') return events(request, reviewer);
    if (route === 'state' && method === 'GET') return json(200, snapshot());

    if (route === 'presence' && method === 'POST') {
      if (limited('presence', reviewer.id)) {
        return json(429, { detail: 'Too many presence messages: at most one every 10 seconds.' });
      }
      const body = await readJson(request);
      if (body instanceof Response) return body;
      const tab = text(body.tab, 64);
      if (!tab) return json(400, { detail: 'tab: a short id of the browser tab.' });
      const key = `${replica}:${reviewer.id}:${tab}`;
      if (body.question === null) {
        // `left`: the question this tab closed; a later heartbeat for another one stays.
        const left =
          typeof body.left === 'object' && body.left !== null
            ? (body.left as Record<string, unknown>)
            : null;
        const current = seen.get(key);
        if (
          left &&
          current &&
          (current.sourceId !== text(left.source, 64) || current.questionId !== text(left.id))
        ) {
          return json(200, { ok: true });
        }
        seen.delete(key);
        publish({ kind: 'presence', tab: `${reviewer.id}:${tab}`, entry: null });
        broadcast();
        return json(200, { ok: true });
      }
      const question =
        typeof body.question === 'object' && body.question !== null
          ? (body.question as Record<string, unknown>)
          : {};
      const sourceId = text(question.source, 64);
      const questionId = text(question.id);
      if (!sourceId || !questionId) {
        return json(400, { detail: 'question: {source, id} of the open question, or null.' });
      }
      const at = now();
      const entry: Seen = {
        reviewer: reviewer.id,
        reviewerName: reviewer.name,
        sourceId,
        questionId,
        typingUntil: body.typing === true ? at + TYPING_MS : 0,
        expiresAt: at + config.presenceTtlSeconds * 1000,
        replica,
      };
      seen.set(key, entry);
      publish({ kind: 'presence', tab: `${reviewer.id}:${tab}`, entry });
      broadcast();
      return json(200, { ok: true, ttlSeconds: config.presenceTtlSeconds });
    }

    if ((route === 'claim' || route === 'release') && method === 'POST') {
      if (limited('claims', reviewer.id)) {
        return json(429, { detail: 'Too many claims at once: wait a minute.' });
      }
      const body = await readJson(request);
      if (body instanceof Response) return body;
      const questions = questionsOf(body);
      if (!questions) {
        return json(400, { detail: 'questions: 1 to 100 of {source, id}.' });
      }
      try {
        if (route === 'release') {
          const released: Claim[] = [];
          for (const { sourceId, questionId } of questions) {
            released.push(...(await dropClaims(db, sourceId, [questionId], reviewer.id)));
          }
          await audit(reviewer, released, 'release');
          await claimsChanged();
          return json(200, { released });
        }
        const claimed: Claim[] = [];
        const refused: { sourceId: string; questionId: string; detail: string; holder?: Claim }[] =
          [];
        for (const { sourceId, questionId } of questions) {
          const result = await takeClaim(
            db,
            { sourceId, questionId, reviewer: reviewer.id, reviewerName: reviewer.name },
            config.claimMinutes,
            config.maxClaims,
          );
          if (result.ok) claimed.push(result.claim);
          else if (result.reason === 'held')
            refused.push({
              sourceId,
              questionId,
              holder: result.holder,
              detail: `${result.holder.reviewer} has claimed this question.`,
            });
          else
            refused.push({
              sourceId,
              questionId,
              detail: `You already hold ${config.maxClaims} claims, the most one reviewer may: release some first.`,
            });
        }
        await audit(reviewer, claimed, 'claim');
        await claimsChanged();
        return json(claimed.length === 0 && refused.length > 0 ? 409 : 200, {
          claimed,
          refused,
        });
      } catch (error) {
        log(`[team] could not ${route}: ${error instanceof Error ? error.message : error}`);
        return json(503, { detail: 'Claims are unavailable: the database could not be reached.' });
      }
    }
    return json(404, { detail: 'Not Found' });
  };

  return {
    api,
    async answered(sourceId, questionIds) {
      try {
        const dropped = await dropClaims(db, sourceId, questionIds, null);
        if (dropped.length > 0) await claimsChanged();
      } catch (error) {
        log(
          `[team] could not release answered claims: ${error instanceof Error ? error.message : error}`,
        );
      }
    },
    async close() {
      clearInterval(sweep);
      clearInterval(prune);
      if (pending) clearTimeout(pending);
      // Open streams would hold a graceful shutdown until its deadline: they end now (browsers
      // reconnect to another replica, or to this one when it is back).
      for (const stream of [...streams]) stream.end();
      await unsubscribe?.();
    },
  };
}
