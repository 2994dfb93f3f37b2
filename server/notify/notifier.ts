// The notifier: on the replica that watches the systems, each pass reads the open questions,
// writes what the routes owe into the outbox (once per question, route, receiver and occasion)
// and gathers what is due into one message per group; on every replica, messages due are
// claimed, checked again (nothing goes out for a question closed meanwhile) and sent, with
// back-off and jitter on failure and a final status operators see.
import type { Db } from '../db/engine';
import { openQuestions } from '../watch/store';
import type { NotifyConfig, Route } from './config';
import { buildNotice } from './message';
import {
  batchGroup,
  claimDue,
  finishMessage,
  liveClaims,
  messageQuestions,
  recordOwed,
  retryMessage,
  waitingGroups,
} from './outbox';
import { groupDue, plan } from './plan';
import { DeliveryError, type Sender } from './receivers';

export const RETRY = {
  firstMs: 10_000,
  maxMs: 5 * 60_000,
  /** Tries in all: about 40 minutes of a receiver down before a message is marked failed. */
  attempts: 12,
  /** How long a claimed message stays this replica's while it is sent. */
  leaseMs: 2 * 60_000,
};

/** The wait before try `attempt + 1`: doubling from firstMs, capped, with jitter (½ to 1 of it). */
export function backoffMs(attempt: number, random: () => number = Math.random): number {
  const full = Math.min(RETRY.maxMs, RETRY.firstMs * 2 ** Math.max(0, attempt - 1));
  return Math.round(full * (0.5 + random() * 0.5));
}

/** A pass reads every open question this often; between, only new ones and those expiring soon. */
export const FULL_PASS_MS = 60_000;
/** How far back a short pass looks for new questions (a read's transaction commits after its clock). */
const SEEN_MARGIN_MS = 2 * 60_000;

export type DeliveryOutcome = 'sent' | 'retry' | 'failed' | 'dropped';

export interface NotifierOptions {
  db: Db;
  config: NotifyConfig;
  senders: ReadonlyMap<string, Sender>;
  publicUrl: string | null;
  /** Whether this replica routes (holds the watcher's lease). */
  leader: () => boolean;
  systemNames?: ReadonlyMap<string, string>;
  clock?: () => number;
  random?: () => number;
  /** How often a pass runs (ms). */
  tickMs?: number;
  onDelivery?: (receiver: string, outcome: DeliveryOutcome) => void;
  log?: (line: string) => void;
}

export interface Notifier {
  /** One routing pass (only the leader's passes write): what is owed, and messages due. */
  routeOnce(): Promise<{ owed: number; messages: number }>;
  /** Sends what is due now; resolves with how many messages were tried. */
  deliverOnce(): Promise<number>;
  start(): void;
  stop(): Promise<void>;
}

