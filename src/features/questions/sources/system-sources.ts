import { ApiError } from '@/lib/api-client';
import type { Question, QuestionList, QuestionOrigin } from '../api/schemas';
import type { ListParams, QuestionSource } from '../api/source';
import { createBilbyClient } from './bilby/client';
import { parseBilbyNativeId } from './bilby/map';
import type { BilbyConfig } from './bilby/requests';
import type { SourceList, SourceQuestion } from './types';
import { createVertesiaClient } from './vertesia/client';
import type { VertesiaConfig } from './vertesia/requests';

/**
 * Vertesia and Bilby as question sources. Loaded only when one is configured, after the first
 * screen (see createLazySource): their clients and wire schemas are not in the first download.
 */

/** A question of another system in the portal's own record (its id the system's own). */
function toInboxQuestion(origin: QuestionOrigin, question: SourceQuestion): Question {
  return {
    id: question.nativeId,
    source: origin,
    status: question.status,
    toolName: 'ask_human',
    questionText: question.text,
    userId: question.user,
    tags: question.tags,
    answerFormat: null,
    args: null,
    scope: null,
    scopeHash: null,
    dedupKey: null,
    asker:
      origin.kind === 'bilby'
        ? parseBilbyNativeId(question.nativeId).conversationId
        : (question.agent ?? null),
    result: question.answerText === null ? null : { answer: question.answerText },
    supersededBy: null,
    createdAt: question.createdAt,
    resolvedAt: question.resolvedAt,
    expiresAt: question.expiresAt,
    validUntil: null,
  };
}

function toInboxList(origin: QuestionOrigin, list: SourceList, params: ListParams): QuestionList {
  const questions = list.questions
    .filter((question) => params.status === undefined || question.status === params.status)
    .map((question) => toInboxQuestion(origin, question));
  return { questions, unreadable: list.unreadable, truncated: list.truncated };
}

function cannot(origin: QuestionOrigin, reason: string): never {
  throw new ApiError({
    kind: 'validation',
    status: 0,
    detail: reason,
    method: 'POST',
    url: origin.id,
    message: reason,
  });
}

/** The one text answer the portal's answer form sends (`{answer}`). */
function answerText(result: Record<string, unknown>): string {
  return typeof result.answer === 'string' ? result.answer : JSON.stringify(result);
}

export function createVertesiaSource(
  origin: QuestionOrigin,
  config: VertesiaConfig,
  fetchImpl?: typeof fetch,
): QuestionSource {
  const client = createVertesiaClient({
    sourceId: origin.id,
    config,
    ...(fetchImpl ? { fetchImpl } : {}),
  });
  return {
    key: `vertesia:${config.apiBaseUrl}`,
    label: origin.label,
    list: async (params, signal) => toInboxList(origin, await client.list(signal), params),
    get: async (id, signal) => toInboxQuestion(origin, await client.get(id, signal)),
    async resolve(id, { result }) {
      const ask = await client.get(id);
      const text = answerText(result);
      // One answer for the whole ask: it goes with the first question.
      const answers = ask.prompts.map((_, index) => (index === 0 ? text : ''));
      return toInboxQuestion(origin, await client.resolve(ask, answers));
    },
    updateAnswer: () => cannot(origin, 'Vertesia asks can only be answered'),
    markNotApplicable: () => cannot(origin, 'Vertesia asks can only be answered'),
    cancel: () => cannot(origin, 'Vertesia asks can only be answered'),
  };
}

export function createBilbySource(
  origin: QuestionOrigin,
  config: BilbyConfig,
  fetchImpl?: typeof fetch,
): QuestionSource {
  const client = createBilbyClient({
    sourceId: origin.id,
    config,
    ...(fetchImpl ? { fetchImpl } : {}),
  });
  async function find(id: string, signal?: AbortSignal): Promise<SourceQuestion> {
    const { conversationId } = parseBilbyNativeId(id);
    const { questions } = await client.conversation(conversationId, signal);
    const found = questions.find((question) => question.nativeId === id);
    if (!found) {
      throw new ApiError({
        kind: 'not-found',
        status: 404,
        detail: 'This question has been answered or is no longer asked in its conversation.',
        method: 'GET',
        url: id,
      });
    }
    return found;
  }
  // Answered and dismissed questions leave the conversation: what the portal shows after sending.
  const sent = (question: SourceQuestion, answer: string): Question => ({
    ...toInboxQuestion(origin, question),
    status: 'resolved',
    resolvedAt: Date.now(),
    result: { answer },
  });
  return {
    key: `bilby:${config.apiBaseUrl}`,
    label: origin.label,
    list: async (params, signal) => toInboxList(origin, await client.list(signal), params),
    get: async (id, signal) => toInboxQuestion(origin, await find(id, signal)),
    async resolve(id, { result }) {
      const question = await find(id);
      const text = answerText(result);
      // A free-text answer to each of the call's questions ("other").
      await client.answer(
        question,
        question.prompts.map(() => ({ selected: [], custom: text })),
      );
      return sent(question, text);
    },
    updateAnswer: () =>
      cannot(origin, 'Bilby questions cannot be changed once answered: the agent has moved on.'),
    async markNotApplicable(id) {
      const question = await find(id);
      await client.dismiss(question);
      return sent(question, 'Not applicable');
    },
    cancel: () =>
      cannot(origin, 'Bilby has no way to cancel a question; mark it not applicable instead.'),
  };
}
