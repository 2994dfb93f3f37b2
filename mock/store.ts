import { randomHex32, sha256Hex } from './hash';

// Reflexio's statuses. The portal's own list (statusMeta in src/features/questions/utils/
// question-policy.ts) is not imported: the mock stays independent of the portal on purpose, and a
// unit test there checks the two agree.
export const CALL_STATUSES = ['pending', 'resolved', 'expired', 'superseded', 'cancelled'] as const;
export type CallStatus = (typeof CALL_STATUSES)[number];

export const ASK_HUMAN = 'ask_human';
export const DEFAULT_ORG = 'org_demo';
export const DEFAULT_EXPIRES_IN_SECONDS = 24 * 60 * 60;
export const CACHE_WINDOW_SECONDS = 300;
export const DEFAULT_VALID_FOR_SECONDS = 30 * 24 * 60 * 60;
export const NOT_APPLICABLE_ANSWER = 'User does not have information about this question.';

export type JsonObject = Record<string, unknown>;

/** A stored row; times are epoch ms. */
export interface CallRow {
  id: string;
  org_id: string;
  scope: JsonObject;
  scope_hash: string;
  tool_name: string;
  dedup_key: string;
  status: CallStatus;
  question_text: string;
  args: JsonObject;
  tags: string[];
  user_id: string | null;
  answer_format: string | null;
  result: JsonObject | null;
  superseded_by: string | null;
  created_at: number;
  resolved_at: number | null;
  expires_at: number | null;
  cache_until: number | null;
  valid_until: number | null;
}

/** The wire shape (PendingToolCallResponse), field order as the real response model. */
export interface PendingToolCallRecord {
  id: string;
  org_id: string;
  scope: JsonObject;
  scope_hash: string;
  tool_name: string;
  dedup_key: string;
  status: CallStatus;
  question_text: string;
  args: JsonObject;
  tags: string[];
  user_id: string | null;
  answer_format: string | null;
  result: JsonObject | null;
  superseded_by: string | null;
  created_at: string | null;
  resolved_at: string | null;
  expires_at: string | null;
  cache_until: string | null;
  valid_until: string | null;
}

export type Outcome =
  | { ok: true; call: PendingToolCallRecord }
  | { ok: false; status: 404 | 409 | 422; detail: string };

export interface CreateCallInput {
  /** Random `ptc_…` when omitted. */
  id?: string;
  question: string;
  answerFormat?: string | null;
  tags?: string[];
  userId?: string | null;
  toolName?: string;
  args?: JsonObject;
  scope?: JsonObject;
  orgId?: string;
  expiresInSeconds?: number;
}

/** `orgId` undefined means "any org" (the control surface); the API always passes its org. */
export interface CallStore {
  create(input: CreateCallInput): { created: boolean; call: PendingToolCallRecord };
  list(query: { orgId: string; status?: CallStatus; limit: number }): PendingToolCallRecord[];
  get(id: string, orgId?: string): PendingToolCallRecord | null;
  resolve(
    id: string,
    orgId: string | undefined,
    result: JsonObject,
    validForSeconds?: number,
  ): Outcome;
  updateAnswer(
    id: string,
    orgId: string | undefined,
    answer: string,
    validForSeconds?: number,
  ): Outcome;
  markNotApplicable(id: string, orgId: string | undefined, validForSeconds?: number): Outcome;
  cancel(id: string, orgId: string | undefined): Outcome;
  sweep(): number;
  expireNow(id: string): Outcome;
  remove(id: string): boolean;
  all(): PendingToolCallRecord[];
  replaceAll(rows: CallRow[]): void;
}

export function notApplicableResult(): JsonObject {
  return { answer: NOT_APPLICABLE_ANSWER, not_applicable: true };
}

