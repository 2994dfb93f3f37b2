import type { QuestionOrigin } from '../api/schemas';
import type { DraftScope, DraftSlot, QuestionSource } from '../api/source';
import { isAddressable } from './addressable';

/** One configured system and its question source, which speaks in that system's own ids. */
export interface InboxMember {
  origin: QuestionOrigin;
  source: QuestionSource;
}

/**
 * How several systems' ids are one inbox's: the first Reflexio source keeps its ids as they are
 * (so existing `/questions/<id>` links keep working); the others' are `<sourceId>:<id>`.
 */
export function inboxRouting(members: readonly InboxMember[]) {
  const plain = members.find((member) => member.origin.kind === 'reflexio') ?? null;
  const prefixOf = (member: InboxMember) => (member === plain ? '' : `${member.origin.id}:`);
  /** The member `id` belongs to and its id there; null when no configured system has it. */
  const route = (id: string): { member: InboxMember; nativeId: string } | null => {
    const at = id.indexOf(':');
    if (at > 0) {
      const named = members.find(
        (member) => member !== plain && member.origin.id === id.slice(0, at),
      );
      if (named) return { member: named, nativeId: id.slice(at + 1) };
    }
    return plain ? { member: plain, nativeId: id } : null;
  };
  /** Where `id`'s draft is kept: its system's key and its id there; null when no system has it. */
  const draftSlot = (id: string): DraftSlot | null => {
    const routed = route(id);
    return routed && { scope: routed.member.source.key, id: routed.nativeId };
  };
  return { plain, prefixOf, route, draftSlot };
}

/**
 * The key (caches, the shared poller) and label of several systems read as one, and where their
 * drafts are kept: under each system's own key and id, so a system added to or removed from the
 * config leaves the others' drafts where they were.
 */
export function inboxIdentity(
  members: readonly InboxMember[],
): Pick<QuestionSource, 'key' | 'label' | 'draftSlot' | 'draftScopes' | 'addressable' | 'unitOf'> {
  const { prefixOf, draftSlot, route } = inboxRouting(members);
  const scopes: DraftScope[] = members.map((member) => ({
    scope: member.source.key,
    prefix: prefixOf(member),
  }));
  return {
    key: members.map((member) => member.source.key).join('|'),
    label: members.map((member) => member.origin.label).join(', '),
    draftSlot: (id) => draftSlot(id) ?? { scope: 'unrouted', id },
    draftScopes: () => scopes,
    addressable(id) {
      const routed = route(id);
      return routed !== null && isAddressable(routed.member.origin.kind, routed.nativeId);
    },
    unitOf(id) {
      const routed = route(id);
      if (!routed) return null;
      const { member, nativeId } = routed;
      // A Bilby question is one tool call of a conversation: the conversation is the record.
      const at = nativeId.indexOf(':');
      const unit = member.origin.kind === 'bilby' && at > 0 ? nativeId.slice(0, at) : nativeId;
      return { sourceId: member.origin.id, unit };
    },
  };
}

/**
 * A source whose code loads on first use (`load` runs once; a failed load is tried again on the
 * next call): Vertesia's and Bilby's adapters stay out of the first download.
 */
export function createLazySource(
  identity: Pick<
    QuestionSource,
    'key' | 'label' | 'draftSlot' | 'draftScopes' | 'addressable' | 'unitOf'
  >,
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
    mapRecords: async (sourceId, records) =>
      (await (await source()).mapRecords?.(sourceId, records)) ?? [],
    list: async (params, signal) => (await source()).list(params, signal),
    get: async (id, signal) => (await source()).get(id, signal),
    resolve: async (id, input) => (await source()).resolve(id, input),
    updateAnswer: async (id, input) => (await source()).updateAnswer(id, input),
    markNotApplicable: async (id, input) => (await source()).markNotApplicable(id, input),
    cancel: async (id) => (await source()).cancel(id),
  };
}
