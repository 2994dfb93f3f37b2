import { createContext, use } from 'react';
import type { PromptAnswer, Question, QuestionList, QuestionStatus } from './schemas';

export interface ListParams {
  status?: QuestionStatus;
  limit: number;
  /**
   * Several sources read as one: called with what has arrived each time one of them answers
   * (the rest named in `loading`), so a slow source never holds the others' rows back.
   */
  onPartial?: (list: QuestionList) => void;
  /**
   * The list on screen now, when this browser did not read it itself (the server's first screen):
   * a source that fails on the refresh keeps its rows from it, as from a list it had read.
   */
  shown?: QuestionList;
}

/**
 * Part of a bulk action or a look-alike group: the ids of the questions sent along with this one
 * (itself included) when its system takes them in one request (see `sendingUnits`). The system
 * holds this one until the others have come, then sends them together.
 */
export interface SentTogether {
  together?: readonly string[];
}

export interface ResolveInput extends SentTogether {
  /** The answer as one record (`{answer}` for a text answer); what Reflexio stores. */
  result: Record<string, unknown>;
  validForSeconds?: number;
  /** One per prompt, for a question that holds several (`Question.prompts`), in their order. */
  answers?: readonly PromptAnswer[];
}

export interface AnswerInput {
  answer: string;
  validForSeconds?: number;
}

/** Where one question's draft is kept (utils/draft-store.ts): a system's key and its own id. */
export interface DraftSlot {
  scope: string;
  id: string;
}

/** A scope drafts are kept under, and the prefix that turns its ids into the source's own. */
export interface DraftScope {
  scope: string;
  prefix: string;
}

/**
 * The seam between the inbox and an agent platform's question API: six operations on one record
 * type: Reflexio (sources/reflexio/client.ts), Vertesia and Bilby (sources/system-sources.ts), and all of
 * them as one (sources/inbox-source.ts).
 */
/** A record of the portal server's copy of a system, as its live stream sends it. */
export interface LiveRecord {
  id: string;
  record: unknown;
}

export interface QuestionSource {
  /** Stable identity of the backend (kind + API root); scopes drafts and caches. */
  readonly key: string;
  readonly label: string;
  /** Where question `id`'s draft is kept; without it, under `key` and `id`. */
  draftSlot?(id: string): DraftSlot;
  /** Every scope its drafts are kept under; without it, `key` with no prefix. */
  draftScopes?(): readonly DraftScope[];
  /**
   * Whether question `id` can be asked for and acted on through its system's API (its id fits in
   * an address); one that cannot is shown read-only as its list has it.
   */
  addressable?(id: string): boolean;
  list(params: ListParams, signal?: AbortSignal): Promise<QuestionList>;
  get(id: string, signal?: AbortSignal): Promise<Question>;
  resolve(id: string, input: ResolveInput): Promise<Question>;
  updateAnswer(id: string, input: AnswerInput): Promise<Question>;
  markNotApplicable(
    id: string,
    input: { validForSeconds?: number } & SentTogether,
  ): Promise<Question>;
  cancel(id: string): Promise<Question>;
  /**
   * The questions of records the live stream sent for source `sourceId` (a Reflexio call, a
   * Vertesia ask, a Bilby conversation), as a list read would give them; [] for another source.
   */
  mapRecords?(sourceId: string, records: readonly LiveRecord[]): Promise<Question[]>;
  /** The record question `id` belongs to in its source (a Bilby question: its conversation). */
  unitOf?(id: string): { sourceId: string; unit: string } | null;
}

export function draftSlotOf(source: QuestionSource, id: string): DraftSlot {
  return source.draftSlot?.(id) ?? { scope: source.key, id };
}

export function draftScopesOf(source: QuestionSource): readonly DraftScope[] {
  return source.draftScopes?.() ?? [{ scope: source.key, prefix: '' }];
}

export const QuestionSourceContext = createContext<QuestionSource | null>(null);

export function useQuestionSource(): QuestionSource {
  const source = use(QuestionSourceContext);
  if (!source) throw new Error('useQuestionSource needs a QuestionSourceContext provider');
  return source;
}
