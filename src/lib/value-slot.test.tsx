import { act, render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { createSlot, type Slot, useSlot } from './value-slot';

const renders = { owner: 0, reader: 0 };

function Reader({ slot }: { slot: Slot<string | undefined> | undefined }) {
  renders.reader++;
  return <p>{useSlot(slot, 'none') ?? 'not yet'}</p>;
}

function Owner({ slot }: { slot: Slot<string | undefined> }) {
  renders.owner++;
  return <Reader slot={slot} />;
}

describe('a value slot', () => {
  it('re-renders the components that read it when set, not the one that made it', () => {
    renders.owner = 0;
    renders.reader = 0;
    const slot = createSlot<string | undefined>(undefined);
    render(<Owner slot={slot} />);
    expect(screen.getByText('not yet')).toBeTruthy();
    act(() => slot.set('Claimed'));
    expect(screen.getByText('Claimed')).toBeTruthy();
    act(() => slot.set('Claimed'));
    expect(renders.owner).toBe(1);
    expect(renders.reader).toBe(2);
  });

  it('reads its fallback without a slot', () => {
    render(<Reader slot={undefined} />);
    expect(screen.getByText('none')).toBeTruthy();
  });
});
