import { randomHex32, sha256Hex } from '../hash';

/**
 * Bilby conversations as the portal assumes them (src/features/questions/sources/bilby/assumptions.ts,
 * from ../shared/api-docs/other-sources.md): the mock follows those assumptions exactly.
 */
export interface BilbyOption {
  label: string;
  description: string;
}

export interface BilbyQuestion {
  question: string;
  header: string;
  options: BilbyOption[];
  multiSelect: boolean;
}

export interface PendingQuestion {
  toolCallId: string;
  /** ISO 8601. */
  createdAt: string;
  questions: BilbyQuestion[];
}

export interface ToolOutput {
  status: 'answered' | 'dismissed';
  answers: { question: string; selected: string[]; custom?: string | undefined }[];
  summary: string;
}

export interface Conversation {
  id: string;
  title: string;
  updatedAt: number;
  /** The agent's turn runs until then (epoch ms); `running` before, `idle` after. */
  runningUntil: number;
  pendingQuestions: PendingQuestion[];
  /** What reviewers sent, for the control surface; the API never shows it. */
  answered: { toolCallId: string; output: ToolOutput; at: string }[];
}

export interface ConversationSummary {
  id: string;
  title: string;
  updatedAt: string;
  pendingQuestionCount: number;
}

export interface ConversationDetail {
  id: string;
  title: string;
  status: 'idle' | 'running';
  updatedAt: string;
  pendingQuestions: PendingQuestion[];
}

/** A version-4 UUID: the document's pattern for conversation and organization ids. */
export function uuid(seed?: string): string {
  const hex = seed === undefined ? randomHex32() : sha256Hex(`bilby-demo/${seed}`);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-8${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

export function toolCallId(seed?: string): string {
  const hex =
    seed === undefined ? randomHex32().slice(0, 24) : sha256Hex(`bilby-call/${seed}`).slice(0, 24);
  return `toolu_${hex}`;
}

export interface NewConversation {
  id?: string;
  title: string;
  updatedAgoMs?: number;
  runningForMs?: number;
  pending?: NewPending[];
}

export interface NewPending {
  toolCallId?: string;
  createdAgoMs?: number;
  questions: BilbyQuestion[];
}

export interface ConversationStore {
  create(input: NewConversation): ConversationDetail;
  addPending(conversationId: string, input: NewPending): PendingQuestion | undefined;
  /** Newest first; `after` is the (updatedAt, id) of the last row of the previous page. */
  page(limit: number, after: { updatedAt: number; id: string } | null): Conversation[];
  get(id: string): Conversation | undefined;
  detail(id: string): ConversationDetail | undefined;
  summary(conversation: Conversation): ConversationSummary;
  isRunning(conversation: Conversation): boolean;
  /** Takes the outputs (already checked), removes those calls, and starts a turn. */
  accept(id: string, outputs: { toolCallId: string; output: ToolOutput }[], runMs: number): void;
  setRunning(id: string, ms: number): Conversation | undefined;
  remove(id: string): boolean;
  all(): Conversation[];
  /** Puts conversations (from `all()`) back in place of what the store holds. */
  replaceAll(conversations: Conversation[]): void;
}

export function createConversationStore(now: () => number): ConversationStore {
  const conversations = new Map<string, Conversation>();
  const iso = (ms: number) => new Date(ms).toISOString();

  function pendingOf(input: NewPending): PendingQuestion {
    return {
      toolCallId: input.toolCallId ?? toolCallId(),
      createdAt: iso(now() - (input.createdAgoMs ?? 0)),
      questions: structuredClone(input.questions),
    };
  }

  function isRunning(conversation: Conversation): boolean {
    return now() < conversation.runningUntil;
  }

  function detailOf(conversation: Conversation): ConversationDetail {
    return {
      id: conversation.id,
      title: conversation.title,
      status: isRunning(conversation) ? 'running' : 'idle',
      updatedAt: iso(conversation.updatedAt),
      pendingQuestions: structuredClone(conversation.pendingQuestions),
    };
  }

  const newestFirst = (a: Conversation, b: Conversation) =>
    b.updatedAt - a.updatedAt || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

  return {
    create(input) {
      const conversation: Conversation = {
        id: input.id ?? uuid(),
        title: input.title,
        updatedAt: now() - (input.updatedAgoMs ?? 0),
        runningUntil: input.runningForMs ? now() + input.runningForMs : 0,
        pendingQuestions: (input.pending ?? []).map(pendingOf),
        answered: [],
      };
      conversations.set(conversation.id, conversation);
      return detailOf(conversation);
    },
    addPending(conversationId, input) {
      const conversation = conversations.get(conversationId);
      if (!conversation) return undefined;
      const pending = pendingOf(input);
      conversation.pendingQuestions.push(pending);
      conversation.updatedAt = Math.max(conversation.updatedAt, now());
      return structuredClone(pending);
    },
    page(limit, after) {
      const sorted = [...conversations.values()].sort(newestFirst);
      const start = after
        ? sorted.findIndex(
            (c) => newestFirst(c, { updatedAt: after.updatedAt, id: after.id } as Conversation) > 0,
          )
        : 0;
      return start < 0 ? [] : sorted.slice(start, start + limit);
    },
    get: (id) => conversations.get(id),
    detail(id) {
      const conversation = conversations.get(id);
      return conversation ? detailOf(conversation) : undefined;
    },
    summary: (conversation) => ({
      id: conversation.id,
      title: conversation.title,
      updatedAt: iso(conversation.updatedAt),
      pendingQuestionCount: conversation.pendingQuestions.length,
    }),
    isRunning,
    accept(id, outputs, runMs) {
      const conversation = conversations.get(id);
      if (!conversation) return;
      const at = now();
      const done = new Set(outputs.map((o) => o.toolCallId));
      conversation.pendingQuestions = conversation.pendingQuestions.filter(
        (p) => !done.has(p.toolCallId),
      );
      for (const { toolCallId: callId, output } of outputs) {
        conversation.answered.push({
          toolCallId: callId,
          output: structuredClone(output),
          at: iso(at),
        });
      }
      conversation.updatedAt = at;
      conversation.runningUntil = runMs > 0 ? at + runMs : 0;
    },
    setRunning(id, ms) {
      const conversation = conversations.get(id);
      if (!conversation) return undefined;
      conversation.runningUntil = ms > 0 ? now() + ms : 0;
      return conversation;
    },
    remove: (id) => conversations.delete(id),
    all: () => [...conversations.values()].sort(newestFirst).map((c) => structuredClone(c)),
    replaceAll(next) {
      conversations.clear();
      for (const conversation of next) {
        conversations.set(conversation.id, structuredClone(conversation));
      }
    },
  };
}