export function createNotifier(options: NotifierOptions): Notifier {
  const { db, config, senders } = options;
  const clock = options.clock ?? Date.now;
  const log = options.log ?? ((line: string) => console.error(line));
  const routes = new Map<string, Route>(config.routes.map((route) => [route.name, route]));
  const systemNames = options.systemNames ?? new Map<string, string>();
  // Keys this replica has written or seen written: a pass only offers the database the new ones.
  const written = new Set<string>();
  let wasLeader = false;
  let lastFull: number | null = null;
  let lastDbTime: string | null = null;
  // The farthest ahead any route looks at expiry (escalation, minutes_left); reminders need all.
  const horizonMinutes = Math.max(
    0,
    ...config.routes.map((r) => Math.max(r.escalateMinutesLeft ?? 0, r.match.minutesLeft ?? 0)),
  );
  const needsAll = config.routes.some((r) => r.repeatIntervalMs > 0);
  let timer: ReturnType<typeof setTimeout> | null = null;
  let running: Promise<unknown> | null = null;
  let stopped = false;

  const routeOnce = async () => {
    const now = clock();
    const [dbNow] = await db.query<{ now: Date | string }>('SELECT now() AS now');
    const full =
      needsAll || lastFull === null || lastDbTime === null || now - lastFull >= FULL_PASS_MS;
    const recent =
      full || lastDbTime === null
        ? undefined
        : {
            seenAfter: new Date(Date.parse(lastDbTime) - SEEN_MARGIN_MS).toISOString(),
            expiringBefore:
              horizonMinutes > 0 ? new Date(now + horizonMinutes * 60_000).toISOString() : null,
          };
    const [questions, claimed] = await Promise.all([
      openQuestions(db, recent),
      liveClaims(db, now),
    ]);
    if (full) lastFull = now;
    lastDbTime = new Date(dbNow?.now ?? Date.now()).toISOString();
    const owed = plan(questions, claimed, config.routes, now).filter((o) => {
      const key = `${o.sourceId}\n${o.questionId}\n${o.route}\n${o.receiver}\n${o.occasion}`;
      if (written.has(key)) return false;
      written.add(key);
      return true;
    });
    const added = await recordOwed(db, owed, now);
    let messages = 0;
    for (const group of await waitingGroups(db)) {
      const route = routes.get(group.route);
      if (!route || !groupDue(route, group.firstWaitingAt, group.lastSentAt, now)) continue;
      const id = await batchGroup(db, group, now, (last) =>
        groupDue(route, group.firstWaitingAt, last, now),
      );
      if (id !== null) messages += 1;
    }
    if (written.size > 200_000) written.clear();
    return { owed: added, messages };
  };

  const deliverOne = async (message: Awaited<ReturnType<typeof claimDue>>[number]) => {
    const now = clock();
    const report = (outcome: DeliveryOutcome) => options.onDelivery?.(message.receiver, outcome);
    const sender = senders.get(message.receiver);
    if (!sender) {
      await finishMessage(db, message.id, message.attempts, 'failed', now, 'no such receiver now');
      report('failed');
      return;
    }
    const all = await messageQuestions(db, message.id, now);
    // Closed since (answered, expired, gone), or for an escalation or reminder claimed since.
    const still = all.filter((q) => q.open && (message.occasion === 'new' || !q.claimed));
    if (still.length === 0) {
      await finishMessage(db, message.id, message.attempts, 'dropped', now);
      report('dropped');
      return;
    }
    const notice = buildNotice({
      id: message.id,
      occasion: message.occasion,
      route: message.route,
      receiver: message.receiver,
      questions: still,
      systemNames,
      publicUrl: options.publicUrl,
      now,
    });
    try {
      await sender(notice);
      await finishMessage(db, message.id, message.attempts, 'sent', clock());
      report('sent');
    } catch (error) {
      const reason = (error instanceof Error ? error.message : String(error)).slice(0, 300);
      const permanent = error instanceof DeliveryError && error.permanent;
      if (permanent || message.attempts >= RETRY.attempts) {
        await finishMessage(db, message.id, message.attempts, 'failed', clock(), reason);
        log(`[notify] gave up on message ${message.id} to ${message.receiver}: ${reason}`);
        report('failed');
      } else {
        const next = clock() + backoffMs(message.attempts, options.random);
        await retryMessage(db, message.id, message.attempts, next, reason);
        report('retry');
      }
    }
  };

  const deliverOnce = async () => {
    let tried = 0;
    for (;;) {
      const batch = await claimDue(db, clock(), RETRY.leaseMs, 20);
      if (batch.length === 0) return tried;
      tried += batch.length;
      await Promise.all(batch.map(deliverOne));
    }
  };

  const pass = async () => {
    const leader = options.leader();
    if (leader !== wasLeader) {
      written.clear();
      lastFull = null;
    }
    wasLeader = leader;
    if (leader) await routeOnce();
    await deliverOnce();
  };

  const tick = () => {
    timer = null;
    if (stopped) return;
    running = pass()
      .catch((error: unknown) => {
        log(`[notify] a pass failed: ${error instanceof Error ? error.message : String(error)}`);
      })
      .finally(() => {
        running = null;
        if (stopped) return;
        timer = setTimeout(tick, options.tickMs ?? 2000);
        timer.unref?.();
      });
  };

  return {
    routeOnce,
    deliverOnce,
    start() {
      if (timer || running || stopped) return;
      timer = setTimeout(tick, 0);
      timer.unref?.();
    },
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      timer = null;
      await running;
    },
  };
}
