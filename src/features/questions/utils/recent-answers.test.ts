import { describe, expect, it, vi } from 'vitest';
import {
  forgetRecentAnswers,
  RECENT_ANSWER_MAX_LENGTH,
  readRecentAnswers,
  rememberAnswer,
  subscribeToRecentAnswers,
} from './recent-answers';

describe('recent answers', () => {
  it('keeps the five newest distinct answers, newest first, trimmed', () => {
    for (const answer of ['one', 'two', ' three ', 'four', 'two', 'five', 'six']) {
      rememberAnswer(answer);
    }
    expect(readRecentAnswers()).toEqual(['six', 'five', 'two', 'four', 'three']);
  });

  it('keeps only one-line answers up to the limit, and none the question offered anyway', () => {
    rememberAnswer('x'.repeat(RECENT_ANSWER_MAX_LENGTH + 1));
    rememberAnswer('first line\nsecond line');
    rememberAnswer('   ');
    rememberAnswer('Yes', ['Yes', 'No']);
    expect(readRecentAnswers()).toEqual([]);
    rememberAnswer('x'.repeat(RECENT_ANSWER_MAX_LENGTH));
    expect(readRecentAnswers()).toHaveLength(1);
  });

  it('returns the same list while nothing changed, and tells subscribers of a change', () => {
    rememberAnswer('Use the EU template');
    const first = readRecentAnswers();
    expect(readRecentAnswers()).toBe(first);
    const listener = vi.fn();
    const stop = subscribeToRecentAnswers(listener);
    rememberAnswer('Wait for Monday');
    expect(listener).toHaveBeenCalledTimes(1);
    forgetRecentAnswers();
    expect(listener).toHaveBeenCalledTimes(2);
    expect(readRecentAnswers()).toEqual([]);
    stop();
  });

  it('hears of another tab through the storage event, and ignores what is not a list of strings', () => {
    const listener = vi.fn();
    const stop = subscribeToRecentAnswers(listener);
    const key = 'questions-inbox:recent-answers:v1';
    localStorage.setItem(key, JSON.stringify(['from the other tab', 42, 'a\nb']));
    window.dispatchEvent(new StorageEvent('storage', { key }));
    window.dispatchEvent(new StorageEvent('storage', { key: 'something-else' }));
    expect(listener).toHaveBeenCalledTimes(1);
    expect(readRecentAnswers()).toEqual(['from the other tab']);
    localStorage.setItem(key, '{not json');
    expect(readRecentAnswers()).toEqual([]);
    stop();
  });
});
