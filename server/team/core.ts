// Who is on it: presence (who has a question open, who is typing) and claims (who holds one).
// Presence lives in memory with a time-to-live and, with a bus (PostgreSQL LISTEN/NOTIFY), travels
// between replicas; claims live in a ClaimStore. Browsers get both over one Server-Sent Events
// stream (`portal-api/team/events`), as a whole snapshot each time something changes. No Node
// built-ins: the portal server keeps claims in its database (server/team/sql.ts), the static demo's
// Service Worker in the browser (memoryClaims below; demo/portal.ts).
import { readBodyWithin } from '../http/body-limit';
import { identify, type Reviewer } from '../identity/identity';
import { openTeamLink } from './link';
import { asRecord, ID_MAX, json, type Ref, text } from './requests';
import { createStreamHub } from './streams';
import {
  type Acted,
  type Claim,
  DEFAULT_TEAM_CONFIG,
  type Team,
  type TeamCoreOptions,
  type TeamSnapshot,
  type Viewer,
} from './types';

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

const TYPING_MS = 5000;
/** A presence message: one entry per tab of the browser, up to PRESENCE_TABS_MAX. */
const PRESENCE_BODY_MAX = 16 * 1024;
const PRESENCE_TABS_MAX = 16;
/** A claim or release: up to 100 questions of {source ≤ 64, id ≤ 300, kind ≤ 16}. */
const CLAIMS_BODY_MAX = 48 * 1024;
const ACTED_KEEP_MS = 60_000;
const ACTED_MAX = 100;
/** Requests per reviewer per minute, per kind. */
const RATE = { presence: 120, claims: 120 };
/** Tabs one reviewer is shown with at once; a further tab's word replaces their oldest. */
const TABS_PER_REVIEWER = 16;
/** Viewers kept in all (this replica's and the others'): what every snapshot carries is bounded. */
const VIEWERS_MAX = 2_000;
/**
 * Bytes a second all streams are sent at most: with many streams and a large state, changes are
 * gathered for longer (up to BROADCAST_MAX_MS) before the next snapshot goes to every stream.
 */
const SEND_BYTES_PER_SECOND = 4 * 1024 * 1024;
const BROADCAST_MIN_MS = 100;
const BROADCAST_MAX_MS = 5_000;

/** Node's timers keep the process up unless unref'd; a browser's have no unref. */
function unref(timer: ReturnType<typeof setInterval>): void {
  (timer as { unref?: () => void }).unref?.();
}

