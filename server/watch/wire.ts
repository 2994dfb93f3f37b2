// What the watcher reads of each system's lists: the records it keeps whole (so the browser's own
// adapters map them, as they would an answer from the system) and, from each, the few facts the
// server itself needs of a question (what it asks, who asks, when it expires, its status).
// Lenient as the browser's adapters are: a record that does not read is skipped, never fatal.

export type SystemKind = 'reflexio' | 'vertesia' | 'bilby';
export const SYSTEM_KINDS: readonly SystemKind[] = ['reflexio', 'vertesia', 'bilby'];

/** What the server keeps of one question (the `watched_questions` table). */
export interface QuestionFacts {
  /** The system's own id (Reflexio id, Vertesia askId, Bilby `<conversation>:<tool call>`). */
  questionId: string;
  /** What it asks, cut to ASKED_MAX characters. */
  asked: string;
  agent: string | null;
  user: string | null;
  tool: string | null;
  tags: string[];
  /** ISO time; null where the system sets none (Bilby). */
  expiresAt: string | null;
  /** The system's status word, lower-case (`pending`, `resolved`, `expired`, …). */
  status: string;
  /**
   * The ready-made answers its format offers (what the drawer shows as quick answers), at most
   * CHOICES_MAX of CHOICE_MAX characters each: a notification offers them as its actions.
   */
  choices?: string[];
}

/**
 * One record as a system lists it: a Reflexio pending tool call, a Vertesia ask, a Bilby
 * conversation (whose pending tool calls are its questions).
 */
export interface Unit {
  id: string;
  /** The record as the system sent it, as JSON text. */
  wire: string;
  questions: QuestionFacts[];
  /** Bilby: the conversation's list entry, as JSON text (its own list is served from these). */
  summary?: string;
}

export const ASKED_MAX = 500;
export const CHOICES_MAX = 3;
export const CHOICE_MAX = 40;
const FIELD_MAX = 200;
const TAGS_MAX = 20;

export function record(value: unknown): Record<string, unknown> | null {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : null;
}

function text(value: unknown, max = FIELD_MAX): string | null {
  return typeof value === 'string' && value.trim() ? value.trim().slice(0, max) : null;
}

function tags(value: unknown): string[] {
  if (!Array.isArray(value)) return [];
  return value
    .filter((tag): tag is string => typeof tag === 'string' && tag.trim() !== '')
    .slice(0, TAGS_MAX)
    .map((tag) => tag.slice(0, FIELD_MAX));
}

/** An ISO time from an ISO string or epoch milliseconds; null for anything else. */
function time(value: unknown): string | null {
  if (typeof value === 'number' && Number.isFinite(value)) {
    const date = new Date(value);
    return Number.isNaN(date.getTime()) ? null : date.toISOString();
  }
  if (typeof value === 'string' && value) {
    const parsed = Date.parse(value);
    return Number.isNaN(parsed) ? null : new Date(parsed).toISOString();
  }
  return null;
}

function asked(value: string): string {
  return value.length > ASKED_MAX ? `${value.slice(0, ASKED_MAX - 1)}…` : value;
}

/**
 * The choices an `ask_human` answer format offers, read as the portal's drawer reads them
 * (src/features/questions/utils/answer-format.ts `quickAnswers`: the server cannot import it):
 * "yes/no" → Yes, No; "one of: a, b or c" → a, b, c. Only choices a notification can carry whole
 * (CHOICE_MAX characters) and only the first CHOICES_MAX: a cut choice would be another answer.
 */
export function formatChoices(format: string | null): string[] {
  const hint = format?.trim() ?? '';
  if (!hint) return [];
  if (/^(yes\s*\/\s*no|yes or no|boolean)$/i.test(hint)) return ['Yes', 'No'];
  const listed = /^(?:one of|choose one of|pick one of|either)\s*:?\s*(.+)$/i.exec(hint)?.[1];
  if (!listed) return [];
  const unquote = (part: string) => part.trim().replace(/^["'“”]+|["'“”.]+$/g, '');
  const options = [
    ...new Set(
      listed
        .split(/\s*(?:,|\||\/|\bor\b)\s*/i)
        .map(unquote)
        .filter((part) => part.length > 0 && part.length <= 60),
    ),
  ];
  if (options.length < 2 || options.length > 8) return [];
  return options.filter((option) => option.length <= CHOICE_MAX).slice(0, CHOICES_MAX);
}

/** A Reflexio pending tool call; null when it has no id. */
export function reflexioUnit(value: unknown): Unit | null {
  const call = record(value);
  const id = call && typeof call.id === 'string' && call.id ? call.id : null;
  if (!call || !id) return null;
  const args = record(call.args);
  const question =
    text(call.question_text, ASKED_MAX * 2) ??
    text(args?.question, ASKED_MAX * 2) ??
    text(call.tool_name) ??
    '';
  return {
    id,
    wire: JSON.stringify(call),
    questions: [
      {
        questionId: id,
        asked: asked(question),
        agent: null,
        user: text(call.user_id),
        tool: text(call.tool_name) ?? 'ask_human',
        tags: tags(call.tags),
        expiresAt: time(call.expires_at),
        status: (text(call.status, 40) ?? 'pending').toLowerCase(),
        // Only an ask_human call is answered in words; another tool's result is a JSON object.
        choices:
          (text(call.tool_name) ?? 'ask_human') === 'ask_human'
            ? formatChoices(typeof call.answer_format === 'string' ? call.answer_format : null)
            : [],
      },
    ],
  };
}

/** A Vertesia ask; null when it has no id. */
export function vertesiaUnit(value: unknown): Unit | null {
  const ask = record(value);
  const id = ask && typeof ask.askId === 'string' && ask.askId ? ask.askId : null;
  if (!ask || !id) return null;
  const questions = Array.isArray(ask.questions)
    ? ask.questions.filter((q): q is string => typeof q === 'string')
    : [];
  const agent = text(ask.agentName);
  return {
    id,
    wire: JSON.stringify(ask),
    questions: [
      {
        questionId: id,
        asked: asked(questions.join('\n')),
        agent,
        user: null,
        tool: null,
        tags: [],
        expiresAt: time(ask.expiresAt),
        status: (text(ask.status, 40) ?? 'pending').toLowerCase(),
      },
    ],
  };
}

/** A Bilby conversation's detail: each pending tool call is a question. */
export function bilbyUnit(value: unknown, summary: unknown): Unit | null {
  const conversation = record(value);
  const id = conversation && typeof conversation.id === 'string' ? conversation.id : null;
  if (!conversation || !id) return null;
  const title = text(conversation.title);
  const calls = Array.isArray(conversation.pendingQuestions) ? conversation.pendingQuestions : [];
  const questions: QuestionFacts[] = [];
  for (const item of calls) {
    const call = record(item);
    const toolCallId = call && typeof call.toolCallId === 'string' ? call.toolCallId : null;
    if (!call || !toolCallId) continue;
    const prompts = Array.isArray(call.questions) ? call.questions : [];
    const words = prompts
      .map((prompt) => text(record(prompt)?.question, ASKED_MAX))
      .filter((q): q is string => q !== null);
    questions.push({
      questionId: `${id}:${toolCallId}`,
      asked: asked(words.join('\n')),
      agent: null,
      user: null,
      tool: null,
      tags: title ? [title] : [],
      expiresAt: null,
      status: 'pending',
    });
  }
  return { id, wire: JSON.stringify(conversation), questions, summary: JSON.stringify(summary) };
}
