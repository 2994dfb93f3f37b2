import { randomHex32, sha256Hex } from '../hash';

/** Vertesia's `PendingAskData` (004_c6f74b07820db5b9.txt), as the mock stores and sends it. */
export type AskStatus = 'pending' | 'resolved' | 'expired';

export type UserChannel =
  | {
      type: 'email';
      to_email: string;
      thread_subject?: string;
      in_reply_to?: string;
      references?: string[];
      route_key?: string;
    }
  | { type: 'interactive' };

export interface TaskField {
  name: string;
  type: 'string' | 'number' | 'boolean' | 'select' | 'text';
  required?: boolean;
  label?: string;
  options?: string[];
  default?: unknown;
}

export interface PendingAskData {
  askId: string;
  runId: string;
  workflowId: string;
  projectId: string;
  accountId: string;
  agentName: string;
  questions: string[];
  timeoutHours: number;
  userChannels: UserChannel[];
  createdAt: number;
  expiresAt: number;
  status: AskStatus;
  taskId?: string;
  resolvedAt?: number;
  response?: string;
}

/** The one project (and account) an API key of the mock sees. */
export const PROJECT_ID = '66f1c0a9e4b0c1d2e3f40a11';
export const ACCOUNT_ID = '66f1c0a9e4b0c1d2e3f40a00';
/** Not in the document: an ask registered without `timeoutHours` waits a day. */
export const DEFAULT_TIMEOUT_HOURS = 24;
const HOUR = 3_600_000;

export interface NewAsk {
  askId?: string;
  runId?: string;
  workflowId?: string;
  agentName: string;
  questions: string[];
  timeoutHours?: number;
  userChannels?: UserChannel[];
  taskId?: string;
  /** Registered this long ago (seed and tests). */
  createdAgoMs?: number;
  requestId?: string;
}

export type ResolveOutcome =
  | { ok: true; ask: PendingAskData; waitDurationMs: number }
  | { ok: false; status: 404 | 409; code: string; message: string };

/** 24 hex digits, the look of Vertesia's ids. */
export function hexId(seed?: string): string {
  return seed === undefined
    ? randomHex32().slice(0, 24)
    : sha256Hex(`vertesia-demo/${seed}`).slice(0, 24);
}

export interface AskStore {
  register(input: NewAsk): PendingAskData;
  byRequestId(requestId: string): PendingAskData | undefined;
  list(): PendingAskData[];
  get(askId: string): PendingAskData | undefined;
  resolve(askId: string, response: string): ResolveOutcome;
  expireNow(askId: string): PendingAskData | undefined;
  remove(askId: string): boolean;
  /** Every ask as stored, and which ask each `requestId` registered (for a snapshot). */
  dump(): { asks: PendingAskData[]; requestIds: Record<string, string> };
  /** Puts a dump back in place of what the store holds. */
  load(dump: { asks: PendingAskData[]; requestIds: Record<string, string> }): void;
}

export function createAskStore(now: () => number): AskStore {
  const asks = new Map<string, PendingAskData>();
  const requests = new Map<string, string>();

  // Expiry is applied when an ask is read, so a moved clock shows at once.
  function current(ask: PendingAskData): PendingAskData {
    if (ask.status === 'pending' && now() >= ask.expiresAt) ask.status = 'expired';
    return ask;
  }

  return {
    register(input) {
      const createdAt = now() - (input.createdAgoMs ?? 0);
      const timeoutHours = input.timeoutHours ?? DEFAULT_TIMEOUT_HOURS;
      const askId = input.askId ?? hexId();
      const ask: PendingAskData = {
        askId,
        runId: input.runId ?? hexId(),
        workflowId: input.workflowId ?? `agent-run-${hexId().slice(0, 12)}`,
        projectId: PROJECT_ID,
        accountId: ACCOUNT_ID,
        agentName: input.agentName,
        questions: [...input.questions],
        timeoutHours,
        userChannels: input.userChannels ?? [{ type: 'interactive' }],
        createdAt,
        expiresAt: createdAt + Math.round(timeoutHours * HOUR),
        status: 'pending',
        ...(input.taskId === undefined ? {} : { taskId: input.taskId }),
      };
      asks.set(askId, ask);
      if (input.requestId !== undefined) requests.set(input.requestId, askId);
      return structuredClone(current(ask));
    },
    byRequestId(requestId) {
      const askId = requests.get(requestId);
      const ask = askId === undefined ? undefined : asks.get(askId);
      return ask ? structuredClone(current(ask)) : undefined;
    },
    list() {
      return [...asks.values()]
        .map((ask) => structuredClone(current(ask)))
        .sort((a, b) => b.createdAt - a.createdAt);
    },
    get(askId) {
      const ask = asks.get(askId);
      return ask ? structuredClone(current(ask)) : undefined;
    },
    resolve(askId, response) {
      const stored = asks.get(askId);
      if (!stored) {
        return {
          ok: false,
          status: 404,
          code: 'pending_ask_not_found',
          message: `Pending ask ${askId} not found.`,
        };
      }
      const ask = current(stored);
      if (ask.status === 'resolved') {
        return {
          ok: false,
          status: 409,
          code: 'pending_ask_already_resolved',
          message: `Pending ask ${askId} is already resolved.`,
        };
      }
      if (ask.status === 'expired') {
        return {
          ok: false,
          status: 409,
          code: 'pending_ask_expired',
          message: `Pending ask ${askId} has expired.`,
        };
      }
      const at = now();
      ask.status = 'resolved';
      ask.resolvedAt = at;
      ask.response = response;
      return { ok: true, ask: structuredClone(ask), waitDurationMs: at - ask.createdAt };
    },
    expireNow(askId) {
      const ask = asks.get(askId);
      if (!ask) return undefined;
      if (current(ask).status === 'pending') {
        ask.status = 'expired';
        ask.expiresAt = Math.min(ask.expiresAt, now());
      }
      return structuredClone(ask);
    },
    remove: (askId) => asks.delete(askId),
    dump: () => ({
      asks: [...asks.values()].map((ask) => structuredClone(ask)),
      requestIds: Object.fromEntries(requests),
    }),
    load(dump) {
      asks.clear();
      requests.clear();
      for (const ask of dump.asks) asks.set(ask.askId, structuredClone(ask));
      for (const [requestId, askId] of Object.entries(dump.requestIds)) {
        if (asks.has(askId)) requests.set(requestId, askId);
      }
    },
  };
}
