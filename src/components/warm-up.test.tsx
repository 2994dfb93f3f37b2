import { act, render, screen, waitFor } from '@testing-library/react';
import { useEffect, useLayoutEffect } from 'react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { WarmUp } from './warm-up';

const rendered = vi.fn();
const effect = vi.fn();

function Part() {
  rendered();
  useEffect(effect);
  useLayoutEffect(effect);
  return <button type="button">Send answer</button>;
}

function Broken(): never {
  rendered();
  throw new Error('broken part');
}

describe('WarmUp', () => {
  beforeEach(() => vi.clearAllMocks());

  it('renders its children unseen, runs none of their effects, and says when it is done', async () => {
    const onDone = vi.fn();
    render(
      <WarmUp onDone={onDone}>
        <Part />
      </WarmUp>,
    );
    await waitFor(() => expect(onDone).toHaveBeenCalledTimes(1));
    expect(rendered).toHaveBeenCalled();
    expect(effect).not.toHaveBeenCalled();
    expect(screen.queryByText('Send answer')).not.toBeInTheDocument();
  });

  it('leaves the page alone when the part fails to render', async () => {
    render(
      <>
        <p>The page</p>
        <WarmUp onDone={() => {}}>
          <Broken />
        </WarmUp>
      </>,
    );
    // Hidden content renders after the rest, at React's lowest priority.
    await waitFor(() => expect(rendered).toHaveBeenCalled());
    await act(async () => {});
    expect(screen.getByText('The page')).toBeInTheDocument();
  });
});
