import { MantineProvider } from '@mantine/core';
import { render, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { PartBoundary } from './part-boundary';

function Broken(): never {
  throw new RangeError('Maximum call stack size exceeded');
}

describe('PartBoundary', () => {
  it('names the part that failed and leaves the rest of the screen', () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    render(
      <MantineProvider env="test">
        <p>The rest of the question</p>
        <PartBoundary what="The arguments of this question">
          <Broken />
        </PartBoundary>
      </MantineProvider>,
    );
    expect(screen.getByRole('alert')).toHaveTextContent(
      'The arguments of this question could not be shown',
    );
    expect(screen.getByRole('alert')).not.toHaveTextContent('downloaded');
    expect(screen.getByText('The rest of the question')).toBeInTheDocument();
    vi.restoreAllMocks();
  });
});
