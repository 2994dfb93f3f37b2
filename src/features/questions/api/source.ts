import { createContext, use } from 'react';
import type { PromptAnswer, Question, QuestionList, QuestionStatus } from './schemas';

export interface ListParams {
  status?: QuestionStatus;
  limit: number;
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

/**
 * The seam between the inbox and an agent platform's question API: six operations on one record
 * type: Reflexio (api/requests.ts), Vertesia and Bilby (sources/system-sources.ts), and all of
 * them as one (sources/inbox-source.ts).
 */
export interface QuestionSource {
  /** Stable identity of the backend (kind + API root); scopes drafts and caches. */
  readonly key: string;
  readonly label: string;
  list(params: ListParams, signal?: AbortSignal): Promise<QuestionList>;
  get(id: string, signal?: AbortSignal): Promise<Question>;
  resolve(id: string, input: ResolveInput): Promise<Question>;
  updateAnswer(id: string, input: AnswerInput): Promise<Question>;
  markNotApplicable(
    id: string,
    input: { validForSeconds?: number } & SentTogether,
  ): Promise<Question>;
  cancel(id: string): Promise<Question>;
}

export const QuestionSourceContext = createContext<QuestionSource | null>(null);

export function useQuestionSource(): QuestionSource {
  const source = use(QuestionSourceContext);
  if (!source) throw new Error('useQuestionSource needs a QuestionSourceContext provider');
  return source;
}
