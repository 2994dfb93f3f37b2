import { ApiError } from '@/lib/api-client';
import type { PromptAnswer, Question, QuestionList, QuestionOrigin } from '../api/schemas';
import type { ListParams, QuestionSource, ResolveInput } from '../api/source';
import { bilbyCapabilities } from './bilby/capabilities';
import { createBilbyClient } from './bilby/client';
import { parseBilbyNativeId } from './bilby/map';
import { type BilbyConfig, buildBilbySummary, DISMISSED_SUMMARY } from './bilby/requests';
import type { OnResponse } from './http';
import type { SourceList, SourceQuestion } from './types';
import { vertesiaCapabilities } from './vertesia/capabilities';
import { createVertesiaClient } from './vertesia/client';
import type { VertesiaConfig } from './vertesia/requests';

/** A system's settings, and who is told of each of its responses (the server clock). */
type Timed<Config> = Config & { onResponse?: OnResponse };

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
    askerName: question.askerName,
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
    // A dismissed Bilby question leaves its conversation: only what this browser sent (below) is
    // not applicable.
    notApplicable: false,
    supersededBy: null,
    createdAt: question.createdAt,
    resolvedAt: question.resolvedAt,
    expiresAt: question.expiresAt,
    validUntil: null,
    prompts: question.prompts,
    busy: question.busy,
  };
}

