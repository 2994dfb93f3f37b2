import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, renderHook } from '@testing-library/react';
import type { ReactNode } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { type Question, REFLEXIO_ORIGIN } from '../api/schemas';
import { type QuestionSource, QuestionSourceContext } from '../api/source';
import { BULK_CONCURRENCY, useBulkRun } from './use-bulk-run';

const alike = { scopeHash: 'scope-1', dedupKey: 'orders_v2' } as const;

const bilby = { id: 'bilby', kind: 'bilby', label: 'Bilby' } as const;

function question(id: string, overrides: Partial<Question> = {}): Question {
  return {
    id,
    source: REFLEXIO_ORIGIN,
    status: 'pending',
    asker: null,
    scopeHash: null,
    dedupKey: null,
    toolName: 'ask_human',
    questionText: `Question ${id}?`,
    createdAt: 0,
    ...overrides,
  } as Question;
}

/** A source whose not-applicable calls wait until the test lets them go, failing for `refused`. */
function heldSource(refused: Set<string>) {
  const calls: { id: string; together?: readonly string[] }[] = [];
  let inFlight = 0;
  let most = 0;
  const waiting: (() => void)[] = [];
  const source = {
    key: 'test',
    label: 'Test',
    markNotApplicable(id: string, input: { together?: readonly string[] }) {
      calls.push({ id, ...(input.together ? { together: input.together } : {}) });
      inFlight += 1;
      most = Math.max(most, inFlight);
      return new Promise((resolve, reject) => {
        waiting.push(() => {
          inFlight -= 1;
          if (refused.has(id)) reject(new Error(`refused ${id}`));
          else resolve(question(id, { status: 'resolved' }));
        });
      });
    },
  } as unknown as QuestionSource;
  /** Lets every call made so far finish. */
  const release = () =>
    act(async () => {
      for (const finish of waiting.splice(0)) finish();
    });
  return { source, calls, most: () => most, inFlight: () => inFlight, release };
}

function renderBulkRun(source: QuestionSource) {
  const queryClient = new QueryClient({ defaultOptions: { mutations: { retry: false } } });
  const wrapper = ({ children }: { children: ReactNode }) => (
    <QueryClientProvider client={queryClient}>
      <QuestionSourceContext value={source}>{children}</QuestionSourceContext>
    </QueryClientProvider>
  );
  return renderHook(() => useBulkRun(), { wrapper });
}

describe('useBulkRun', () => {
  it(`sends ${BULK_CONCURRENCY} at a time and lists failures in the batch's order`, async () => {
    const held = heldSource(new Set(['q5', 'q2']));
    const { result } = renderBulkRun(held.source);
    const batch = ['q1', 'q2', 'q3', 'q4', 'q5', 'q6', 'q7'].map((id) => question(id));
    let outcome: Promise<{ question: Question }[]> | undefined;
    act(() => {
      outcome = result.current.run('not-applicable', batch);
    });
    // Four go out; no fifth until one of them is done.
    await vi.waitFor(() => expect(held.inFlight()).toBe(BULK_CONCURRENCY));
    expect(held.calls.map((c) => c.id)).toEqual(['q1', 'q2', 'q3', 'q4']);
    await held.release();
    await vi.waitFor(() => expect(held.inFlight()).toBe(3));
    await held.release();
    const failures = await outcome;
    expect(held.calls.map((c) => c.id)).toEqual(['q1', 'q2', 'q3', 'q4', 'q5', 'q6', 'q7']);
    expect(held.most()).toBe(BULK_CONCURRENCY);
    expect(failures?.map((f) => f.question.id)).toEqual(['q2', 'q5']);
    expect(result.current.progress).toBe(7);
  });

  it('sends the newest of look-alikes after the others, so it is the answer Reflexio keeps', async () => {
    const held = heldSource(new Set());
    const { result } = renderBulkRun(held.source);
    const batch = [
      question('old', { ...alike, createdAt: 1 }),
      question('newest', { ...alike, createdAt: 3 }),
      question('other'),
      question('middle', { ...alike, createdAt: 2 }),
    ];
    let outcome: Promise<unknown> | undefined;
    act(() => {
      outcome = result.current.run('not-applicable', batch);
    });
    await vi.waitFor(() => expect(held.inFlight()).toBe(3));
    expect(held.calls.map((c) => c.id)).toEqual(['old', 'other', 'middle']);
    await held.release();
    await vi.waitFor(() => expect(held.calls.map((c) => c.id)).toContain('newest'));
    await held.release();
    await outcome;
    expect(held.calls.map((c) => c.id)).toEqual(['old', 'other', 'middle', 'newest']);
  });

  it('sends a Bilby conversation’s calls together, naming each other', async () => {
    const held = heldSource(new Set());
    const { result } = renderBulkRun(held.source);
    const batch = [
      question('bilby:c1:t1', { source: bilby, asker: 'c1' }),
      question('r1'),
      question('bilby:c1:t2', { source: bilby, asker: 'c1' }),
    ];
    let outcome: Promise<unknown> | undefined;
    act(() => {
      outcome = result.current.run('not-applicable', batch);
    });
    await vi.waitFor(() => expect(held.inFlight()).toBe(3));
    await held.release();
    await outcome;
    const pair = ['bilby:c1:t1', 'bilby:c1:t2'];
    expect(held.calls).toEqual([
      { id: 'bilby:c1:t1', together: pair },
      { id: 'bilby:c1:t2', together: pair },
      { id: 'r1' },
    ]);
  });
});
