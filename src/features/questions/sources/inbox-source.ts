import { ApiError, isApiError, isSignedOut } from '@/lib/api-client';
import type { Question, QuestionList, QuestionOrigin, SourceFailure } from '../api/schemas';
import type { ListParams, QuestionSource, SentTogether } from '../api/source';
import { draftIds, readDraft, removeDraft, writeDraft } from '../utils/draft-store';
import { type InboxMember, inboxIdentity, inboxRouting } from './lazy-source';

export type { InboxMember } from './lazy-source';

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
 * Drafts typed when every system's were kept under the inbox's joined key go to their own
 * system's key and id (inboxIdentity): before, adding a system to the config hid them. A draft
 * already in its new place is kept. Run when the inbox source is made: its first list, which
 * brings the rows the drafts are marked on, comes after.
 */
export function moveInboxDrafts(members: readonly InboxMember[]): void {
  const { draftSlot } = inboxRouting(members);
  const joined = members.map((member) => member.source.key).join('|');
  for (const id of draftIds(joined)) {
    const slot = draftSlot(id);
    if (!slot || (slot.scope === joined && slot.id === id)) continue;
    const draft = readDraft(joined, id);
    if (!draft) continue;
    const kept =
      readDraft(slot.scope, slot.id) !== null ||
      writeDraft(slot.scope, slot.id, draft.text, draft.savedAt, draft.seenClosed);
    // Storage full: it stays where it was, hidden but not lost.
    if (kept) removeDraft(joined, id);
  }
}

/**
 * Every configured system as one question source, its ids as inboxRouting makes them.
 * A list reads every source at once; one that fails is named in `failures` while the others'
 * questions are shown. Only when every source fails does the list fail.
 */
export function createInboxSource(members: readonly InboxMember[]): QuestionSource {
  moveInboxDrafts(members);
  const routing = inboxRouting(members);
  const { prefixOf } = routing;
  const outward = (member: InboxMember, question: Question): Question => {
    const prefix = prefixOf(member);
    return prefix ? { ...question, id: `${prefix}${question.id}` } : question;
  };

  function route(id: string): { member: InboxMember; nativeId: string } {
    const routed = routing.route(id);
    if (!routed) throw notFound(id);
    return routed;
  }

  const act =
    <I extends SentTogether>(
      call: (source: QuestionSource, id: string, input: I) => Promise<Question>,
    ) =>
    async (id: string, input: I) => {
      const { member, nativeId } = route(id);
      // The questions sent along with it are the same system's: in its own ids too.
      const together = input.together?.map((other) => route(other).nativeId);
      return outward(
        member,
        await call(member.source, nativeId, together ? { ...input, together } : input),
      );
    };

  // Each source's last list per query, shown (marked stale) while that source fails.
  const lastGood = new Map<string, QuestionList>();

  return {
    ...inboxIdentity(members),
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
            ...(isSignedOut(result.reason) ? { signedOut: true } : {}),
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
    updateAnswer: async (id, input) => {
      const { member, nativeId } = route(id);
      return outward(member, await member.source.updateAnswer(nativeId, input));
    },
    markNotApplicable: act((source, id, input) => source.markNotApplicable(id, input)),
    cancel: async (id) => {
      const { member, nativeId } = route(id);
      return outward(member, await member.source.cancel(nativeId));
    },
  };
}
