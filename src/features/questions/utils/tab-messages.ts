import type { QuestionList } from '../api/schemas';

/**
 * What the tabs of one portal say to each other over their BroadcastChannel. Lists cross as JSON
 * text, never as objects: the browser's structured clone walks an object recursively, and one
 * agent-written record nested thousands of levels deep made every post throw (and with it every
 * refresh and answer). Whatever arrives is read as untrusted: any page of the origin can post on
 * the channel, so a message that is not one of these shapes is dropped (tab-message-schema.ts,
 * loaded with the first message: no part of the first download).
 */
export type TabMessage =
  | {
      type: 'list';
      key: readonly unknown[];
      data: QuestionList;
      updatedAt: number;
      nextInMs: number;
    }
  | { type: 'invalidate'; key: readonly unknown[]; nextInMs: number }
  | { type: 'beat'; nextInMs: number }
  | { type: 'hello' }
  | { type: 'refresh' };

/** A list larger than this as text is not sent: the other tabs fetch it themselves. */
export const MAX_LIST_MESSAGE_CHARS = 16 * 1_048_576;

/**
 * The message as the channel carries it: a list as JSON text (one string to clone, whatever its
 * depth), or an `invalidate` in its place when it is too large or cannot be written as JSON.
 */
export function encodeTabMessage(message: TabMessage): string {
  if (message.type === 'list') {
    try {
      const text = JSON.stringify(message);
      if (text.length <= MAX_LIST_MESSAGE_CHARS) return text;
    } catch {
      // Too deep or cyclic to write: the others read it from the server themselves.
    }
    return JSON.stringify({ type: 'invalidate', key: message.key, nextInMs: message.nextInMs });
  }
  return JSON.stringify(message);
}