function toInboxList(origin: QuestionOrigin, list: SourceList, params: ListParams): QuestionList {
  const questions = list.questions
    .filter((question) => params.status === undefined || question.status === params.status)
    .map((question) => toInboxQuestion(origin, question));
  return {
    questions,
    unreadable: list.unreadable,
    truncated: list.truncated,
    ...(list.version === undefined ? {} : { versions: { [origin.id]: list.version } }),
  };
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

/** One answer per prompt: the form's own when it sent them, else the one text for every prompt. */
function promptAnswers(question: SourceQuestion, input: ResolveInput): readonly PromptAnswer[] {
  if (input.answers) {
    if (input.answers.length !== question.prompts.length) {
      throw new RangeError(
        `${question.prompts.length} questions but ${input.answers.length} answers`,
      );
    }
    return input.answers;
  }
  const text = answerText(input.result);
  return question.prompts.map(() => ({ selected: [], custom: text }));
}

export function createVertesiaSource(
  origin: QuestionOrigin,
  config: Timed<VertesiaConfig>,
  fetchImpl?: typeof fetch,
): QuestionSource {
  const client = createVertesiaClient({
    sourceId: origin.id,
    config,
    ...(fetchImpl ? { fetchImpl } : {}),
    ...(config.onResponse ? { onResponse: config.onResponse } : {}),
  });
  return {
    key: `vertesia:${config.apiBaseUrl}`,
    label: origin.label,
    list: async (params, signal) => toInboxList(origin, await client.list(signal), params),
    mapRecords: async (sourceId, records) =>
      sourceId === origin.id
        ? client
            .mapRecords(records.map((item) => item.record))
            .map((question) => toInboxQuestion(origin, question))
        : [],
    unitOf: (id) => ({ sourceId: origin.id, unit: id }),
    get: async (id, signal) => toInboxQuestion(origin, await client.get(id, signal)),
    async resolve(id, input) {
      const ask = await client.get(id);
      // Each question's own answer; one response holds them all (see buildVertesiaResponse).
      const answers = promptAnswers(ask, input).map((answer) => answer.custom);
      return toInboxQuestion(origin, await client.resolve(ask, answers));
    },
    updateAnswer: () => cannot(origin, vertesiaCapabilities.edit.reason),
    markNotApplicable: () => cannot(origin, vertesiaCapabilities.notApplicable.reason),
    cancel: () => cannot(origin, vertesiaCapabilities.cancel.reason),
  };
}

/**
 * How long a question this browser answered stays in Bilby's list after it was sent (Bilby drops
 * it from the conversation at once): the refresh right after the answer keeps it, shown as
 * answered; the next one drops it.
 */
export const BILBY_KEEP_SENT_MS = 5_000;
/** How many of them the drawer can still show after that ("answered here"), the newest kept. */
export const BILBY_SENT_REMEMBERED = 200;

export function createBilbySource(
  origin: QuestionOrigin,
  config: Timed<BilbyConfig>,
  fetchImpl?: typeof fetch,
  now: () => number = Date.now,
  remembered = BILBY_SENT_REMEMBERED,
): QuestionSource {
  const client = createBilbyClient({
    sourceId: origin.id,
    config,
    ...(fetchImpl ? { fetchImpl } : {}),
    ...(config.onResponse ? { onResponse: config.onResponse } : {}),
  });
  // What this browser answered or dismissed: Bilby forgets it, the reviewer should not have to.
  const sent = new Map<string, { question: Question; at: number }>();
  // The questions of a batch (a bulk action, a look-alike group) each read their conversation
  // before sending, at the same moment: one request serves those of one conversation.
  const reading = new Map<string, ReturnType<typeof client.conversation>>();
  function readConversation(conversationId: string, signal?: AbortSignal) {
    if (signal) return client.conversation(conversationId, signal);
    let shared = reading.get(conversationId);
    if (!shared) {
      shared = client.conversation(conversationId).finally(() => reading.delete(conversationId));
      reading.set(conversationId, shared);
    }
    return shared;
  }
  async function find(id: string, signal?: AbortSignal): Promise<SourceQuestion> {
    const { conversationId } = parseBilbyNativeId(id);
    const { questions } = await readConversation(conversationId, signal);
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
  /** What must be read before sending; when it fails, the rest of the batch goes without this one. */
  async function beforeSending<T>(
    id: string,
    together: readonly string[] | undefined,
    read: () => Promise<T>,
  ): Promise<T> {
    try {
      return await read();
    } catch (error) {
      if (together) client.withdraw(id);
      throw error;
    }
  }
  const remember = (question: SourceQuestion, summary: string, notApplicable = false): Question => {
    const at = now();
    const record: Question = {
      ...toInboxQuestion(origin, question),
      status: 'resolved',
      resolvedAt: at,
      result: { answer: summary },
      notApplicable,
      busy: false,
    };
    sent.delete(question.nativeId);
    sent.set(question.nativeId, { question: record, at });
    // A page left open for days answers many: the oldest are forgotten (a Map keeps its order).
    for (const old of sent.keys()) {
      if (sent.size <= remembered) break;
      sent.delete(old);
    }
    return record;
  };
  return {
    key: `bilby:${config.apiBaseUrl}`,
    label: origin.label,
    async list(params, signal) {
      const startedAt = now();
      const list = toInboxList(origin, await client.list(signal), params);
      const live = new Set(list.questions.map((question) => question.id));
      const kept: Question[] = [];
      for (const [id, entry] of sent) {
        if (startedAt - entry.at > BILBY_KEEP_SENT_MS) continue;
        const { question } = entry;
        if (!live.has(id) && (params.status === undefined || params.status === question.status)) {
          kept.push(question);
        }
      }
      return kept.length > 0 ? { ...list, questions: [...list.questions, ...kept] } : list;
    },
    async mapRecords(sourceId, records) {
      if (sourceId !== origin.id) return [];
      const questions = client
        .mapRecords(records.map((item) => item.record))
        .map((question) => toInboxQuestion(origin, question));
      // What this browser just answered in these conversations stays a moment, as in a list.
      const at = now();
      const conversations = new Set(records.map((item) => item.id));
      const live = new Set(questions.map((question) => question.id));
      for (const [id, entry] of sent) {
        if (at - entry.at > BILBY_KEEP_SENT_MS || live.has(id)) continue;
        if (conversations.has(parseBilbyNativeId(id).conversationId))
          questions.push(entry.question);
      }
      return questions;
    },
    unitOf: (id) => {
      const at = id.indexOf(':');
      return at > 0 ? { sourceId: origin.id, unit: id.slice(0, at) } : null;
    },
    async get(id, signal) {
      try {
        return toInboxQuestion(origin, await find(id, signal));
      } catch (error) {
        // Answered from here: show what was sent rather than "no longer exists".
        const mine = sent.get(id);
        if (mine && error instanceof ApiError && error.kind === 'not-found') return mine.question;
        throw error;
      }
    },
    async resolve(id, input) {
      const { question, answers } = await beforeSending(id, input.together, async () => {
        const found = await find(id);
        return { question: found, answers: promptAnswers(found, input) };
      });
      await client.answer(question, answers, input.together);
      return remember(question, buildBilbySummary(question.prompts, answers));
    },
    updateAnswer: () => cannot(origin, bilbyCapabilities.edit.reason),
    async markNotApplicable(id, input) {
      const question = await beforeSending(id, input.together, () => find(id));
      await client.dismiss(question, input.together);
      return remember(question, DISMISSED_SUMMARY, true);
    },
    cancel: () => cannot(origin, bilbyCapabilities.cancel.reason),
  };
}
