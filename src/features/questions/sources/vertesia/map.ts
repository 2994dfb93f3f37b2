import type { UnreadableRecord } from '../../api/schemas';
import { questionId, type SourceList, type SourceQuestion } from '../types';
import { vertesiaCapabilities } from './capabilities';
import { type PendingAsk, pendingAskSchema } from './wire';

export function mapPendingAsk(sourceId: string, ask: PendingAsk): SourceQuestion {
  const context: SourceQuestion['context'] = [];
  if (ask.runId) context.push({ label: 'Run', value: ask.runId });
  if (ask.workflowId) context.push({ label: 'Workflow', value: ask.workflowId });
  if (ask.taskId) context.push({ label: 'Task', value: ask.taskId });
  const emails = (ask.userChannels ?? []).flatMap((channel) =>
    channel.type === 'email' && channel.to_email ? [channel.to_email] : [],
  );
  if (emails.length > 0) context.push({ label: 'Also sent by email to', value: emails.join(', ') });
  return {
    id: questionId(sourceId, ask.askId),
    sourceKind: 'vertesia',
    sourceId,
    nativeId: ask.askId,
    status: ask.status,
    text: ask.questions.join('\n'),
    prompts: ask.questions.map((text) => ({ text, header: null, options: [], multiSelect: false })),
    createdAt: ask.createdAt ?? null,
    resolvedAt: ask.resolvedAt ?? null,
    expiresAt: ask.expiresAt ?? null,
    answerText: ask.response ?? null,
    agent: ask.agentName || null,
    tags: [],
    askerName: ask.agentName || null,
    user: null,
    context,
    busy: false,
    capabilities: vertesiaCapabilities,
  };
}

/** Every record of a list that reads is mapped; the others are reported, never dropped silently. */
export function mapAskList(sourceId: string, items: readonly unknown[]): SourceList {
  const questions: SourceQuestion[] = [];
  const unreadable: UnreadableRecord[] = [];
  items.forEach((item, index) => {
    const parsed = pendingAskSchema.safeParse(item);
    if (parsed.success) {
      questions.push(mapPendingAsk(sourceId, parsed.data));
      return;
    }
    const rawId =
      typeof item === 'object' && item !== null ? (item as { askId?: unknown }).askId : null;
    unreadable.push({
      index,
      id: typeof rawId === 'string' ? rawId : null,
      problems: parsed.error.issues.map(
        (issue) => `${issue.path.join('.') || 'record'}: ${issue.message}`,
      ),
    });
  });
  return { questions, unreadable, truncated: false };
}
