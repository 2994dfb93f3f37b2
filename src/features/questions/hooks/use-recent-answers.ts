import { useLocalStorage } from '@mantine/hooks';
import { parseRecentAnswers, withRecentAnswer } from '../utils/recent-answers';

const none: string[] = [];

/**
 * The short answers this browser sent lately, newest first (see utils/recent-answers), shared by
 * every component and tab as the other remembered choices are (Mantine's useLocalStorage).
 */
export function useRecentAnswers() {
  const [answers, setAnswers, forget] = useLocalStorage<string[]>({
    key: 'qi:recent-answers',
    defaultValue: none,
    getInitialValueInEffect: false,
    serialize: (value) => JSON.stringify(value),
    deserialize: parseRecentAnswers,
  });
  return {
    answers,
    /** After the server accepted `answer`; `offered` are the question's quick answers. */
    remember: (answer: string, offered: readonly string[]) =>
      setAnswers((current) => withRecentAnswer(current, answer, offered)),
    forget,
  };
}
