import { describe, expect, it } from 'vitest';
import type { TeamState } from '../api/schemas';
import {
  claimOn,
  keepsQuestion,
  minutesLeft,
  othersViewing,
  parseClaimedFilter,
  shortName,
} from './team-policy';

const question = { id: 'q1', status: 'pending', source: { id: 'reflexio', kind: 'reflexio' } };
const other = { ...question, id: 'q2' };
const now = Date.parse('2026-12-02T12:00:00Z');
const state: TeamState = {
  serverTime: new Date(now).toISOString(),
  viewers: [
    { sourceId: 'reflexio', questionId: 'q1', reviewer: 'me@x', reviewerName: null, typing: false },
    {
      sourceId: 'reflexio',
      questionId: 'q1',
      reviewer: 'bob@x',
      reviewerName: null,
      typing: false,
    },
    {
      sourceId: 'reflexio',
      questionId: 'q1',
      reviewer: 'alice@x',
      reviewerName: null,
      typing: true,
    },
    {
      sourceId: 'vertesia',
      questionId: 'q1',
      reviewer: 'carol@x',
      reviewerName: null,
      typing: false,
    },
  ],
  claims: [
    {
      sourceId: 'reflexio',
      questionId: 'q1',
      reviewer: 'alice@x',
      reviewerName: null,
      claimedAt: new Date(now - 180_000).toISOString(),
      expiresAt: new Date(now + 11 * 60_000 + 1).toISOString(),
    },
  ],
};

describe('team policy', () => {
  it('lists the others on a question, typing first, never oneself or another system', () => {
    expect(othersViewing(state, question, 'me@x').map((v) => v.reviewer)).toEqual([
      'alice@x',
      'bob@x',
    ]);
  });

  it('holds a claim until it expires, counting whole minutes up', () => {
    const claim = claimOn(state, question, now);
    expect(claim?.reviewer).toBe('alice@x');
    expect(claim && minutesLeft(claim, now)).toBe(12);
    expect(claimOn(state, question, now + 11 * 60_000 + 1)).toBeNull();
  });

  it('never says more minutes than the claim was taken for, though the clock lags a tick', () => {
    const claimedAt = now;
    const claim = {
      ...(state.claims[0] as (typeof state.claims)[number]),
      claimedAt: new Date(claimedAt).toISOString(),
      expiresAt: new Date(claimedAt + 15 * 60_000).toISOString(),
    };
    // The page's estimate of the server's time is up to a second behind it.
    expect(minutesLeft(claim, claimedAt - 800)).toBe(15);
    expect(minutesLeft(claim, claimedAt + 60_000)).toBe(14);
    expect(minutesLeft({ ...claim, claimedAt: 'garbled' }, claimedAt + 60_000)).toBe(14);
  });

  it('filters by claim: anyone, mine, unclaimed; anything else is no filter', () => {
    expect(parseClaimedFilter('bogus')).toBeNull();
    const keep = (filter: string, q = question, me = 'me@x') =>
      keepsQuestion(parseClaimedFilter(filter), state, q, me, now);
    expect([keep('anyone'), keep('anyone', other)]).toEqual([true, false]);
    expect([keep('mine'), keep('mine', question, 'alice@x')]).toEqual([false, true]);
    expect([keep('unclaimed'), keep('unclaimed', other)]).toEqual([false, true]);
    expect(keep('')).toBe(true);
  });

  it('names who is looking or holds a question with direction overrides shown as marks', () => {
    expect(shortName('alice@example.com')).toBe('alice');
    expect(shortName('\u202eecila@example.com')).toBe('⟨RLO⟩ecila');
  });
});
