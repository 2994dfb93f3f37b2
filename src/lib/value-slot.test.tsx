import { act, render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { createSlot, useSlot } from './value-slot';

describe('a value slot', () => {
  it('re-renders the components that read it when set, not the one that made it', () => {
    const slot = createSlot<string | undefined>(undefined);
    let ownerRenders = 0;
    let readerRenders = 0;
    function Reader() {
      readerRenders++;
      return <p>{useSlot(slot, 'none') ?? 'not yet'}</p>;
    }
    function Owner() {
      ownerRenders++;
      return <Reader />;
    }
    render(<Owner />);
    expect(screen.getByText('not yet')).toBeTruthy();
    act(() => slot.set('Claimed'));
    expect(screen.getByText('Claimed')).toBeTruthy();
    act(() => slot.set('Claimed'));
    expect(ownerRenders).toBe(1);
    expect(readerRenders).toBe(2);
  });

  it('reads its fallback without a slot', () => {
    function Reader() {
      return <p>{useSlot<string>(undefined, 'none')}</p>;
    }
    render(<Reader />);
    expect(screen.getByText('none')).toBeTruthy();
  });
});
