import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, render, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { teamKeys } from '../api/queries';
import type { TeamState } from '../api/schemas';
import { RowTeam } from './row-team';

vi.mock('../live/team-live', () => ({
  teamLive: () => ({ offsetMs: () => 0, dispose: () => {} }),
}));

const question = (id: string) => ({
  id,
  status: 'pending',
  source: { id: 'reflexio', kind: 'reflexio' },
});

function state(viewers: Array<{ questionId: string; reviewer: string }>): TeamState {
  return {
    viewers: viewers.map((viewer) => ({
      sourceId: 'reflexio',
      reviewerName: null,
      typing: false,
      ...viewer,
    })),
    claims: [],
    serverTime: new Date().toISOString(),
  };
}

describe('RowTeam', () => {
  it('shows who views each row, all rows through one observer of the team state', () => {
    const queryClient = new QueryClient();
    queryClient.setQueryData(teamKeys.me(), 'me@example.com');
    queryClient.setQueryData(
      teamKeys.state(),
      state([{ questionId: 'a', reviewer: 'alice@example.com' }]),
    );
    render(
      <QueryClientProvider client={queryClient}>
        {['a', 'b', 'c'].map((id) => (
          <div key={id} data-testid={`row-${id}`}>
            <RowTeam question={question(id)} />
          </div>
        ))}
      </QueryClientProvider>,
    );
    expect(screen.getByTestId('row-a')).toHaveTextContent('alice viewing');
    expect(screen.getByTestId('row-b')).toHaveTextContent('');
    const observers = (key: readonly unknown[]) =>
      queryClient.getQueryCache().find({ queryKey: key })?.getObserversCount();
    expect(observers(teamKeys.state())).toBe(1);
    expect(observers(teamKeys.me())).toBe(1);

    act(() => {
      queryClient.setQueryData(
        teamKeys.state(),
        state([
          { questionId: 'b', reviewer: 'bob@example.com' },
          { questionId: 'c', reviewer: 'me@example.com' },
        ]),
      );
    });
    expect(screen.getByTestId('row-a')).toHaveTextContent('');
    expect(screen.getByTestId('row-b')).toHaveTextContent('bob viewing');
    // Oneself is never shown as viewing.
    expect(screen.getByTestId('row-c')).toHaveTextContent('');
  });
});
