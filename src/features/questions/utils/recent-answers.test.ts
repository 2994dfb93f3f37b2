import { describe, expect, it } from 'vitest';
import { parseRecentAnswers, RECENT_ANSWER_MAX_LENGTH, withRecentAnswer } from './recent-answers';

const remembered = (answers: string[], offered: string[] = []) =>
  answers.reduce<string[]>((list, answer) => withRecentAnswer(list, answer, offered), []);

describe('recent answers', () => {
  it('keeps the five newest distinct answers, newest first, trimmed', () => {
    expect(remembered(['one', 'two', ' three ', 'four', 'two', 'five', 'six'])).toEqual([
      'six',
      'five',
      'two',
      'four',
      'three',
    ]);
  });

  it('keeps only one-line answers up to the limit, and none the question offered anyway', () => {
    const list = ['kept'];
    expect(withRecentAnswer(list, 'x'.repeat(RECENT_ANSWER_MAX_LENGTH + 1))).toBe(list);
    expect(withRecentAnswer(list, 'first line\nsecond line')).toBe(list);
    expect(withRecentAnswer(list, '   ')).toBe(list);
    expect(withRecentAnswer(list, 'Yes', ['Yes', 'No'])).toBe(list);
    expect(withRecentAnswer(list, ' kept ')).toBe(list);
    expect(withRecentAnswer(list, 'x'.repeat(RECENT_ANSWER_MAX_LENGTH))).toHaveLength(2);
  });

  it('reads back only what could have been stored', () => {
    expect(parseRecentAnswers(JSON.stringify(['from the other tab', 42, 'a\nb']))).toEqual([
      'from the other tab',
    ]);
    expect(parseRecentAnswers('{not json')).toEqual([]);
    expect(parseRecentAnswers('{"a": 1}')).toEqual([]);
    expect(parseRecentAnswers(undefined)).toEqual([]);
    expect(parseRecentAnswers(JSON.stringify(['1', '2', '3', '4', '5', '6']))).toHaveLength(5);
  });
});
