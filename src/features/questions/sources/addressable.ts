import type { QuestionOrigin } from '../api/schemas';

/**
 * Whether an id from an agent platform can be one segment of an API address as it is. `.` and
 * `..` are dot steps even percent-encoded (`pending-asks/..` is the API root), and anything beyond
 * plain letters, digits and `_.:-` is more likely a damaged record than an id: such a question is
 * shown as its list has it, read-only, and never asked for on its own.
 */
export function isAddressableId(id: string): boolean {
  return /^[A-Za-z0-9_.:-]{1,128}$/.test(id) && !/^\.+$/.test(id);
}

/**
 * Whether a question of a system of `kind`, by its id there, can be read and acted on through its
 * API. A Bilby id is `<conversationId>:<toolCallId>`: the conversation goes in the address, the
 * tool call in the body.
 */
export function isAddressable(kind: QuestionOrigin['kind'], nativeId: string): boolean {
  if (kind !== 'bilby') return isAddressableId(nativeId);
  const at = nativeId.indexOf(':');
  return at > 0 && isAddressableId(nativeId.slice(0, at)) && at < nativeId.length - 1;
}
