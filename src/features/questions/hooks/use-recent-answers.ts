import { readLocalStorageValue, useLocalStorage } from '@mantine/hooks';
import { parseRecentAnswers, withRecentAnswer } from '../utils/recent-answers';

const NONE: string[] = [];
let lastRead: { raw: string | undefined; answers: string[] } | null = null;

/**
 * The same array for the same stored text. Mantine reads the storage again whenever a form using
 * it mounts; a new array each time would render the answer form twice on every question opened.
 */
function readRecentAnswers(raw: string | undefined): string[] {
  if (lastRead === null || lastRead.raw !== raw) {
    const answers = parseRecentAnswers(raw);
    lastRead = { raw, answers: answers.length > 0 ? answers : NONE };
  }
  return lastRead.answers;
}

const stored = {
  key: 'qi:recent-answers',
  defaultValue: NONE,
  deserialize: readRecentAnswers,
};

/**
 * The short answers this browser sent lately, newest first (see utils/recent-answers), shared by
 * every component and tab as the other remembered choices are (Mantine's useLocalStorage).
 */
export function useRecentAnswers() {
  const [answers, setAnswers, forget] = useLocalStorage<string[]>({
    ...stored,
    getInitialValueInEffect: false,
    serialize: (value) => JSON.stringify(value),
  });
  return {
    answers,
    /**
     * After the server accepted `answer`; `offered` are the question's quick answers. Written at
     * once from what is stored now: an updater function would be written only when this
     * component renders again, and "answer and next" unmounts it first.
     */
    remember: (answer: string, offered: readonly string[]) =>
      setAnswers(withRecentAnswer(readLocalStorageValue(stored), answer, offered)),
    forget,
  };
}
