import { showBidiControls } from '@/lib/show-bidi';
import type { ActivityEntry } from '../api/schemas';

const VERBS: Record<string, string> = {
  answer: 'Answered',
  edit: 'Edited',
  'not-applicable': 'Marked not applicable',
  cancel: 'Cancelled',
  'resolve-json': 'Resolved',
  claim: 'Claimed',
  release: 'Released',
  'snippet-create': 'Team snippet saved',
  'snippet-edit': 'Team snippet edited',
  'snippet-delete': 'Team snippet deleted',
};

export const ACTION_LABELS: Record<string, string> = {
  answer: 'Answer',
  edit: 'Edit',
  'not-applicable': 'Not applicable',
  cancel: 'Cancel',
  'resolve-json': 'Resolve (JSON)',
  claim: 'Claim',
  release: 'Release',
  'snippet-create': 'Snippet saved',
  'snippet-edit': 'Snippet edited',
  'snippet-delete': 'Snippet deleted',
};

/** Whether an entry is a change to the team's snippets (server/snippets/), not to a question. */
export function isSnippetEntry(entry: Pick<ActivityEntry, 'action'>): boolean {
  return entry.action.startsWith('snippet-');
}

/**
 * A snippet change as the trail keeps it: the title on the answer's first line, the text after
 * (null when the trail keeps no text: AUDIT_ANSWERS=hash or none).
 */
export function snippetOf(
  entry: Pick<ActivityEntry, 'action' | 'answer' | 'answerMode'>,
): { title: string; text: string } | null {
  if (!isSnippetEntry(entry) || entry.answerMode !== 'full' || entry.answer === null) return null;
  const end = entry.answer.indexOf('\n');
  return end === -1
    ? { title: entry.answer, text: '' }
    : { title: entry.answer.slice(0, end), text: entry.answer.slice(end + 1) };
}

/** "Answered by alice@example.com"; a refusal says so ("Answer refused (HTTP 409) for …"). */
export function describeEntry(entry: ActivityEntry): string {
  const who = `${reviewerText(entry)}${entry.selfNamed ? ' (self-named)' : ''}`;
  if (entry.status !== null && (entry.status === 0 || entry.status >= 400)) {
    const what = ACTION_LABELS[entry.action] ?? entry.action;
    return `${what} by ${who} refused (${entry.status === 0 ? 'no answer' : `HTTP ${entry.status}`})`;
  }
  // The server's words when the reviewer's browser went before the system answered.
  const left = entry.detail?.startsWith('client left before the answer')
    ? ' (the browser had gone before the system answered)'
    : '';
  return `${VERBS[entry.action] ?? entry.action} by ${who}${left}`;
}

/** How the trail kept an entry's answer, said before it ("Sent: …"). */
export function answerLabel(answerMode: string): string {
  if (answerMode === 'hmac-sha256') return 'Answer kept as a keyed hash (HMAC-SHA-256): ';
  if (answerMode === 'hash') return 'Answer kept as SHA-256: ';
  return 'Sent: ';
}

/** Whether the system took the action (2xx); null: the outcome was never recorded. */
export function accepted(entry: ActivityEntry): boolean | null {
  if (entry.status === null) return null;
  return entry.status >= 200 && entry.status < 300;
}

/**
 * For each edit, the answer it replaced: the answer of the accepted entry before it on the same
 * question. Entries are newest first.
 */
export function earlierAnswers(entries: readonly ActivityEntry[]): Map<number, string | null> {
  const earlier = new Map<number, string | null>();
  entries.forEach((entry, index) => {
    if (entry.action !== 'edit') return;
    const before = entries
      .slice(index + 1)
      .find((other) => other.questionId === entry.questionId && accepted(other) !== false);
    if (before) earlier.set(entry.id, before.answer);
  });
  return earlier;
}

/** The id the trail keeps for a question: the system's own (the inbox prefixes other systems'). */
export function auditQuestionId(question: { id: string; source: { id: string; kind: string } }) {
  const prefix = `${question.source.id}:`;
  return question.source.kind !== 'reflexio' && question.id.startsWith(prefix)
    ? question.id.slice(prefix.length)
    : question.id;
}

/** "alice" from "alice@example.com": what a list row has room for. */
export function shortReviewer(reviewer: string): string {
  const at = reviewer.indexOf('@');
  return showBidiControls(at > 0 ? reviewer.slice(0, at) : reviewer);
}

/** "Alice Ng (alice@example.com)", direction controls shown as marks. */
export function reviewerText(entry: Pick<ActivityEntry, 'reviewer' | 'reviewerName'>): string {
  return showBidiControls(
    entry.reviewerName ? `${entry.reviewerName} (${entry.reviewer})` : entry.reviewer,
  );
}