function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.keys(value)
      .sort()
      .map((key) => `${JSON.stringify(key)}:${canonicalJson((value as JsonObject)[key])}`);
    return `{${entries.join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

export function orgScope(orgId: string): JsonObject {
  return { org_id: orgId, scope_kind: 'org' };
}

export function scopeHash(scope: JsonObject): string {
  return sha256Hex(canonicalJson(scope));
}

function normalizeDedupText(value: string | null | undefined): string {
  if (value == null) return '';
  return value.normalize('NFKC').trim().replace(/\s+/g, ' ').toLowerCase();
}

// Same recipe as Reflexio's build_pending_tool_call_dedup_key (parts joined by a newline).
export function dedupKey(
  toolName: string,
  questionText: string,
  answerFormat: string | null | undefined,
): string {
  return sha256Hex(
    [toolName, questionText, answerFormat].map((part) => normalizeDedupText(part)).join('\n'),
  );
}

export function newCallId(): string {
  return `ptc_${randomHex32()}`;
}

function iso(ms: number | null): string | null {
  return ms === null ? null : new Date(ms).toISOString();
}

export function toRecord(row: CallRow): PendingToolCallRecord {
  return {
    id: row.id,
    org_id: row.org_id,
    scope: structuredClone(row.scope),
    scope_hash: row.scope_hash,
    tool_name: row.tool_name,
    dedup_key: row.dedup_key,
    status: row.status,
    question_text: row.question_text,
    args: structuredClone(row.args),
    tags: [...row.tags],
    user_id: row.user_id,
    answer_format: row.answer_format,
    result: row.result === null ? null : structuredClone(row.result),
    superseded_by: row.superseded_by,
    created_at: iso(row.created_at),
    resolved_at: iso(row.resolved_at),
    expires_at: iso(row.expires_at),
    cache_until: iso(row.cache_until),
    valid_until: iso(row.valid_until),
  };
}

function ms(value: string | null): number | null {
  return value === null ? null : Date.parse(value);
}

/** The inverse of toRecord (a host that keeps a snapshot of the records restores rows from it). */
export function fromRecord(record: PendingToolCallRecord): CallRow {
  return {
    ...structuredClone(record),
    created_at: ms(record.created_at) ?? 0,
    resolved_at: ms(record.resolved_at),
    expires_at: ms(record.expires_at),
    cache_until: ms(record.cache_until),
    valid_until: ms(record.valid_until),
  };
}

export function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false;
    return a.every((item, index) => deepEqual(item, b[index]));
  }
  if (a === null || b === null || typeof a !== 'object' || typeof b !== 'object') return false;
  const aKeys = Object.keys(a);
  const bKeys = Object.keys(b);
  if (aKeys.length !== bKeys.length) return false;
  return aKeys.every(
    (key) => Object.hasOwn(b, key) && deepEqual((a as JsonObject)[key], (b as JsonObject)[key]),
  );
}

export function buildRow(
  input: CreateCallInput,
  now: number,
  id = input.id ?? newCallId(),
): CallRow {
  const toolName = input.toolName ?? ASK_HUMAN;
  const orgId = input.orgId ?? DEFAULT_ORG;
  const scope = input.scope ?? orgScope(orgId);
  const answerFormat = input.answerFormat ?? null;
  const args = input.args ?? { question: input.question, answer_format: answerFormat };
  return {
    id,
    org_id: orgId,
    scope: structuredClone(scope),
    scope_hash: scopeHash(scope),
    tool_name: toolName,
    dedup_key: dedupKey(toolName, input.question, answerFormat),
    status: 'pending',
    question_text: input.question,
    args: structuredClone(args),
    tags: [...(input.tags ?? [])],
    user_id: input.userId ?? null,
    answer_format: answerFormat,
    result: null,
    superseded_by: null,
    created_at: now,
    resolved_at: null,
    expires_at: now + (input.expiresInSeconds ?? DEFAULT_EXPIRES_IN_SECONDS) * 1000,
    cache_until: now + CACHE_WINDOW_SECONDS * 1000,
    valid_until: null,
  };
}

function byNewest(a: CallRow, b: CallRow): number {
  if (a.created_at !== b.created_at) return b.created_at - a.created_at;
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

const notFound: Outcome = { ok: false, status: 404, detail: 'Pending tool call not found' };

const notAskHuman = conflict('Only ask_human tool calls can be managed from this endpoint');

/** Two calls ask the same thing: same org, scope, tool and dedup key (dedup and superseding). */
function sameQuestion(a: CallRow, b: CallRow): boolean {
  return (
    a.org_id === b.org_id &&
    a.scope_hash === b.scope_hash &&
    a.tool_name === b.tool_name &&
    a.dedup_key === b.dedup_key
  );
}

function conflict(detail: string): Outcome {
  return { ok: false, status: 409, detail };
}

function isStatus(status: CallStatus): string {
  return `Pending tool call is ${status}`;
}

export function createCallStore(now: () => number): CallStore {
  const rows = new Map<string, CallRow>();

  function find(id: string, orgId: string | undefined): CallRow | null {
    const row = rows.get(id);
    if (!row || (orgId !== undefined && row.org_id !== orgId)) return null;
    return row;
  }

  function ok(row: CallRow): Outcome {
    return { ok: true, call: toRecord(row) };
  }

  // Rows that used this question's answer as a prior answer would now get a stale one.
  function supersedeOthers(row: CallRow, at: number): void {
    for (const other of rows.values()) {
      if (
        other.id !== row.id &&
        other.status === 'resolved' &&
        (other.valid_until === null || other.valid_until > at) &&
        sameQuestion(other, row)
      ) {
        other.status = 'superseded';
        other.superseded_by = row.id;
      }
    }
  }

  function settle(
    row: CallRow,
    result: JsonObject,
    validForSeconds: number | undefined,
    { supersede }: { supersede: boolean },
  ): void {
    const at = now();
    row.status = 'resolved';
    row.result = structuredClone(result);
    row.resolved_at = at;
    row.valid_until = at + (validForSeconds ?? DEFAULT_VALID_FOR_SECONDS) * 1000;
    if (supersede) supersedeOthers(row, at);
  }

  function sweep(): number {
    const at = now();
    let expired = 0;
    for (const row of rows.values()) {
      if (row.status === 'pending' && row.expires_at !== null && row.expires_at <= at) {
        row.status = 'expired';
        expired += 1;
      }
    }
    return expired;
  }

  return {
    create(input) {
      const at = now();
      const candidate = buildRow(input, at);
      const existing = [...rows.values()]
        .filter(
          (row) =>
            row.status === 'pending' &&
            sameQuestion(row, candidate) &&
            row.cache_until !== null &&
            row.cache_until > at,
        )
        .sort((a, b) => a.created_at - b.created_at)[0];
      if (existing) return { created: false, call: toRecord(existing) };
      rows.set(candidate.id, candidate);
      return { created: true, call: toRecord(candidate) };
    },

    list({ orgId, status, limit }) {
      return [...rows.values()]
        .filter((row) => row.org_id === orgId && (status === undefined || row.status === status))
        .sort(byNewest)
        .slice(0, limit)
        .map(toRecord);
    },

    get(id, orgId) {
      const row = find(id, orgId);
      return row ? toRecord(row) : null;
    },

    resolve(id, orgId, result, validForSeconds) {
      const row = find(id, orgId);
      if (!row) return notFound;
      if (row.status === 'resolved') {
        return deepEqual(row.result, result)
          ? ok(row)
          : conflict('Pending tool call already resolved with a different result');
      }
      if (row.status !== 'pending') return conflict(isStatus(row.status));
      settle(row, result, validForSeconds, { supersede: true });
      return ok(row);
    },

    // The real router checks the record before the blank answer: 404 → tool → state → 422.
    updateAnswer(id, orgId, answer, validForSeconds) {
      const row = find(id, orgId);
      if (!row) return notFound;
      if (row.tool_name !== ASK_HUMAN) return notAskHuman;
      if (row.status !== 'resolved') return conflict(isStatus(row.status));
      const trimmed = answer.trim();
      if (!trimmed) return { ok: false, status: 422, detail: 'Answer cannot be empty' };
      settle(row, { answer: trimmed }, validForSeconds, { supersede: true });
      return ok(row);
    },

    markNotApplicable(id, orgId, validForSeconds) {
      const row = find(id, orgId);
      if (!row) return notFound;
      if (row.tool_name !== ASK_HUMAN) return notAskHuman;
      if (row.status !== 'pending' && row.status !== 'resolved') {
        return conflict('Pending tool call could not be marked not applicable');
      }
      // Reflexio's stores do not supersede other answers when a call is marked not applicable.
      settle(row, notApplicableResult(), validForSeconds, { supersede: false });
      return ok(row);
    },

    cancel(id, orgId) {
      const row = find(id, orgId);
      if (!row) return notFound;
      if (row.status === 'cancelled') return ok(row);
      if (row.status !== 'pending') return conflict(isStatus(row.status));
      row.status = 'cancelled';
      return ok(row);
    },

    sweep,

    expireNow(id) {
      const row = rows.get(id);
      if (!row) return notFound;
      if (row.status !== 'pending') return conflict(isStatus(row.status));
      row.expires_at = now();
      sweep();
      return ok(row);
    },

    remove(id) {
      return rows.delete(id);
    },

    all() {
      return [...rows.values()].sort(byNewest).map(toRecord);
    },

    replaceAll(next) {
      rows.clear();
      for (const row of next) rows.set(row.id, structuredClone(row));
    },
  };
}
