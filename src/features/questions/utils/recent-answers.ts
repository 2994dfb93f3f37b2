/**
 * The short answers this browser sent lately, newest first: offered on free-text questions as
 * "Your recent answers" (keys 1–5), so a reviewer who gives the same few answers all day types
 * each once. Kept in localStorage like drafts (the same browser, the same person); "Forget"
 * removes them. Only one-line answers up to RECENT_ANSWER_MAX_LENGTH characters are kept: a long
 * answer is about one question, not a reply to reuse.
 */

export const RECENT_ANSWERS_KEPT = 5;
export const RECENT_ANSWER_MAX_LENGTH = 80;

const KEY = 'questions-inbox:recent-answers:v1';
const CHANGE_EVENT = 'questions-inbox:recent-answers-changed';
const EMPTY: readonly string[] = [];

function storage(): Storage | null {
  try {
    return window.localStorage;
  } catch {
    return null;
  }
}

/** Whether `text` (already trimmed) is the kind of answer worth offering again. */
export function isReusableAnswer(text: string): boolean {
  return text.length > 0 && text.length <= RECENT_ANSWER_MAX_LENGTH && !/[\r\n]/.test(text);
}

function parse(raw: string | null): readonly string[] {
  if (!raw) return EMPTY;
  try {
    const value: unknown = JSON.parse(raw);
    if (!Array.isArray(value)) return EMPTY;
    return value
      .filter((item): item is string => typeof item === 'string' && isReusableAnswer(item))
      .slice(0, RECENT_ANSWERS_KEPT);
  } catch {
    return EMPTY;
  }
}

// The snapshot for useSyncExternalStore must be the same array while the stored text is the same.
let cachedRaw: string | null = null;
let cached: readonly string[] = EMPTY;

export function readRecentAnswers(): readonly string[] {
  let raw: string | null = null;
  try {
    raw = storage()?.getItem(KEY) ?? null;
  } catch {
    raw = null;
  }
  if (raw !== cachedRaw) {
    cachedRaw = raw;
    cached = parse(raw);
  }
  return cached;
}

function write(answers: readonly string[]): void {
  try {
    if (answers.length === 0) storage()?.removeItem(KEY);
    else storage()?.setItem(KEY, JSON.stringify(answers));
  } catch {
    // A browser that refuses storage simply offers nothing: the answer was sent either way.
    return;
  }
  window.dispatchEvent(new Event(CHANGE_EVENT));
}

/**
 * Puts `answer` first (once); the oldest beyond RECENT_ANSWERS_KEPT drop off. An answer the
 * question offered anyway (its format's quick answers, `offered`) is not worth a place.
 */
export function rememberAnswer(answer: string, offered: readonly string[] = []): void {
  const text = answer.trim();
  if (!isReusableAnswer(text) || offered.includes(text)) return;
  const current = readRecentAnswers();
  if (current[0] === text) return;
  write([text, ...current.filter((item) => item !== text)].slice(0, RECENT_ANSWERS_KEPT));
}

export function forgetRecentAnswers(): void {
  write(EMPTY);
}

/** Calls `listener` after a change here or in another tab. */
export function subscribeToRecentAnswers(listener: () => void): () => void {
  const onStorage = (event: StorageEvent) => {
    if (event.key === null || event.key === KEY) listener();
  };
  window.addEventListener(CHANGE_EVENT, listener);
  window.addEventListener('storage', onStorage);
  return () => {
    window.removeEventListener(CHANGE_EVENT, listener);
    window.removeEventListener('storage', onStorage);
  };
}
