import { act, renderHook } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { useAnswerAndNext } from './use-drawer-flow';

interface Props {
  openId: string | undefined;
  visibleIds: string[];
  listLoaded: boolean;
}

function setup(initial: Props) {
  const switchTo = vi.fn();
  const lastOpen = { current: null };
  const hook = renderHook(
    ({ openId, visibleIds, listLoaded }: Props) =>
      useAnswerAndNext(openId, visibleIds, lastOpen, switchTo, listLoaded),
    { initialProps: initial },
  );
  return { ...hook, switchTo };
}

describe('answer and next', () => {
  it('moves to the question below the one just done', () => {
    const { result, switchTo } = setup({ openId: 'a', visibleIds: ['a', 'b'], listLoaded: true });
    act(() => result.current.done('a'));
    expect(switchTo).toHaveBeenCalledWith('b');
    expect(result.current.takeAnswerFocus('b')).toBe(true);
  });

  it('a question answered before the list has loaded moves on once it has', () => {
    const { result, rerender, switchTo } = setup({
      openId: 'a',
      visibleIds: [],
      listLoaded: false,
    });
    act(() => result.current.done('a'));
    expect(switchTo).not.toHaveBeenCalled();
    rerender({ openId: 'a', visibleIds: ['a', 'b', 'c'], listLoaded: true });
    expect(switchTo).toHaveBeenCalledWith('b');
  });

  it('does not move once the reviewer has opened another question meanwhile', () => {
    const { result, rerender, switchTo } = setup({
      openId: 'a',
      visibleIds: [],
      listLoaded: false,
    });
    act(() => result.current.done('a'));
    rerender({ openId: 'c', visibleIds: ['a', 'b', 'c'], listLoaded: true });
    expect(switchTo).not.toHaveBeenCalled();
  });
});
