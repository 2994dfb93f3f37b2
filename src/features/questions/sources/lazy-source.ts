import type { QuestionOrigin } from '../api/schemas';
import type { QuestionSource } from '../api/source';

/** One configured system and its question source, which speaks in that system's own ids. */
export interface InboxMember {
  origin: QuestionOrigin;
  source: QuestionSource;
}

/** The key (drafts, caches, the shared poller) and label of several systems read as one. */
export function inboxIdentity(members: readonly InboxMember[]): { key: string; label: string } {
  return {
    key: members.map((member) => member.source.key).join('|'),
    label: members.map((member) => member.origin.label).join(', '),
  };
}

/**
 * A source whose code loads on first use (`load` runs once; a failed load is tried again on the
 * next call): Vertesia's and Bilby's adapters stay out of the first download.
 */
export function createLazySource(
  identity: { key: string; label: string },
  load: () => Promise<QuestionSource>,
): QuestionSource {
  let loading: Promise<QuestionSource> | null = null;
  const source = () => {
    loading ??= load().catch((error: unknown) => {
      loading = null;
      throw error;
    });
    return loading;
  };
  return {
    ...identity,
    list: async (params, signal) => (await source()).list(params, signal),
    get: async (id, signal) => (await source()).get(id, signal),
    resolve: async (id, input) => (await source()).resolve(id, input),
    updateAnswer: async (id, input) => (await source()).updateAnswer(id, input),
    markNotApplicable: async (id, input) => (await source()).markNotApplicable(id, input),
    cancel: async (id) => (await source()).cancel(id),
  };
}
