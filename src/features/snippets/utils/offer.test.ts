import { describe, expect, it } from 'vitest';
import type { Snippet } from '../api/schemas';
import { offeredSnippets, suggestTitle } from './offer';

let next = 0;
function snippet(title: string, tag: string | null, sourceId = 'reflexio'): Snippet {
  next += 1;
  return {
    id: `id-${next}`,
    sourceId,
    tag,
    title,
    body: `${title} text`,
    createdBy: 'alice',
    createdAt: '2026-01-01T00:00:00Z',
    updatedBy: 'alice',
    updatedByName: null,
    updatedAt: '2026-01-01T00:00:00Z',
    version: 1,
  };
}

describe('offeredSnippets', () => {
  it("puts the question's tags first, in its order, then its system's, then other tags", () => {
    const all = [
      snippet('Zebra', null),
      snippet('apple', null),
      snippet('Refund', 'billing'),
      snippet('Rollback', 'deploy'),
      snippet('Credit', 'Billing'),
      snippet('Escalate', 'legal'),
      snippet('Elsewhere', null, 'vertesia'),
    ];
    const groups = offeredSnippets(
      all,
      { sourceId: 'reflexio', tags: ['deploy', 'billing', 'BILLING'] },
      'Reflexio',
    );
    expect(groups.map((g) => [g.label, g.snippets.map((s) => s.title)])).toEqual([
      ['Tagged deploy', ['Rollback']],
      ['Tagged billing', ['Credit', 'Refund']],
      ['All Reflexio questions', ['apple', 'Zebra']],
      ['Other tags', ['Escalate']],
    ]);
  });

  it('offers nothing for a system without snippets', () => {
    expect(
      offeredSnippets([snippet('Refund', null)], { sourceId: 'bilby', tags: [] }, 'Bilby'),
    ).toEqual([]);
  });
});

describe('suggestTitle', () => {
  it('takes the first line, cut at a word', () => {
    expect(suggestTitle('  We refund within 30 days.\nThanks')).toBe('We refund within 30 days.');
    expect(
      suggestTitle(
        'Please open a ticket with the finance team and attach the month-end report you received',
      ),
    ).toBe('Please open a ticket with the finance team and attach the…');
    expect(suggestTitle('')).toBe('');
  });
});
