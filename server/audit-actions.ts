// Which write is which action: the systems' paths and bodies read once, here, into the trail's
// words. A write this does not recognise is not an action on a question (the mock's controls).
import type { AuditAction } from './audit-core';

export interface ClassifiedAction {
  questionId: string;
  action: AuditAction;
  /** The answer or result as sent; null for actions that send none (cancel). */
  answer: string | null;
}

function record(value: unknown): Record<string, unknown> | null {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : null;
}

function segment(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}

const REFLEXIO = /^\/api\/pending_tool_calls\/([^/]+)\/(resolve|answer|not_applicable|cancel)$/;
const VERTESIA = /^\/api\/v1\/pending-asks\/([^/]+)\/resolve$/;
const BILBY = /^\/api\/v1\/conversations\/([^/]+)\/tool-outputs$/;

/** The actions one write carries (several for a Bilby batch), or null when it is none. */
export function classifyAction(
  kind: string,
  method: string,
  targetPath: string,
  body: unknown,
): ClassifiedAction[] | null {
  const verb = method.toUpperCase();
  const json = record(body);
  if (kind === 'reflexio') {
    const match = REFLEXIO.exec(targetPath);
    if (!match) return null;
    const questionId = segment(match[1] as string);
    const what = match[2];
    if (what === 'resolve' && verb === 'POST') {
      const result = record(json?.result);
      const keys = result ? Object.keys(result) : [];
      if (result && keys.length === 1 && typeof result.answer === 'string') {
        return [{ questionId, action: 'answer', answer: result.answer }];
      }
      return [{ questionId, action: 'resolve-json', answer: JSON.stringify(json?.result ?? null) }];
    }
    if (what === 'answer' && verb === 'PATCH') {
      return [
        {
          questionId,
          action: 'edit',
          answer: typeof json?.answer === 'string' ? json.answer : null,
        },
      ];
    }
    if (what === 'not_applicable' && verb === 'POST') {
      return [{ questionId, action: 'not-applicable', answer: null }];
    }
    if (what === 'cancel' && verb === 'POST')
      return [{ questionId, action: 'cancel', answer: null }];
    return null;
  }
  if (kind === 'vertesia') {
    const match = VERTESIA.exec(targetPath);
    if (!match || verb !== 'POST') return null;
    const response = typeof json?.response === 'string' ? json.response : null;
    return [{ questionId: segment(match[1] as string), action: 'answer', answer: response }];
  }
  if (kind === 'bilby') {
    const match = BILBY.exec(targetPath);
    if (!match || verb !== 'POST') return null;
    const conversationId = segment(match[1] as string);
    const outputs = Array.isArray(json?.outputs) ? json.outputs : [];
    const actions = outputs.flatMap((item): ClassifiedAction[] => {
      const entry = record(item);
      const output = record(entry?.output);
      if (typeof entry?.toolCallId !== 'string') return [];
      const dismissed = output?.status === 'dismissed';
      return [
        {
          // The portal's own id of a Bilby question: `<conversation>:<tool call>`.
          questionId: `${conversationId}:${entry.toolCallId}`,
          action: dismissed ? 'not-applicable' : 'answer',
          answer: dismissed
            ? null
            : typeof output?.summary === 'string'
              ? output.summary
              : JSON.stringify(output?.answers ?? null),
        },
      ];
    });
    return actions.length ? actions : null;
  }
  return null;
}
