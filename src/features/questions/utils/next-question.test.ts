import { describe, expect, it } from 'vitest';
import { nextAfterDone } from './next-question';

describe('nextAfterDone', () => {
  it('goes to the question below while the done one is still in the view', () => {
    expect(nextAfterDone(['a', 'b', 'c'], 'b', 1)).toBe('c');
  });
  it('goes to the question above when the done one was the last', () => {
    expect(nextAfterDone(['a', 'b', 'c'], 'c', 2)).toBe('b');
  });
  it('takes the question now in its old place once the done one has left the view', () => {
    expect(nextAfterDone(['a', 'c'], 'b', 1)).toBe('c');
  });
  it('takes the new last question when the one that left was the last', () => {
    expect(nextAfterDone(['a', 'b'], 'c', 2)).toBe('b');
  });
  it('takes the last question when the list shrank by more than one', () => {
    expect(nextAfterDone(['a'], 'e', 4)).toBe('a');
  });
  it('stays when nothing else is left', () => {
    expect(nextAfterDone(['a'], 'a', 0)).toBeNull();
    expect(nextAfterDone([], 'a', 0)).toBeNull();
  });
});
