import * as z from 'zod/mini';
import { lazySchema } from '@/lib/lazy-schema';

export const questionStatuses = [
  'pending',
  'resolved',
  'expired',
  'superseded',
  'cancelled',
] as const;
export const questionStatusSchema = lazySchema(() => z.enum(questionStatuses));
export type QuestionStatus = (typeof questionStatuses)[number];

export const ASK_HUMAN = 'ask_human';
export const NOT_APPLICABLE_ANSWER = 'User does not have information about this question.';

/** Which configured system a question came from (config.json `sources[]`). */
export interface QuestionOrigin {
  id: string;
  kind: 'reflexio' | 'vertesia' | 'bilby';
  label: string;
}

export const REFLEXIO_ORIGIN: QuestionOrigin = {
  id: 'reflexio',
  kind: 'reflexio',
  label: 'Reflexio',
};

/** One choice a question offers (Bilby's `options`). */
export interface PromptOption {
  label: string;
  description: string | null;
}

/**
 * One question inside a question record that holds several (a Vertesia ask, a Bilby tool call);
 * each gets its own answer field.
 */
export interface QuestionPrompt {
  text: string;
  /** Short title (Bilby's `header`); null where the source has none. */
  header: string | null;
  /** Empty: free text only. */
  options: PromptOption[];
  multiSelect: boolean;
}

/** What the reviewer gave for one prompt: option labels and/or free text. */
export interface PromptAnswer {
  selected: string[];
  custom: string;
}

/** The portal's own record: what every question source maps its data to. */
export interface Question {
  id: string;
  source: QuestionOrigin;
  status: QuestionStatus;
  toolName: string;
  questionText: string;
  userId: string | null;
  tags: string[];
  /**
   * Who asked, by name, where the system says (Vertesia's agent, Bilby's conversation title): on
   * the row beside the tags, and found by search; not a tag, so not in the Tag picker.
   */
  askerName?: string | null;
  answerFormat: string | null;
  args: Record<string, unknown> | null;
  scope: Record<string, unknown> | null;
  /** Reflexio's `scope_hash` and `dedup_key`: with the tool, what makes two calls the same question. */
  scopeHash: string | null;
  dedupKey: string | null;
  /** Who asked where the source has no scope: Vertesia's agent name, Bilby's conversation id. */
  asker: string | null;
  /** The answer as its system holds it (a JSON result for Reflexio's other tools). */
  result: Record<string, unknown> | null;
  /**
   * Closed as not applicable, whatever its system calls it (Reflexio's `not_applicable` result,
   * Bilby's `dismissed`): its own badge, and no answer shown.
   */
  notApplicable: boolean;
  supersededBy: string | null;
  createdAt: number | null;
  resolvedAt: number | null;
  expiresAt: number | null;
  validUntil: number | null;
  /**
   * The questions it holds, each answered on its own (Vertesia, Bilby); absent for a record that
   * is one question with one answer (Reflexio).
   */
  prompts?: readonly QuestionPrompt[];
  /** The agent is working right now and may refuse answers for a moment (Bilby `running`). */
  busy?: boolean;
}

/** A record the server sent that the portal could not read; shown flagged, never dropped silently. */
export interface UnreadableRecord {
  index: number;
  id: string | null;
  problems: string[];
}

export interface QuestionList {
  questions: Question[];
  unreadable: UnreadableRecord[];
  /** The server returned as many rows as asked for: there may be more. */
  truncated: boolean;
  /** Sources that could not be read this time, in plain words; the others' questions are here. */
  failures?: SourceFailure[];
  /** Sources whose list has not answered yet: the others' questions are here already. */
  loading?: SourceLoading[];
  /**
   * Per source id, the version of the portal server's copy this list shows (where the server
   * watches that system): the live stream's changes after it apply to it (api/live-changes.ts).
   */
  versions?: Record<string, number>;
}

export interface SourceLoading {
  source: QuestionOrigin;
  /** When this list was asked for (the browser's clock, ms). */
  since: number;
}

export interface SourceFailure {
  source: QuestionOrigin;
  /** "Vertesia is unavailable (HTTP 503)". */
  message: string;
  /** Its questions in the list are those of its last good refresh. */
  stale: boolean;
  /** It refused the reviewer's sign-in (HTTP 401/403): the others are still signed in. */
  signedOut?: boolean;
}
