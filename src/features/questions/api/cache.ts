import type { QueryClient } from '@tanstack/react-query';
import { compareNewest } from '../utils/filters';
import { type ListKey, questionKeys } from './queries';
import type { Question, QuestionList } from './schemas';

/** Puts a question where it now belongs in one cached list: replaced, inserted, or dropped. */
export function upsertIntoList(list: QuestionList, key: ListKey, question: Question): QuestionList {
  const belongs = key.status === 'all' || question.status === key.status;
  const index = list.questions.findIndex((q) => q.id === question.id);
  if (!belongs) {
    return index === -1
      ? list
      : { ...list, questions: list.questions.filter((q) => q.id !== question.id) };
  }
  if (index !== -1) {
    const questions = list.questions.slice();
    questions[index] = question;
    return { ...list, questions };
  }
  return { ...list, questions: [...list.questions, question].sort(compareNewest) };
}

/**
 * Puts an action's change into a cached list without making the list look freshly read: "Updated
 * …" and "Refresh failed" go by the server's last answer, and an action is not one.
 */
function rewriteList(queryClient: QueryClient, queryKey: readonly unknown[], list: QuestionList) {
  const readAt = queryClient.getQueryState(queryKey)?.dataUpdatedAt;
  queryClient.setQueryData(queryKey, list, readAt ? { updatedAt: readAt } : undefined);
}

/** Writes one question into its detail entry and every cached list at once. */
export function writeQuestion(queryClient: QueryClient, question: Question): void {
  queryClient.setQueryData(questionKeys.detail(question.id), question);
  for (const [queryKey, list] of queryClient.getQueriesData<QuestionList>({
    queryKey: questionKeys.lists(),
  })) {
    if (!list) continue;
    const key = queryKey[2] as ListKey;
    rewriteList(queryClient, queryKey, upsertIntoList(list, key, question));
  }
}

/** The question no longer exists on the server: drop it everywhere. */
export function forgetQuestion(queryClient: QueryClient, id: string): void {
  for (const [queryKey, list] of queryClient.getQueriesData<QuestionList>({
    queryKey: questionKeys.lists(),
  })) {
    if (!list) continue;
    rewriteList(queryClient, queryKey, {
      ...list,
      questions: list.questions.filter((q) => q.id !== id),
    });
  }
}

/** The freshest copy the cache holds: the detail entry, else any list that has it. */
export function findCachedQuestion(queryClient: QueryClient, id: string): Question | undefined {
  const detail = queryClient.getQueryData<Question>(questionKeys.detail(id));
  if (detail) return detail;
  for (const [, list] of queryClient.getQueriesData<QuestionList>({
    queryKey: questionKeys.lists(),
  })) {
    const found = list?.questions.find((q) => q.id === id);
    if (found) return found;
  }
  return undefined;
}
