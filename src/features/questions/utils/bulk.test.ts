import { describe, expect, it } from 'vitest';
import { type Question, REFLEXIO_ORIGIN } from '../api/schemas';
import { bulkActions, bulkSummary } from './bulk';

const now = Date.UTC(2026, 0, 1);
function question(patch: Partial<Question>): Question {
  return {
    id: 'q',
    source: REFLEXIO_ORIGIN,
    status: 'pending',
    toolName: 'ask_human',
    questionText: 'Q?',
    answerFormat: null,
    tags: [],
    userId: null,
    createdAt: now - 1000,
    expiresAt: now + 60_000,
    resolvedAt: null,
    validUntil: null,
    result: null,
    notApplicable: false,
    args: null,
    scope: null,
    supersededBy: null,
    scopeHash: null,
    dedupKey: null,
    asker: null,
    ...patch,
  };
}

describe('bulkActions', () => {
  it('offers all three for pending ask_human questions', () => {
    expect(bulkActions([question({}), question({ id: 'r' })], now)).toEqual([
      'answer',
      'not-applicable',
      'cancel',
    ]);
  });
  it('offers only what every question allows: another tool takes Answer and Not applicable off', () => {
    expect(bulkActions([question({}), question({ id: 't', toolName: 'deploy' })], now)).toEqual([
      'cancel',
    ]);
  });
  it('offers nothing when one of them is closed (or overdue)', () => {
    expect(bulkActions([question({}), question({ id: 'x', status: 'expired' })], now)).toEqual([]);
    expect(bulkActions([question({ expiresAt: now - 1 })], now)).toEqual([]);
  });
  it('offers nothing for no question', () => {
    expect(bulkActions([], now)).toEqual([]);
  });
});

describe('bulkSummary', () => {
  it('counts in words', () => {
    expect(bulkSummary('answer', 3, 3)).toBe('Answered 3 of 3');
    expect(bulkSummary('not-applicable', 4, 5)).toBe('Marked 4 of 5 not applicable');
    expect(bulkSummary('cancel', 0, 2)).toBe('Cancelled 0 of 2');
  });
});
