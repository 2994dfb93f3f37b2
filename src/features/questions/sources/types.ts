import type { QuestionPrompt, QuestionStatus, UnreadableRecord } from '../api/schemas';

/**
 * What the Vertesia and Bilby adapters map their wire records to; system-sources.ts turns it into
 * the portal's own `Question` (api/schemas.ts), so nothing past the adapters sees a wire name.
 */
export type SourceKind = 'reflexio' | 'vertesia' | 'bilby';

/**
 * How a question is answered:
 * - `text`: one free-text answer (Reflexio `ask_human`);
 * - `json`: a JSON object (Reflexio, other tools);
 * - `texts`: one text box per prompt, sent as one string (Vertesia);
 * - `choices`: per prompt, option labels (one, or several if multi-select) and/or free "other"
 *   text (Bilby).
 */
export type AnswerKind = 'text' | 'json' | 'texts' | 'choices';

/** An action the source refuses, and why, in the words the reviewer is told. */
export type Refusal = { allowed: false; reason: string };

/** An action the drawer may offer; when it cannot, the reason is what the reviewer is told. */
export type Capability = { allowed: true } | Refusal;

/**
 * What a system lets a reviewer do (each adapter's `capabilities.ts`): the one place its reasons
 * are written; the status policy and the adapter's refusals read them from there.
 */
export interface SourceCapabilities {
  answer: AnswerKind;
  edit: Capability;
  notApplicable: Capability;
  cancel: Capability;
  /** What the drawer says, while a question is open, of the actions it does not offer. */
  note: string | null;
  /**
   * What the agent is told when its question is marked not applicable, as the end of "The agent
   * is told …" (the confirmation says it); null where the system has no such action.
   */
  notApplicableTells: string | null;
  /**
   * Questions with the same asker go to the system in one request when they are acted on together
   * (a bulk action, a look-alike group): Bilby refuses a second request to a conversation while
   * the turn the first one started is running.
   */
  sendsTogether?: 'asker';
  /**
   * Look-alikes group across askers when the text and the options match (what an asker is called,
   * in the plural); each asker still gets its own request (sendsTogether).
   */
  lookalikesAcross?: string;
}

/** One question inside a source question (a Vertesia ask or a Bilby tool call holds several). */
export type SourcePrompt = QuestionPrompt;

export interface SourceQuestion {
  /** Unique across sources: `<sourceId>:<nativeId>`; what URLs and drafts would use. */
  id: string;
  sourceKind: SourceKind;
  /** The configured source's id (config `sources[].id`). */
  sourceId: string;
  /** The id the source's own API takes (Vertesia askId; Bilby `<conversationId>:<toolCallId>`). */
  nativeId: string;
  status: QuestionStatus;
  /** Every prompt's text, one per line: what the list shows and search reads. */
  text: string;
  prompts: SourcePrompt[];
  createdAt: number | null;
  resolvedAt: number | null;
  /** null: no deadline (Bilby). */
  expiresAt: number | null;
  /** The answer the source holds, when it shows one (Vertesia `response`). */
  answerText: string | null;
  /** Who asked: Vertesia `agentName`; null where the source does not say. */
  agent: string | null;
  /** Labels the system gives the question itself (none yet: Vertesia and Bilby have none). */
  tags: string[];
  /** Who asked, by name: Vertesia's agent, Bilby's conversation title (shown, not a tag). */
  askerName: string | null;
  /** The person the question is about or for, where the source has one (Reflexio `user_id`). */
  user: string | null;
  /** Further facts shown in the drawer, in order. */
  context: { label: string; value: string }[];
  /** The agent is working right now, so answers are refused for a while (Bilby `running`). */
  busy: boolean;
  capabilities: SourceCapabilities;
}

export interface SourceList {
  questions: SourceQuestion[];
  unreadable: UnreadableRecord[];
  /** Not everything could be read (Bilby: more pages than the portal follows). */
  truncated: boolean;
  /** The version of the portal server's copy it was read from (see copy-version.ts). */
  version?: number;
}

export const allowed: Capability = { allowed: true };
export const notAllowed = (reason: string): Refusal => ({ allowed: false, reason });

/** Why `capability` is refused; null when it is allowed. */
export const refusal = (capability: Capability): string | null =>
  capability.allowed ? null : capability.reason;

export function questionId(sourceId: string, nativeId: string): string {
  return `${sourceId}:${nativeId}`;
}
