import type * as z from 'zod/mini';
import { ApiError, isApiError, parseResponse } from '@/lib/api-client';
import type { UnreadableRecord } from '../../api/schemas';
import { isAddressableId } from '../addressable';
import { copyVersion } from '../copy-version';
import { type OnResponse, sendWire, type WireRequest } from '../http';
import type { SourceList, SourceQuestion } from '../types';
import {
  acceptedSchema,
  conversationDetailSchema,
  conversationPageSchema,
  conversationSummarySchema,
  MAX_PAGES,
  readBilbyError,
  type ToolOutput,
} from './assumptions';
import { createJointOutputs, type Output } from './joint-outputs';
import { mapConversation, parseBilbyNativeId } from './map';
import {
  type BilbyConfig,
  buildAnswerOutput,
  buildDismissOutput,
  type Choice,
  getConversationRequest,
  listConversationsRequest,
  toolOutputsRequest,
} from './requests';

export interface BilbyClientOptions {
  sourceId: string;
  config: BilbyConfig;
  fetchImpl?: typeof fetch;
  /** Told of every response: the server clock reads its `Date` header. */
  onResponse?: OnResponse;
}

/** Conversations read at once after the list (browsers open about six connections a host). */
const DETAIL_CONCURRENCY = 4;

export const BUSY_MESSAGE =
  'The agent is still working on this conversation; try again in a moment.';

type Detail = z.infer<typeof conversationDetailSchema>;

/** A conversation's detail as last read, and the list entry it was read at. */
interface Known {
  updatedAt: number | null;
  pendingQuestionCount: number;
  detail: Detail;
}

