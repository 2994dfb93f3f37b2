import { MantineProvider } from '@mantine/core';
import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { ApiError } from '@/lib/api-client';
import { type Question, REFLEXIO_ORIGIN } from '../../api/schemas';
import { BulkFailureList } from './bulk-dialog';

const question = (id: string, questionText: string) =>
  ({ id, questionText, source: REFLEXIO_ORIGIN, status: 'pending' }) as Question;

describe('BulkFailureList', () => {
  it('quotes the server’s words, but not a busy source’s (the portal’s own)', () => {
    const failures = [
      {
        question: question('q1', 'Deploy on Friday?'),
        error: new ApiError({
          kind: 'server',
          status: 500,
          detail: 'database is locked',
          method: 'POST',
          url: 'u',
        }),
      },
      {
        question: question('q2', 'Which region?'),
        error: new ApiError({
          kind: 'busy',
          status: 409,
          detail: 'The agent is still working on this conversation; try again in a moment.',
          method: 'POST',
          url: 'u',
        }),
      },
    ];
    render(
      <MantineProvider env="test">
        <BulkFailureList failures={failures} />
      </MantineProvider>,
    );
    const items = screen.getAllByRole('listitem');
    expect(items[0]).toHaveTextContent('(the server said: “database is locked”)');
    expect(items[1]).toHaveTextContent(
      '“Which region?”: The agent is still working: try again in a moment.',
    );
    expect(items[1]).not.toHaveTextContent('the server said');
  });
});
