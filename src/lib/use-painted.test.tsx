import { renderHook, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { usePainted } from './use-painted';

describe('usePainted', () => {
  it('is false on the first render and true once that render has painted', async () => {
    const { result } = renderHook(() => usePainted());
    expect(result.current).toBe(false);
    await waitFor(() => expect(result.current).toBe(true));
  });
});
