// The audit trail's words and shapes: the actions it knows, what is written before a forward and
// its outcome after, what the read API returns, and where a trail is kept. Shared by the server,
// its queries and the static demo's Service Worker (no Node built-ins).

import type { AnswerMode, KeptAs } from './answer';

/** The actions the trail knows, as the server names them. */
export const auditActions = [
  'answer',
  'edit',
  'not-applicable',
  'cancel',
  'resolve-json',
  'claim',
  'release',
  // The team's snippets (server/snippets/): the question id is `snippet:<id>`, the answer the
  // snippet's title on its first line and its text after.
  'snippet-create',
  'snippet-edit',
  'snippet-delete',
] as const;
export type AuditAction = (typeof auditActions)[number];

/** What the server records before it forwards an action. */
export interface AuditAttempt {
  requestId: string;
  reviewer: string;
  reviewerName: string | null;
  /** Named in the browser (no REVIEWER_HEADER), not by an SSO proxy: anyone could type it. */
  selfNamed?: boolean;
  sourceId: string;
  sourceKind: string;
  questionId: string;
  action: AuditAction;
  /** The answer or result sent, as AUDIT_ANSWERS keeps it (bounded, its HMAC, or null). */
  answer: string | null;
  /** How it is kept; `none` for actions that send no answer. */
  answerMode: KeptAs | AnswerMode;
  /** Size and SHA-256 of the whole answer sent (kept in full only). */
  answerBytes?: number | null;
  answerSha256?: string | null;
  /** Set by tests and the bench; the database's clock otherwise. */
  at?: Date;
}

/** One entry as the read API returns it: the attempt with its outcome, if one was recorded. */
export interface AuditEntry {
  id: number;
  at: string;
  requestId: string;
  reviewer: string;
  reviewerName: string | null;
  /** True for a name typed in the browser, false for the SSO proxy's; null where not recorded. */
  selfNamed: boolean | null;
  sourceId: string;
  sourceKind: string;
  questionId: string;
  /**
   * What the question asked, as the watcher kept it (server/watch/: a slice of the text); null for
   * a question the watcher never saw (an entry older than it, or a system it does not read).
   */
  asked: string | null;
  action: string;
  answer: string | null;
  answerMode: string;
  /** Size in UTF-8 bytes and SHA-256 of the whole answer sent (null unless kept in full). */
  answerBytes: number | null;
  answerSha256: string | null;
  /** The upstream's HTTP status; null when no outcome was recorded (see docs/audit.md). */
  status: number | null;
  detail: string | null;
}

export interface AuditFilter {
  sourceId?: string;
  /** The systems' question ids (one question, or each member of a look-alike group). */
  questionIds?: string[];
  /** Case-insensitive part of the reviewer's address or name ("bob" finds bob@example.com). */
  reviewer?: string;
  action?: string;
  /** ISO times, inclusive from, exclusive to. */
  from?: string;
  to?: string;
  /**
   * Case-insensitive text in the reviewer, question id, name, the answer's first 500 characters,
   * or what the question asked.
   */
  search?: string;
}

export interface AuditOutcome {
  requestId: string;
  status: number;
  detail: string | null;
}

export interface AuditPage {
  entries: AuditEntry[];
  nextCursor: number | null;
}

/** Where a trail is kept: PostgreSQL (server/audit/sql.ts) or the browser (memoryTrail). */
export interface TrailStore {
  insertAttempts(attempts: AuditAttempt[]): Promise<void>;
  /** The first outcome of a request counts; a second is ignored. */
  insertOutcome(outcome: AuditOutcome): Promise<void>;
  /** Newest first, `limit` at a time; `nextCursor` continues after the last one, null at the end. */
  listEntries(
    filter: AuditFilter,
    page: { cursor: number | null; limit: number },
  ): Promise<AuditPage>;
}

/** Text the trail's columns cannot hold (PostgreSQL's text has no NUL). */
export const NUL = '\u0000';

export const PAGE_LIMIT_DEFAULT = 50;
export const PAGE_LIMIT_MAX = 200;
/** How much of an answer the text search reads (migration 4's index holds no more). */
export const SEARCHED_ANSWER_CHARS = 500;