export async function createTeamCore(options: TeamCoreOptions): Promise<Team> {
  const { claims: store, trail, identity } = options;
  const config = { ...DEFAULT_TEAM_CONFIG, ...options.config };
  const kindOf = new Map(options.systems.map((system) => [system.id, system.kind]));
  const systemNames = options.systems.map((system) => system.id).join(', ');
  const notASystem = (source: string) =>
    json(400, {
      detail: `"${source}" is not one of the systems this portal reads (${systemNames}).`,
    });
  const now = options.now ?? Date.now;
  const log = options.log ?? ((line: string) => console.error(line));
  const replica = globalThis.crypto.randomUUID();
  /** `<tab>` → what that tab has open (tabs of one reviewer are counted once when shown). */
  const seen = new Map<string, Seen>();
  const hub = createStreamHub({ max: config.maxEventStreams, now, log });
  const counters = new Map<string, { windowStart: number; count: number }>();
  let everyone = { windowStart: 0, count: 0 };
  let claims: Claim[] = await store.list().catch(() => []);
  let acted: Acted[] = [];
  const recentActed = (at: number) =>
    acted.filter((entry) => at - Date.parse(entry.at) < ACTED_KEEP_MS);
  const noteActed = (sourceId: string, questionIds: readonly string[], reviewer: string) => {
    const at = now();
    const stamp = new Date(at).toISOString();
    acted = [
      ...recentActed(at),
      ...questionIds.map((questionId) => ({ sourceId, questionId, reviewer, at: stamp })),
    ].slice(-ACTED_MAX);
    broadcast();
  };

  /** Presence from everyone this second, past MAX_PRESENCE_PER_SECOND. */
  const crowded = (): boolean => {
    const at = now();
    if (at - everyone.windowStart >= 1000) everyone = { windowStart: at, count: 0 };
    everyone.count += 1;
    return everyone.count > config.maxPresencePerSecond;
  };

  /**
   * Room for `tab`'s entry: a reviewer's oldest tab makes way past TABS_PER_REVIEWER; false when
   * VIEWERS_MAX are kept in all.
   */
  const makeRoom = (tab: string, reviewer: string): boolean => {
    if (seen.has(tab)) return true;
    const theirs = [...seen].filter(([, entry]) => entry.reviewer === reviewer);
    if (theirs.length >= TABS_PER_REVIEWER) {
      const oldest = theirs.reduce((a, b) => (a[1].expiresAt <= b[1].expiresAt ? a : b));
      seen.delete(oldest[0]);
    }
    return seen.size < VIEWERS_MAX;
  };

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
    const watch = options.watch?.() ?? null;
    return {
      viewers: [...byKey.values()],
      claims: claims.filter((claim) => Date.parse(claim.expiresAt) > at),
      acted: recentActed(at),
      serverTime: new Date(at).toISOString(),
      ...(watch ? { watch } : {}),
    };
  };

  /** The state for a browser that reads the systems itself: no `watch` (undefined: the same). */
  const listlessFrame = (state: TeamSnapshot): string | undefined => {
    if (!state.watch) return undefined;
    const { watch: _, ...rest } = state;
    return `event: team\ndata: ${JSON.stringify(rest)}\n\n`;
  };

  let lastSent = '';
  let lastBytes = 0;
  let pending: ReturnType<typeof setTimeout> | null = null;
  const broadcast = () => {
    if (pending) return;
    // Changes within the delay go out as one snapshot, the same bytes to every stream; the
    // delay grows with what a snapshot costs to send to all of them.
    const delay = Math.min(
      BROADCAST_MAX_MS,
      Math.max(BROADCAST_MIN_MS, (hub.size() * lastBytes * 1000) / SEND_BYTES_PER_SECOND),
    );
    pending = setTimeout(() => {
      pending = null;
      const { serverTime: _, ...state } = snapshot();
      const key = JSON.stringify(state);
      if (key === lastSent) return;
      lastSent = key;
      const next = snapshot();
      const data = JSON.stringify(next);
      lastBytes = data.length;
      hub.send(`event: team\ndata: ${data}\n\n`, 'state', listlessFrame(next));
    }, delay);
  };

  const reloadClaims = async () => {
    try {
      claims = await store.list();
      broadcast();
    } catch (error) {
      log(`[team] could not read claims: ${error instanceof Error ? error.message : error}`);
    }
  };

  // Expired presence and claims leave on their own: swept every second.
  const sweep = setInterval(() => {
    const at = now();
    for (const [tab, entry] of seen) if (entry.expiresAt <= at) seen.delete(tab);
    for (const [key, counter] of counters) {
      if (at - counter.windowStart >= 60_000) counters.delete(key);
    }
    broadcast();
  }, 1000);
  unref(sweep);
  const prune = setInterval(() => {
    void store.prune().catch(() => {});
  }, 60_000);
  unref(prune);

  /** Says again, to the other replicas, who is on which question on this replica. */
  const sayAgain = () => {
    const at = now();
    for (const [key, entry] of seen) {
      if (entry.replica !== replica || entry.expiresAt <= at) continue;
      link.presence(key.slice(replica.length + 1), entry);
    }
  };

  /** What another replica said (its own messages never come back here). */
  const heard = (message: Record<string, unknown>) => {
    if (message.kind === 'claims') void reloadClaims();
    // It was away: what it heard from here before then is gone.
    if (message.kind === 'again') sayAgain();
    if (
      message.kind === 'acted' &&
      typeof message.sourceId === 'string' &&
      typeof message.reviewer === 'string' &&
      Array.isArray(message.questionIds)
    ) {
      const ids = message.questionIds.filter((id): id is string => typeof id === 'string');
      noteActed(message.sourceId, ids.slice(0, ACTED_MAX), message.reviewer);
    }
    if (message.kind === 'presence' && typeof message.tab === 'string') {
      const tab = `${String(message.replica)}:${message.tab}`;
      const entry = asRecord(message.entry) as Seen | null;
      if (entry && typeof entry.reviewer === 'string') {
        if (!makeRoom(tab, entry.reviewer)) return;
        // The other replica's clock may differ: its entry lives for the TTL from now here.
        seen.set(tab, {
          ...entry,
          typingUntil: entry.typingUntil > 0 ? now() + TYPING_MS : 0,
          expiresAt: now() + config.presenceTtlSeconds * 1000,
        });
      } else seen.delete(tab);
      broadcast();
    }
  };

  const link = await openTeamLink({
    bus: options.bus ?? null,
    replica,
    log,
    now,
    onMessage: heard,
    // Back after a loss: what the others changed meanwhile is read again, what this replica has
    // is said again (they dropped it when its entries' time ran out), and the others are asked to
    // say again what they have: one that came back first spoke while this one could not hear.
    onResync: () => {
      void reloadClaims();
      link.claims();
      link.askAgain();
      sayAgain();
    },
  });

  const audit = async (reviewer: Reviewer, changed: Claim[], action: 'claim' | 'release') => {
    if (changed.length === 0) return;
    const requestId = globalThis.crypto.randomUUID();
    try {
      await trail.insertAttempts(
        changed
          .map((claim) => {
            // The trail names a question as its system does (the audited actions do): the inbox's
            // `<source>:` prefix on other systems' ids goes, so History finds claims with answers.
            const kind = kindOf.get(claim.sourceId) ?? claim.sourceId;
            const prefix = `${claim.sourceId}:`;
            const questionId =
              kind !== 'reflexio' && claim.questionId.startsWith(prefix)
                ? claim.questionId.slice(prefix.length)
                : claim.questionId;
            return { claim, kind, questionId };
          })
          .map(({ claim, kind, questionId }) => ({
            requestId,
            reviewer: reviewer.id,
            reviewerName: reviewer.name,
            sourceId: claim.sourceId,
            sourceKind: kind,
            questionId,
            action,
            answer: null,
            answerMode: 'none' as const,
          })),
      );
      await trail.insertOutcome({ requestId, status: 200, detail: null });
    } catch (error) {
      log(`[team] could not record a ${action}: ${error instanceof Error ? error.message : error}`);
    }
  };

  const claimsChanged = async () => {
    await reloadClaims();
    link.claims();
  };

  const readJson = async (
    request: Request,
    max: number,
  ): Promise<Record<string, unknown> | Response> => {
    const read = await readBodyWithin(request, max);
    if (!read.ok) return read.response;
    try {
      const value: unknown = JSON.parse(new TextDecoder().decode(read.body ?? new Uint8Array()));
      if (typeof value === 'object' && value !== null && !Array.isArray(value))
        return value as Record<string, unknown>;
    } catch {}
    return json(400, { detail: 'The body must be a JSON object.' });
  };

  /** The questions a claim or release names, or the reply refusing them. */
  const questionsOf = (
    body: Record<string, unknown>,
  ): { sourceId: string; questionId: string }[] | Response => {
    const list = Array.isArray(body.questions) ? body.questions : [];
    const shape = json(400, {
      detail: `questions: 1 to 100 of {source, id}, ids of at most ${ID_MAX} printable characters.`,
    });
    if (list.length === 0 || list.length > 100) return shape;
    const out: { sourceId: string; questionId: string }[] = [];
    for (const item of list) {
      const record = asRecord(item) ?? {};
      const sourceId = text(record.source, 64);
      const questionId = text(record.id);
      if (!sourceId || !questionId) return shape;
      // The trail records the configured system's kind; a browser naming another is refused.
      const kind = kindOf.get(sourceId);
      if (!kind) return notASystem(sourceId);
      if (record.kind !== undefined && record.kind !== kind) {
        return json(400, {
          detail: `"${sourceId}" is a ${kind} system: send kind "${kind}", or none.`,
        });
      }
      out.push({ sourceId, questionId });
    }
    return out;
  };

  // Streams opened within BROADCAST_MIN_MS of each other start with the same bytes: any change
  // since goes to them all with the next broadcast.
  let first: { at: number; frame: string; listless: string } | null = null;
  const events = (request: Request, reviewer: Reviewer): Response => {
    const at = now();
    if (!first || at - first.at >= BROADCAST_MIN_MS || at < first.at) {
      const state = snapshot();
      const frame = `retry: 3000\nevent: team\ndata: ${JSON.stringify(state)}\n\n`;
      const listless = listlessFrame(state);
      first = { at, frame, listless: listless === undefined ? frame : `retry: 3000\n${listless}` };
    }
    const lists = options.readsCopy?.(request) ?? true;
    return hub.open(reviewer.id, lists ? first.frame : first.listless, request.signal, lists);
  };

  const api = async (
    request: Request,
    innerPath: string,
    as?: Reviewer,
  ): Promise<Response | null> => {
    if (!innerPath.startsWith('/portal-api/team/')) return null;
    const route = innerPath.slice('/portal-api/team/'.length);
    const method = request.method.toUpperCase();
    const reviewer = as ?? identify(request.headers, identity);
    if (reviewer instanceof Response) return reviewer;

    if (route === 'events' && method === 'GET') return events(request, reviewer);
    if (route === 'state' && method === 'GET') return json(200, snapshot());

    if (route === 'presence' && method === 'POST') {
      if (limited('presence', reviewer.id)) {
        return json(429, { detail: 'Too many presence messages: at most one every 10 seconds.' });
      }
      if (crowded()) {
        return json(503, {
          detail:
            'This server is taking as many presence messages as it can: this one was dropped, the next will do.',
        });
      }
      const body = await readJson(request, PRESENCE_BODY_MAX);
      if (body instanceof Response) return body;
      // One tab's message, or one per tab of the browser (the tab leading the others sends
      // them together: one request per browser however many tabs have a question open).
      const items = Array.isArray(body.tabs) ? body.tabs : [body];
      if (items.length === 0 || items.length > PRESENCE_TABS_MAX) {
        return json(400, { detail: `tabs: 1 to ${PRESENCE_TABS_MAX} tabs' messages.` });
      }
      const changes: { key: string; tab: string; entry: Seen | null; left: Ref | null }[] = [];
      const at = now();
      for (const item of items) {
        const record = asRecord(item);
        const tab = record && text(record.tab, 64);
        if (!record || !tab) return json(400, { detail: 'tab: a short id of the browser tab.' });
        const key = `${replica}:${reviewer.id}:${tab}`;
        if (record.question === null) {
          // `left`: the question this tab closed; a later heartbeat for another one stays.
          const left = asRecord(record.left);
          changes.push({
            key,
            tab,
            entry: null,
            left: left && { sourceId: text(left.source, 64), questionId: text(left.id) },
          });
          continue;
        }
        const question = asRecord(record.question) ?? {};
        const sourceId = text(question.source, 64);
        const questionId = text(question.id);
        if (!sourceId || !questionId) {
          return json(400, {
            detail: `question: {source, id} of the open question (ids of at most ${ID_MAX} printable characters), or null.`,
          });
        }
        if (!kindOf.has(sourceId)) return notASystem(sourceId);
        const before = seen.get(key);
        const sameQuestion =
          before?.sourceId === sourceId && before.questionId === questionId ? before : null;
        changes.push({
          key,
          tab,
          left: null,
          entry: {
            reviewer: reviewer.id,
            reviewerName: reviewer.name,
            sourceId,
            questionId,
            // A heartbeat does not end a typing report still running (another tab's heartbeat
            // may carry this one's entry a second after it said it was typing).
            typingUntil: record.typing === true ? at + TYPING_MS : (sameQuestion?.typingUntil ?? 0),
            expiresAt: at + config.presenceTtlSeconds * 1000,
            replica,
          },
        });
      }
      let full = false;
      for (const { key, tab, entry, left } of changes) {
        if (!entry) {
          const current = seen.get(key);
          if (
            left &&
            current &&
            (current.sourceId !== left.sourceId || current.questionId !== left.questionId)
          )
            continue;
          seen.delete(key);
        } else if (makeRoom(key, reviewer.id)) seen.set(key, entry);
        else {
          full = true;
          continue;
        }
        link.presence(`${reviewer.id}:${tab}`, entry);
      }
      broadcast();
      if (full) {
        return json(503, {
          detail: `This server shows as many viewers as it can (${VIEWERS_MAX}): yours will show once some leave.`,
        });
      }
      return json(200, { ok: true, ttlSeconds: config.presenceTtlSeconds });
    }

    if ((route === 'claim' || route === 'release') && method === 'POST') {
      if (limited('claims', reviewer.id)) {
        return json(429, { detail: 'Too many claims at once: wait a minute.' });
      }
      const body = await readJson(request, CLAIMS_BODY_MAX);
      if (body instanceof Response) return body;
      const questions = questionsOf(body);
      if (questions instanceof Response) return questions;
      try {
        if (route === 'release') {
          const released: Claim[] = [];
          for (const { sourceId, questionId } of questions) {
            released.push(...(await store.drop(sourceId, [questionId], reviewer.id)));
          }
          await audit(reviewer, released, 'release');
          await claimsChanged();
          return json(200, { released });
        }
        const claimed: Claim[] = [];
        const refused: { sourceId: string; questionId: string; detail: string; holder?: Claim }[] =
          [];
        for (const { sourceId, questionId } of questions) {
          const result = await store.take(
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

  /**
   * Drops everyone's claims on questions the system names `questionIds`. The browser claims a
   * question by the inbox's id, which is `<source>:<id>` on every system but Reflexio (see
   * inboxRouting in src/features/questions/sources/lazy-source.ts): both forms go.
   */
  const release = async (sourceId: string, questionIds: readonly string[], why: string) => {
    if (questionIds.length === 0) return;
    const kind = kindOf.get(sourceId) ?? sourceId;
    const ids =
      kind === 'reflexio'
        ? [...questionIds]
        : [...questionIds, ...questionIds.map((id) => `${sourceId}:${id}`)];
    try {
      const dropped = await store.drop(sourceId, ids, null);
      if (dropped.length > 0) await claimsChanged();
    } catch (error) {
      log(
        `[team] could not release ${why} claims: ${error instanceof Error ? error.message : error}`,
      );
    }
  };

  return {
    api,
    async answered(sourceId, questionIds, reviewer = '') {
      noteActed(sourceId, questionIds, reviewer);
      // A NOTIFY payload holds under 8,000 bytes: 20 ids of up to 300 characters fit.
      link.acted({ kind: 'acted', sourceId, questionIds: questionIds.slice(0, 20), reviewer });
      await release(sourceId, questionIds, 'answered');
    },
    closed: (sourceId, questionIds) => release(sourceId, questionIds, 'closed'),
    change(data) {
      // A stream opened from now on starts with the versions this change brings.
      first = null;
      hub.send(`event: questions\ndata: ${data}\n\n`, 'change');
    },
    streams: () => hub.size(),
    claimsChanged,
    link: () => link.state(),
    async close() {
      clearInterval(sweep);
      clearInterval(prune);
      if (pending) clearTimeout(pending);
      // Open streams would hold a graceful shutdown until its deadline: they end now (browsers
      // reconnect to another replica, or to this one when it is back).
      hub.close();
      await link.close();
    },
  };
}
