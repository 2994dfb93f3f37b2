import { renderHook } from '@testing-library/react';
import type { ReactNode } from 'react';
import { describe, expect, it } from 'vitest';
import { ServerViewContext } from '@/lib/first-screen';
import { firstRenderRows, useFirstRenderRows } from './row-focus';

const ROW_HEIGHT = 88;
// What the server renders for (row-focus.ts: a 1,200 px window).
const SERVER_ROWS = Math.ceil(1200 / ROW_HEIGHT);

describe('the rows of the list’s first render', () => {
  it('are as many as the window shows on a page the browser rendered', () => {
    const { result } = renderHook(() => useFirstRenderRows(ROW_HEIGHT));
    expect(result.current).toBe(firstRenderRows(ROW_HEIGHT));
    expect(result.current).toBeLessThan(SERVER_ROWS);
  });

  it('keep the server’s rows on a page it rendered, where the window shows fewer (no render to take them away)', () => {
    const wrapper = ({ children }: { children: ReactNode }) => (
      <ServerViewContext value={{ colorScheme: 'light', density: 'comfortable' }}>
        {children}
      </ServerViewContext>
    );
    const { result } = renderHook(() => useFirstRenderRows(ROW_HEIGHT), { wrapper });
    expect(result.current).toBe(SERVER_ROWS);
  });
});
