// Which write is which action: the systems' paths and bodies read once, here, into the trail's
// words. Under `/api/` a write is one of the actions below, written exactly as the portal's own
// client writes it, or it is refused: an upstream routes on the path as it decodes it (Hono and
// Werkzeug decode `%72esolve` to `resolve`; others drop `;params`, a trailing slash or the case),
// so a write the trail cannot name could still reach an action's handler unrecorded.
import type { AuditAction } from './types';

export interface ClassifiedAction {
  questionId: string;
  action: AuditAction;
  /** The answer or result as sent; null for actions that send none (cancel). */
  answer: string | null;
}

export type Classified = { actions: ClassifiedAction[] } | { refused: string };

/** The write routes of each system, `:id` the question's (or conversation's) segment. */
export const WRITE_ROUTES: Record<string, { method: string; path: string }[]> = {
  reflexio: [
    { method: 'POST', path: '/api/pending_tool_calls/:id/resolve' },
    { method: 'PATCH', path: '/api/pending_tool_calls/:id/answer' },
    { method: 'POST', path: '/api/pending_tool_calls/:id/not_applicable' },
    { method: 'POST', path: '/api/pending_tool_calls/:id/cancel' },
  ],
  vertesia: [{ method: 'POST', path: '/api/v1/pending-asks/:id/resolve' }],
  bilby: [{ method: 'POST', path: '/api/v1/conversations/:id/tool-outputs' }],
};

/** Longest question id the trail takes (the systems' own are UUIDs or shorter). */
export const MAX_QUESTION_ID_LENGTH = 512;

function record(value: unknown): Record<string, unknown> | null {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : null;
}

function decoded(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}

/** A segment as the most lenient upstream routes it: decoded, `;params` gone, any case. */
function routed(segment: string): string {
  return decoded(segment.split(';')[0] as string)
    .split(';')[0]
    ?.toLowerCase() as string;
}

interface Matched {
  route: string;
  /** The id segment, decoded. */
  id: string;
}

/**
 * The route `targetPath` reaches on an upstream that decodes each segment, ignores `;params`,
 * empty segments and case; refused unless it is also written in the route's exact form.
 */
function matchRoute(
  kind: string,
  method: string,
  targetPath: string,
): Matched | { refused: string } {
  const raw = targetPath.split('/').slice(1);
  const lenient = raw.map(routed).filter((segment) => segment !== '');
  for (const route of WRITE_ROUTES[kind] ?? []) {
    const pattern = route.path.split('/').slice(1);
    if (pattern.length !== lenient.length) continue;
    const at = pattern.indexOf(':id');
    if (!pattern.every((part, index) => index === at || part === lenient[index])) continue;
    const exact =
      raw.length === pattern.length &&
      pattern.every((part, index) => (index === at ? raw[index] !== '' : part === raw[index])) &&
      !(raw[at] as string).includes(';');
    if (!exact) {
      return {
        refused: `Path refused: ${route.path.replace(':id', '…')} is written with percent-encoding, another case, ";" or an extra slash in its fixed parts. The portal sends it only as written here.`,
      };
    }
    if (method.toUpperCase() !== route.method) break;
    return { route: route.path, id: decoded(raw[at] as string) };
  }
  return {
    refused:
      'Not passed on: the portal server passes on only the actions the portal sends (answer, edit, not applicable, cancel), so that each is in the audit trail.',
  };
}

/** The actions one write under `/api/` carries (several for a Bilby batch), or why it is refused. */
export function classifyAction(
  kind: string,
  method: string,
  targetPath: string,
  body: unknown,
): Classified {
  const matched = matchRoute(kind, method, targetPath);
  if ('refused' in matched) return matched;
  const json = record(body);
  const questionId = matched.id;
  const one = (action: AuditAction, answer: string | null): Classified => ({
    actions: [{ questionId, action, answer }],
  });
  switch (matched.route) {
    case '/api/pending_tool_calls/:id/resolve': {
      const result = record(json?.result);
      const keys = result ? Object.keys(result) : [];
      if (result && keys.length === 1 && typeof result.answer === 'string') {
        return one('answer', result.answer);
      }
      return one('resolve-json', JSON.stringify(json?.result ?? null));
    }
    case '/api/pending_tool_calls/:id/answer':
      return one('edit', typeof json?.answer === 'string' ? json.answer : null);
    case '/api/pending_tool_calls/:id/not_applicable':
      return one('not-applicable', null);
    case '/api/pending_tool_calls/:id/cancel':
      return one('cancel', null);
    case '/api/v1/pending-asks/:id/resolve':
      return one('answer', typeof json?.response === 'string' ? json.response : null);
    default:
      return bilbyOutputs(questionId, json);
  }
}

function bilbyOutputs(conversationId: string, json: Record<string, unknown> | null): Classified {
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
  if (actions.length === 0 || actions.length !== outputs.length) {
    return {
      refused:
        'Not passed on: each of the outputs must name its toolCallId, so that each answer is in the audit trail.',
    };
  }
  return { actions };
}
