import { ApiError, isApiError, isSignedOut } from '@/lib/api-client';
import type {
  Question,
  QuestionList,
  QuestionOrigin,
  SourceFailure,
  SourceLoading,
} from '../api/schemas';
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
 * questions are shown. Only when every source fails does the list fail. A list never loaded
 * before is handed out as each source answers (`onPartial`), the rest named in `loading`.
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
      forgetShared();
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

  // Vertesia and Bilby return every question whatever the status asked for: the view's list and
  // the unfiltered one (counts) share one request per system on a first load. A read is shared
  // while it is in flight, and just after, by a list of another status that has never loaded;
  // an action through the inbox forgets it, so a list asked for after an answer is a new read.
  const SHARE_MS = 5_000;
  const shared = new Map<InboxMember, { read: Promise<QuestionList>; doneAt: number | null }>();
  const readWhole = (member: InboxMember, params: ListParams, reuseDone: boolean) => {
    const last = shared.get(member);
    if (
      last &&
      (last.doneAt === null || (reuseDone && performance.now() - last.doneAt < SHARE_MS))
    ) {
      return last.read;
    }
    // Not tied to one caller's signal: another list may be waiting on the same read.
    const entry = {
      read: member.source.list({ limit: params.limit }),
      doneAt: null as number | null,
    };
    shared.set(member, entry);
    entry.read.then(
      () => {
        entry.doneAt = performance.now();
      },
      () => {
        if (shared.get(member) === entry) shared.delete(member);
      },
    );
    return entry.read;
  };
  const readMember = async (
    member: InboxMember,
    params: ListParams,
    firstOfKey: boolean,
    signal?: AbortSignal,
  ): Promise<QuestionList> => {
    const plain = { limit: params.limit, ...(params.status ? { status: params.status } : {}) };
    if (member.origin.kind === 'reflexio') return member.source.list(plain, signal);
    const whole = await readWhole(member, params, firstOfKey);
    signal?.throwIfAborted();
    if (params.status === undefined) return whole;
    return { ...whole, questions: whole.questions.filter((q) => q.status === params.status) };
  };
  const forgetShared = () => shared.clear();

  return {
    ...inboxIdentity(members),
    async list(params: ListParams, signal?: AbortSignal): Promise<QuestionList> {
      const since = Date.now();
      const keyOf = (index: number) => `${index}|${params.status ?? 'all'}|${params.limit}`;
      // Never loaded (no system has answered it): a system failing on every refresh does not
      // make each refresh paint part by part.
      const firstOfKey = members.every((_, index) => !lastGood.has(keyOf(index)));
      const settled: (PromiseSettledResult<QuestionList> | undefined)[] = members.map(
        () => undefined,
      );
      // The rows each source has on screen when this browser has not read it itself (the
      // server's first screen): what a failing source keeps, as it would keep a list it had read.
      const shownOf = (member: InboxMember) =>
        params.shown?.questions.filter((question) => routing.route(question.id)?.member === member);
      const merge = (): QuestionList => {
        const failures: SourceFailure[] = [];
        const loading: SourceLoading[] = [];
        const merged: QuestionList = { questions: [], unreadable: [], truncated: false, failures };
        settled.forEach((result, index) => {
          const member = members[index] as InboxMember;
          const cacheKey = keyOf(index);
          let list: QuestionList;
          if (result === undefined) {
            loading.push({ source: member.origin, since });
            const stale = lastGood.get(cacheKey);
            if (!stale) return;
            list = stale;
          } else if (result.status === 'rejected') {
            const stale = lastGood.get(cacheKey);
            const shown = stale ? undefined : shownOf(member);
            failures.push({
              source: member.origin,
              message: describeSourceFailure(member.origin, result.reason),
              stale: stale !== undefined || (shown?.length ?? 0) > 0,
              ...(isSignedOut(result.reason) ? { signedOut: true } : {}),
            });
            if (shown) merged.questions.push(...shown);
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
          if (list.versions) merged.versions = { ...merged.versions, ...list.versions };
        });
        if (loading.length > 0) merged.loading = loading;
        return merged;
      };
      await Promise.all(
        members.map((member, index) =>
          readMember(member, params, firstOfKey, signal)
            .then(
              (value) => {
                settled[index] = { status: 'fulfilled', value };
              },
              (reason: unknown) => {
                settled[index] = { status: 'rejected', reason };
              },
            )
            .then(() => {
              // Only a list that has not loaded before paints part by part: a refresh keeps the
              // rows on screen until every source has answered.
              if (!params.onPartial || !firstOfKey || signal?.aborted) return;
              if (settled.every((result) => result !== undefined)) return;
              params.onPartial(merge());
            }),
        ),
      );
      const merged = merge();
      // Nothing to show from any source: the list's own error screen says why.
      const firstFailure = settled.find((result) => result?.status === 'rejected');
      if (merged.failures?.length === members.length && firstFailure?.status === 'rejected') {
        throw firstFailure.reason;
      }
      return merged;
    },
    get: async (id, signal) => {
      const { member, nativeId } = route(id);
      return outward(member, await member.source.get(nativeId, signal));
    },
    resolve: act((source, id, input) => source.resolve(id, input)),
    updateAnswer: async (id, input) => {
      forgetShared();
      const { member, nativeId } = route(id);
      return outward(member, await member.source.updateAnswer(nativeId, input));
    },
    markNotApplicable: act((source, id, input) => source.markNotApplicable(id, input)),
    cancel: async (id) => {
      forgetShared();
      const { member, nativeId } = route(id);
      return outward(member, await member.source.cancel(nativeId));
    },
    async mapRecords(sourceId, records) {
      const member = members.find((candidate) => candidate.origin.id === sourceId);
      if (!member?.source.mapRecords) return [];
      const questions = await member.source.mapRecords(sourceId, records);
      return questions.map((question) => outward(member, question));
    },
  };
}
