import { createContext, use } from 'react';
import type { Question, QuestionList, QuestionStatus } from './schemas';

export interface ListParams {
  status?: QuestionStatus;
  limit: number;
}

export interface ResolveInput {
  result: Record<string, unknown>;
  validForSeconds?: number;
}

export interface AnswerInput {
  answer: string;
  validForSeconds?: number;
}

/**
 * The seam between the inbox and an agent platform's question API: six operations on one record
 * type. Reflexio is the only source today; Vertesia or Bilby would be further implementations.
 */
export interface QuestionSource {
  /** Stable identity of the backend (kind + API root); scopes drafts and caches. */
  readonly key: string;
  readonly label: string;
  list(params: ListParams, signal?: AbortSignal): Promise<QuestionList>;
  get(id: string, signal?: AbortSignal): Promise<Question>;
  resolve(id: string, input: ResolveInput): Promise<Question>;
  updateAnswer(id: string, input: AnswerInput): Promise<Question>;
  markNotApplicable(id: string, input: { validForSeconds?: number }): Promise<Question>;
  cancel(id: string): Promise<Question>;
}

export const QuestionSourceContext = createContext<QuestionSource | null>(null);

export function useQuestionSource(): QuestionSource {
  const source = use(QuestionSourceContext);
  if (!source) throw new Error('useQuestionSource needs a QuestionSourceContext provider');
  return source;
}
