// What a notification says: the system, the agent, a slice of each question, the time left and a
// link into the portal. Never an answer, another reviewer's words, a key or an answer form.
import type { MessageQuestion } from './outbox';
import { agentOf, inboxId } from './plan';

export const ASKED_SLICE = 140;
/** Quick answers a notice carries for one question, and the longest (a longer one is left out). */
export const CHOICES_MAX = 3;
export const CHOICE_MAX = 40;
/** Questions named one by one in a message; the rest are counted. */
export const LISTED_MAX = 10;

export interface NoticeQuestion {
  /** The source id (`reflexio`), as routes and device choices name systems. */
  sourceId: string;
  system: string;
  id: string;
  agent: string;
  tool: string | null;
  tags: string[];
  asked: string;
  expiresAt: string | null;
  minutesLeft: number | null;
  url: string | null;
  /** Its quick answers, which Web Push offers as the notification's actions (one question only). */
  choices: string[];
}

export interface Notice {
  /** The outbox message's id: the same on every try (a receiver drops a repeat by it). */
  id: string;
  type: 'questions.new' | 'questions.escalation' | 'questions.reminder';
  title: string;
  /** Where to go: the question, or the inbox for several. */
  url: string | null;
  questions: NoticeQuestion[];
  /** How many the message is about (more than are listed when past LISTED_MAX). */
  count: number;
  route: string;
  receiver: string;
}

const TYPES = {
  new: 'questions.new',
  escalate: 'questions.escalation',
  repeat: 'questions.reminder',
} as const;

function slice(text: string, max: number): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

export function questionUrl(publicUrl: string | null, id: string): string | null {
  if (!publicUrl) return null;
  return new URL(`questions/${encodeURIComponent(id)}`, publicUrl.replace(/\/?$/, '/')).href;
}

export function inboxUrl(publicUrl: string | null): string | null {
  return publicUrl ? new URL('questions', publicUrl.replace(/\/?$/, '/')).href : null;
}

export function leftWords(minutes: number | null): string {
  if (minutes === null) return 'no expiry';
  if (minutes < 1) return 'under a minute left';
  if (minutes < 90) return `${Math.floor(minutes)} min left`;
  return `${Math.floor(minutes / 60)} h left`;
}

export function buildNotice(input: {
  id: number;
  occasion: string;
  route: string;
  receiver: string;
  questions: readonly MessageQuestion[];
  systemNames: ReadonlyMap<string, string>;
  publicUrl: string | null;
  now: number;
}): Notice {
  const kind = (input.occasion in TYPES ? input.occasion : 'new') as keyof typeof TYPES;
  const questions = input.questions.map((q): NoticeQuestion => {
    const left = q.expiresAt === null ? null : (Date.parse(q.expiresAt) - input.now) / 60_000;
    return {
      sourceId: q.sourceId,
      system: input.systemNames.get(q.sourceId) ?? q.sourceId,
      id: inboxId(q),
      agent: slice(agentOf(q) || 'an agent', 80),
      tool: q.tool,
      tags: q.tags.slice(0, 10),
      asked: slice(q.asked, ASKED_SLICE),
      expiresAt: q.expiresAt,
      minutesLeft: left === null ? null : Math.max(0, Math.round(left * 10) / 10),
      url: questionUrl(input.publicUrl, inboxId(q)),
      choices: (q.choices ?? [])
        .filter((choice) => choice.length > 0 && choice.length <= CHOICE_MAX)
        .slice(0, CHOICES_MAX),
    };
  });
  const first = questions[0];
  const count = questions.length;
  const agents = new Set(questions.map((q) => q.agent));
  const from = agents.size === 1 && first ? ` from ${first.agent}` : '';
  const on = first ? ` (${first.system})` : '';
  let title: string;
  if (kind === 'escalate') {
    title =
      count === 1 && first
        ? `${leftWords(first.minutesLeft)}, unclaimed: ${first.agent} asks${on}`
        : `${count} questions about to expire, unclaimed${from}`;
  } else if (kind === 'repeat') {
    title =
      count === 1
        ? `Still waiting: a question${from}${on}`
        : `Still waiting: ${count} questions${from}`;
  } else {
    title = count === 1 ? `New question${from}${on}` : `${count} new questions${from}`;
  }
  return {
    id: `msg_${input.id}`,
    type: TYPES[kind],
    title,
    url: count === 1 && first ? first.url : inboxUrl(input.publicUrl),
    questions: questions.slice(0, LISTED_MAX),
    count,
    route: input.route,
    receiver: input.receiver,
  };
}

/** The notice as plain text lines (mail, Slack's fallback). */
export function noticeText(notice: Notice): string {
  const lines = [notice.title, ''];
  for (const q of notice.questions) {
    lines.push(`- ${q.agent} on ${q.system} (${leftWords(q.minutesLeft)}): ${q.asked}`);
    if (q.url) lines.push(`  ${q.url}`);
  }
  if (notice.count > notice.questions.length) {
    lines.push(`…and ${notice.count - notice.questions.length} more.`);
  }
  if (notice.url) lines.push('', `Open the inbox: ${notice.url}`);
  lines.push('', 'Answer in the portal: this message carries no answer form.');
  return lines.join('\n');
}
