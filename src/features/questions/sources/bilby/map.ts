import type { UnreadableRecord } from '../../api/schemas';
import { questionId, type SourcePrompt, type SourceQuestion } from '../types';
import { type ConversationDetail, type PendingCall, pendingCallSchema } from './assumptions';
import { bilbyCapabilities } from './capabilities';

/** `<conversationId>:<toolCallId>`: a tool call id is only unique inside its conversation. */
export function bilbyNativeId(conversationId: string, toolCallId: string): string {
  return `${conversationId}:${toolCallId}`;
}

export function parseBilbyNativeId(nativeId: string): {
  conversationId: string;
  toolCallId: string;
} {
  const at = nativeId.indexOf(':');
  if (at <= 0) throw new RangeError(`not a Bilby question id: ${nativeId}`);
  return { conversationId: nativeId.slice(0, at), toolCallId: nativeId.slice(at + 1) };
}

function prompts(call: PendingCall): SourcePrompt[] {
  return call.questions.map((q) => ({
    text: q.question,
    header: q.header || null,
    options: (q.options ?? []).map((o) => ({ label: o.label, description: o.description || null })),
    multiSelect: q.multiSelect ?? false,
  }));
}

export function mapPendingCall(
  sourceId: string,
  conversation: ConversationDetail,
  call: PendingCall,
): SourceQuestion {
  const nativeId = bilbyNativeId(conversation.id, call.toolCallId);
  const title = conversation.title || null;
  return {
    id: questionId(sourceId, nativeId),
    sourceKind: 'bilby',
    sourceId,
    nativeId,
    status: 'pending',
    text: call.questions.map((q) => q.question).join('\n'),
    prompts: prompts(call),
    createdAt: call.createdAt,
    resolvedAt: null,
    expiresAt: null,
    answerText: null,
    agent: null,
    tags: [],
    askerName: title,
    user: null,
    context: title ? [{ label: 'Conversation', value: title }] : [],
    busy: conversation.status === 'running',
    capabilities: bilbyCapabilities,
  };
}

/** The questions of one conversation; a call that does not read is reported, not dropped. */
export function mapConversation(
  sourceId: string,
  conversation: ConversationDetail,
): { questions: SourceQuestion[]; unreadable: UnreadableRecord[] } {
  const questions: SourceQuestion[] = [];
  const unreadable: UnreadableRecord[] = [];
  conversation.pendingQuestions.forEach((item, index) => {
    const parsed = pendingCallSchema.safeParse(item);
    if (parsed.success) {
      questions.push(mapPendingCall(sourceId, conversation, parsed.data));
      return;
    }
    const rawId =
      typeof item === 'object' && item !== null
        ? (item as { toolCallId?: unknown }).toolCallId
        : null;
    unreadable.push({
      index,
      id: typeof rawId === 'string' ? bilbyNativeId(conversation.id, rawId) : null,
      problems: parsed.error.issues.map(
        (issue) => `${issue.path.join('.') || 'record'}: ${issue.message}`,
      ),
    });
  });
  return { questions, unreadable };
}
