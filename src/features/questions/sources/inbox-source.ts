import { ApiError, isApiError } from '@/lib/api-client';
import type { Question, QuestionList, QuestionOrigin, SourceFailure } from '../api/schemas';
import type { ListParams, QuestionSource } from '../api/source';
import { createBilbyClient } from './bilby/client';
import { parseBilbyNativeId } from './bilby/map';
import type { BilbyConfig } from './bilby/requests';
import type { SourceList, SourceQuestion } from './types';
import { createVertesiaClient } from './vertesia/client';
import type { VertesiaConfig } from './vertesia/requests';

/** One configured system and its question source, which speaks in that system's own ids. */
export interface InboxMember {
  origin: QuestionOrigin;
  source: QuestionSource;
}

/** "Vertesia is unavailable (HTTP 503)": what the list says of a source it could not read. */
export function describeSourceFailure(origin: QuestionOrigin, error: unknown): string {
  if (!isApiError(error)) return `${origin.label} could not be read`;
  if (error.kind === 'auth') return `${origin.label}: the session has ended (HTTP ${error.status})`;
  if (error.kind === 'network') return `${origin.label} could not be reached`;
  if (error.kind === 'bad-response' && error.status === 0) {
    return `${origin.label} sent an answer the portal cannot read`;
  }
  return `${origin.label} is unavailable (HTTP ${error.status})`;
}

function notFound(id: string): ApiError {
  return new ApiError({
    kind: 'not-found',
    status: 404,
    detail: 'No configured source has this question.',
    method: 'GET',
    url: id,
  });
}

/**
 * Every configured system as one question source. The first Reflexio source keeps its ids as they
 * are (so existing `/questions/<id>` links keep working); the others' ids are `<sourceId>:<id>`.
 * A list reads every source at once; one that fails is named in `failures` while the others'
 * questions are shown. Only when every source fails does the list fail.
 */
export function createInboxSource(members: readonly InboxMember[]): QuestionSource {
  const plain = members.find((member) => member.origin.kind === 'reflexio') ?? null;
  const prefixOf = (member: InboxMember) => (member === plain ? '' : `${member.origin.id}:`);
  const outward = (member: InboxMember, question: Question): Question => {
    const prefix = prefixOf(member);
    return prefix ? { ...question, id: `${prefix}${question.id}` } : question;
  };

  function route(id: string): { member: InboxMember; nativeId: string } {
    const at = id.indexOf(':');
    if (at > 0) {
      const named = members.find(
        (member) => member !== plain && member.origin.id === id.slice(0, at),
      );
      if (named) return { member: named, nativeId: id.slice(at + 1) };
    }
    if (plain) return { member: plain, nativeId: id };
    throw notFound(id);
  }

  const act =
    <I>(call: (source: QuestionSource, id: string, input: I) => Promise<Question>) =>
    async (id: string, input: I) => {
      const { member, nativeId } = route(id);
      return outward(member, await call(member.source, nativeId, input));
    };

  // Each source's last list per query, shown (marked stale) while that source fails.
  const lastGood = new Map<string, QuestionList>();

  return {
    key: members.map((member) => member.source.key).join('|'),
    label: members.map((member) => member.origin.label).join(', '),
    async list(params: ListParams, signal?: AbortSignal): Promise<QuestionList> {
      const settled = await Promise.allSettled(
        members.map((member) => member.source.list(params, signal)),
      );
      const failures: SourceFailure[] = [];
      const merged: QuestionList = { questions: [], unreadable: [], truncated: false, failures };
      settled.forEach((result, index) => {
        const member = members[index] as InboxMember;
        const cacheKey = `${index}|${params.status ?? 'all'}|${params.limit}`;
        let list: QuestionList;
        if (result.status === 'rejected') {
          const stale = lastGood.get(cacheKey);
          failures.push({
            source: member.origin,
            message: describeSourceFailure(member.origin, result.reason),
            stale: stale !== undefined,
          });
          if (!stale) return;
          list = stale;
        } else {
          list = result.value;
          lastGood.set(cacheKey, list);
        }
        for (const question of list.questions) {
          merged.questions.push(outward(member, question));
        }
        const prefix = prefixOf(member);
        for (const record of list.unreadable) {
          merged.unreadable.push({
            ...record,
            id: record.id === null ? null : `${prefix}${record.id}`,
          });
        }
        merged.truncated ||= list.truncated;
      });
      // Nothing to show from any source: the list's own error screen says why.
      const firstFailure = settled.find((result) => result.status === 'rejected');
      if (failures.length === members.length && firstFailure) throw firstFailure.reason;
      return merged;
    },
    get: async (id, signal) => {
      const { member, nativeId } = route(id);
      return outward(member, await member.source.get(nativeId, signal));
    },
    resolve: act((source, id, input) => source.resolve(id, input)),
    updateAnswer: act((source, id, input) => source.updateAnswer(id, input)),
    markNotApplicable: act((source, id, input) => source.markNotApplicable(id, input)),
    cancel: async (id) => {
      const { member, nativeId } = route(id);
      return outward(member, await member.source.cancel(nativeId));
    },
  };
}

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