/** Bilby as the portal assumes it (assumptions.ts): discover, read, answer or dismiss. */
export function createBilbyClient({ sourceId, config, fetchImpl, onResponse }: BilbyClientOptions) {
  // Each listed conversation's last detail: read again only when its list entry changed (its
  // updatedAt or pendingQuestionCount), or while its agent is running (that ends without a new
  // entry). A poll of 47 waiting conversations was 47 reads; unchanged, it is none. Holds only the
  // conversations the last list named.
  let known = new Map<string, Known>();
  // When each conversation was last answered into, so a list under way then (which may have read
  // it just before) does not keep what it read.
  let answers = 0;
  const answeredAt = new Map<string, number>();
  const forget = (conversationId: string) => {
    known.delete(conversationId);
    answeredAt.set(conversationId, ++answers);
  };

  const send = (request: WireRequest, signal?: AbortSignal) =>
    sendWire(request, {
      readError: readBilbyError,
      ...(fetchImpl ? { fetchImpl } : {}),
      ...(onResponse ? { onResponse } : {}),
      ...(signal ? { signal } : {}),
    });

  async function conversation(id: string, signal?: AbortSignal): Promise<Detail> {
    const request = getConversationRequest(config, id);
    return parseResponse(conversationDetailSchema, await send(request, signal), request);
  }

  /** One request; a 409 is an ApiError of kind "busy" with the busy message. */
  async function postOnce(conversationId: string, outputs: readonly Output[]) {
    const request = toolOutputsRequest(config, conversationId, [...outputs]);
    // Whatever comes of it, the conversation is read again at the next list.
    forget(conversationId);
    try {
      parseResponse(acceptedSchema, await send(request), request);
    } catch (error) {
      if (isApiError(error) && error.code === 'busy') {
        throw new ApiError({
          kind: 'busy',
          status: error.status,
          method: error.method,
          url: error.url,
          code: 'busy',
          detail: BUSY_MESSAGE,
          retryAfterMs: error.retryAfterMs,
        });
      }
      throw error;
    }
  }

  const joint = createJointOutputs(async (conversationId, outputs) => {
    try {
      await postOnce(conversationId, outputs);
      return new Map();
    } catch (error) {
      if (outputs.length < 2 || !isApiError(error) || error.kind !== 'not-found') {
        throw error;
      }
      // Bilby refuses the whole request when one of its calls was answered elsewhere meanwhile:
      // that one fails as "not found"; the others are sent without it, once.
      const { pendingQuestions } = await conversation(conversationId);
      const still = new Set(
        pendingQuestions.map((call) => (call as { toolCallId?: unknown } | null)?.toolCallId),
      );
      const failures = new Map<string, unknown>();
      for (const { toolCallId } of outputs) {
        if (!still.has(toolCallId)) failures.set(toolCallId, error);
      }
      if (failures.size === 0) throw error;
      const rest = outputs.filter(({ toolCallId }) => still.has(toolCallId));
      if (rest.length > 0) {
        try {
          await postOnce(conversationId, rest);
        } catch (restError) {
          for (const { toolCallId } of rest) failures.set(toolCallId, restError);
        }
      }
      return failures;
    }
  });

  function post(question: SourceQuestion, output: ToolOutput, together?: readonly string[]) {
    const { conversationId, toolCallId } = parseBilbyNativeId(question.nativeId);
    const calls = (together ?? [])
      .map(parseBilbyNativeId)
      .filter((other) => other.conversationId === conversationId)
      .map((other) => other.toolCallId);
    return joint.post(conversationId, toolCallId, output, calls);
  }

  return {
    /** Every page (at most MAX_PAGES), then each conversation that has questions waiting. */
    async list(signal?: AbortSignal): Promise<SourceList> {
      const start = answers;
      const listed: { id: string; updatedAt: number | null; pendingQuestionCount: number }[] = [];
      const unreadable: UnreadableRecord[] = [];
      let cursor: string | null = null;
      let pages = 0;
      let version: number | null = null;
      do {
        const request = listConversationsRequest(config, cursor);
        const body = await send(request, signal);
        const page = parseResponse(conversationPageSchema, body, request);
        // The portal server's copy answers in one page, saying its version.
        if (pages === 0) version = copyVersion(body);
        for (const item of page.conversations) {
          const parsed = conversationSummarySchema.safeParse(item);
          if (!parsed.success) {
            const rawId = (item as { id?: unknown } | null)?.id;
            unreadable.push({
              index: unreadable.length,
              id: typeof rawId === 'string' ? rawId : null,
              problems: parsed.error.issues.map(
                (issue) => `${issue.path.join('.') || 'record'}: ${issue.message}`,
              ),
            });
          } else if ((parsed.data.pendingQuestionCount ?? 0) === 0) {
            // Nothing to answer there.
          } else if (!isAddressableId(parsed.data.id)) {
            // `conversations/..` is the API root: never asked for; its questions are listed as
            // unreadable instead of failing every Bilby question with one 404.
            unreadable.push({
              index: unreadable.length,
              id: parsed.data.id,
              problems: [
                'id: this conversation id cannot be put in a web address, so its questions cannot be read here',
              ],
            });
          } else {
            listed.push({
              id: parsed.data.id,
              updatedAt: parsed.data.updatedAt,
              pendingQuestionCount: parsed.data.pendingQuestionCount ?? 0,
            });
          }
        }
        cursor = page.nextCursor ?? null;
        pages += 1;
      } while (cursor !== null && pages < MAX_PAGES);

      // The conversations are read a few at a time (not one after another: a list of ten
      // conversations would take ten round trips), and mapped in the list's order. One whose
      // entry is as it was when it was last read is not read again.
      const details: (Detail | null)[] = [];
      const fresh = new Map<string, Known>();
      const toRead: number[] = [];
      listed.forEach((entry, index) => {
        const last = known.get(entry.id);
        const same =
          last &&
          entry.updatedAt !== null &&
          last.updatedAt === entry.updatedAt &&
          last.pendingQuestionCount === entry.pendingQuestionCount &&
          last.detail.status !== 'running';
        if (same) {
          details[index] = last.detail;
          fresh.set(entry.id, last);
        } else toRead.push(index);
      });
      let next = 0;
      const worker = async () => {
        while (next < toRead.length) {
          const index = toRead[next++] as number;
          const entry = listed[index] as (typeof listed)[number];
          const id = entry.id;
          try {
            const detail = await conversation(id, signal);
            details[index] = detail;
            fresh.set(id, { ...entry, detail });
          } catch (error) {
            details[index] = null;
            // Gone between the list and now: nothing to answer there.
            if (isApiError(error) && error.kind === 'not-found') continue;
            // The session, the server or the network: the whole source is unavailable.
            if (
              !isApiError(error) ||
              !['bad-response', 'validation', 'conflict'].includes(error.kind)
            )
              throw error;
            // One conversation the server cannot give back as the portal reads it: that one is
            // listed as unreadable, the others' questions are shown.
            unreadable.push({
              index: unreadable.length,
              id,
              problems: [`conversation: ${error.message}`],
            });
          }
        }
      };
      await Promise.all(
        Array.from({ length: Math.min(DETAIL_CONCURRENCY, toRead.length) }, worker),
      );
      for (const [id, at] of answeredAt) {
        if (at > start) fresh.delete(id);
        else answeredAt.delete(id);
      }
      // A conversation no longer listed with questions is forgotten with its detail.
      known = fresh;
      const questions: SourceQuestion[] = [];
      for (const detail of details) {
        if (!detail) continue;
        const mapped = mapConversation(sourceId, detail);
        questions.push(...mapped.questions);
        unreadable.push(...mapped.unreadable);
      }
      const list: SourceList = { questions, unreadable, truncated: cursor !== null };
      return version === null || pages > 1 ? list : { ...list, version };
    },

    /** Conversations the portal server's live stream sent: their questions, as the list's. */
    mapRecords(records: readonly unknown[]): SourceQuestion[] {
      return records.flatMap((record) => {
        const parsed = conversationDetailSchema.safeParse(record);
        return parsed.success ? mapConversation(sourceId, parsed.data).questions : [];
      });
    },

    /** The questions of one conversation (after a deep link or a refresh of one question). */
    async conversation(conversationId: string, signal?: AbortSignal) {
      return mapConversation(sourceId, await conversation(conversationId, signal));
    },

    /**
     * 202 resolves; a 409 is an ApiError of kind "busy" with the busy message. With
     * `together` (native ids of the same batch), the conversation's calls go in one request.
     */
    answer(
      question: SourceQuestion,
      choices: readonly Choice[],
      together?: readonly string[],
    ): Promise<void> {
      return post(question, buildAnswerOutput(question.prompts, choices), together);
    },

    /** "Not applicable", sent as `status: "dismissed"`. */
    dismiss(question: SourceQuestion, together?: readonly string[]): Promise<void> {
      return post(question, buildDismissOutput(), together);
    },

    /** A question of a batch failed before it was sent: the others go without it. */
    withdraw(nativeId: string): void {
      const { conversationId, toolCallId } = parseBilbyNativeId(nativeId);
      joint.withdraw(conversationId, toolCallId);
    },
  };
}
