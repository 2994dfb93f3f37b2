import { describe, expect, it } from 'vitest';
import { type Question, REFLEXIO_ORIGIN } from '../api/schemas';
import {
  applyFilters,
  facetValues,
  filtersToParams,
  matchesSearch,
  parseFilters,
  shownPerStatus,
} from './filters';

function question(overrides: Partial<Question>): Question {
  return {
    id: 'ptc_1',
    source: REFLEXIO_ORIGIN,
    status: 'pending',
    toolName: 'ask_human',
    questionText: 'Deploy to staging?',
    userId: null,
    tags: [],
    answerFormat: null,
    args: null,
    scope: null,
    result: null,
    notApplicable: false,
    supersededBy: null,
    scopeHash: null,
    dedupKey: null,
    asker: null,
    createdAt: 0,
    resolvedAt: null,
    expiresAt: null,
    validUntil: null,
    ...overrides,
  };
}

describe('filters in the URL', () => {
  it('reads a shared link', () => {
    expect(
      parseFilters(
        new URLSearchParams(
          'status=resolved&q=deploy&tag=infra&sort=expiry&user=bob&source=vertesia',
        ),
      ),
    ).toEqual({
      status: 'resolved',
      q: 'deploy',
      tag: 'infra',
      user: 'bob',
      source: 'vertesia',
      sort: 'expiry',
    });
  });

  it('falls back to defaults for anything invalid', () => {
    expect(parseFilters(new URLSearchParams('status=<script>&sort=sideways&tag=%20%20'))).toEqual({
      status: 'pending',
      q: '',
      tag: null,
      user: null,
      source: null,
      sort: 'expiry',
    });
    expect(parseFilters(new URLSearchParams('status=all')).sort).toBe('newest');
    expect(parseFilters(new URLSearchParams(`q=${'x'.repeat(5000)}`)).q).toHaveLength(200);
  });

  it('writes only what differs from the defaults, and round-trips', () => {
    expect(filtersToParams(parseFilters(new URLSearchParams(''))).toString()).toBe('');
    const params = new URLSearchParams(
      'status=cancelled&q=invoice&tag=billing&sort=expiry&source=bilby',
    );
    expect(parseFilters(filtersToParams(parseFilters(params)))).toEqual(parseFilters(params));
    expect(
      filtersToParams({
        status: 'pending',
        q: ' ',
        tag: null,
        user: null,
        source: null,
        sort: 'newest',
      }).toString(),
    ).toBe('sort=newest');
  });
});

describe('search and sorting in the browser', () => {
  const questions = [
    question({
      id: 'ptc_a',
      questionText: 'Which region?',
      tags: ['infra'],
      createdAt: 3,
      expiresAt: 300,
    }),
    question({
      id: 'ptc_b',
      questionText: 'Refund ACME?',
      tags: ['billing'],
      userId: 'bob@example.com',
      createdAt: 2,
      expiresAt: 100,
    }),
    question({
      id: 'ptc_c',
      status: 'resolved',
      result: { answer: 'Use Frankfurt' },
      createdAt: 1,
    }),
    question({ id: 'ptc_d', toolName: 'approve_deployment', createdAt: 4, expiresAt: null }),
  ];

  it('matches text, tags, user, tool, id and answer, all words, any case', () => {
    expect(matchesSearch(questions[0] as Question, 'REGION')).toBe(true);
    expect(matchesSearch(questions[1] as Question, 'bob acme')).toBe(true);
    expect(matchesSearch(questions[1] as Question, 'bob region')).toBe(false);
    expect(matchesSearch(questions[2] as Question, 'frankfurt')).toBe(true);
    expect(matchesSearch(questions[3] as Question, 'approve_deploy')).toBe(true);
    expect(matchesSearch(questions[3] as Question, 'ptc_d')).toBe(true);
  });

  it('filters by status, tag and user, and sorts by expiry (soonest first, none last) or newest', () => {
    const base = { q: '', tag: null, user: null, source: null } as const;
    expect(
      applyFilters(questions, { ...base, status: 'pending', sort: 'expiry' }).map((q) => q.id),
    ).toEqual(['ptc_b', 'ptc_a', 'ptc_d']);
    expect(
      applyFilters(questions, { ...base, status: 'all', sort: 'newest' }).map((q) => q.id),
    ).toEqual(['ptc_d', 'ptc_a', 'ptc_b', 'ptc_c']);
    expect(
      applyFilters(questions, { ...base, status: 'all', sort: 'newest', tag: 'billing' }).map(
        (q) => q.id,
      ),
    ).toEqual(['ptc_b']);
    expect(
      applyFilters(questions, { ...base, status: 'all', sort: 'newest', user: 'bob@example.com' }),
    ).toHaveLength(1);
  });

  it('filters by source across every system, and search finds the source’s name', () => {
    const vertesia = { id: 'vertesia', kind: 'vertesia', label: 'Vertesia' } as const;
    const mixed = [
      ...questions,
      question({ id: 'vertesia:ask_1', source: vertesia, createdAt: 5 }),
    ];
    const base = { q: '', tag: null, user: null, status: 'all', sort: 'newest' } as const;
    expect(applyFilters(mixed, { ...base, source: 'vertesia' }).map((q) => q.id)).toEqual([
      'vertesia:ask_1',
    ]);
    expect(applyFilters(mixed, { ...base, source: 'reflexio' })).toHaveLength(4);
    expect(applyFilters(mixed, { ...base, source: null })).toHaveLength(5);
    expect(matchesSearch(mixed[4] as Question, 'vertesia')).toBe(true);
  });

  it('offers tag values most used first', () => {
    const tagged = [question({ tags: ['a', 'b'] }), question({ tags: ['b'] })];
    expect(facetValues(tagged, (q) => q.tags)).toEqual(['b', 'a']);
  });

  it('offers values used as often alphabetically, whatever their case, in every locale', () => {
    const tagged = [question({ tags: ['beta', 'Alpha', 'zeta', 'alpha', 'Beta'] })];
    expect(facetValues(tagged, (q) => q.tags)).toEqual(['Alpha', 'alpha', 'Beta', 'beta', 'zeta']);
  });
});

describe('the Resolved view and counts of what is shown', () => {
  const answered = [
    question({ id: 'r_old', status: 'resolved', createdAt: 5, resolvedAt: 10 }),
    question({ id: 'r_new', status: 'resolved', createdAt: 1, resolvedAt: 50 }),
    question({ id: 'r_mid', status: 'resolved', createdAt: 9, resolvedAt: 30, tags: ['billing'] }),
    question({ id: 'r_none', status: 'resolved', createdAt: 20, resolvedAt: null }),
  ];
  const base = { q: '', tag: null, user: null, source: null } as const;

  it('sorts the Resolved view by when each was resolved, latest first', () => {
    expect(parseFilters(new URLSearchParams('status=resolved')).sort).toBe('resolved');
    expect(filtersToParams({ ...base, status: 'resolved', sort: 'resolved' }).toString()).toBe(
      'status=resolved',
    );
    expect(
      applyFilters(answered, { ...base, status: 'resolved', sort: 'resolved' }).map((q) => q.id),
    ).toEqual(['r_new', 'r_mid', 'r_old', 'r_none']);
    // Newest first is still there, by when each was asked.
    expect(
      applyFilters(answered, { ...base, status: 'resolved', sort: 'newest' }).map((q) => q.id),
    ).toEqual(['r_none', 'r_mid', 'r_old', 'r_new']);
    expect(parseFilters(new URLSearchParams('status=resolved&sort=newest')).sort).toBe('newest');
  });

  it('counts per status what the tag, user, source and search filters let through', () => {
    const mixed = [
      ...answered,
      question({ id: 'p_1', tags: ['billing'] }),
      question({ id: 'p_2' }),
      question({ id: 'x_1', status: 'expired' }),
    ];
    expect(shownPerStatus(mixed, { ...base, status: 'pending', sort: 'expiry' })).toBeNull();
    expect(
      shownPerStatus(mixed, { ...base, tag: 'billing', status: 'pending', sort: 'expiry' }),
    ).toEqual({
      all: 2,
      pending: 1,
      resolved: 1,
      expired: 0,
      superseded: 0,
      cancelled: 0,
    });
    expect(
      shownPerStatus(mixed, { ...base, q: 'x_1', status: 'all', sort: 'newest' }),
    ).toMatchObject({ all: 1, expired: 1, pending: 0 });
  });

  it('counts the view as it shows it, and searches the other statuses only', () => {
    const mixed = [
      ...answered,
      question({ id: 'p_1', tags: ['billing'] }),
      question({ id: 'p_2', tags: ['billing'] }),
    ];
    const pending = { ...base, tag: 'billing', status: 'pending', sort: 'expiry' } as const;
    // The view's own list may differ from the complete one for a moment (read at another time):
    // its count is what it shows.
    const view = applyFilters([question({ id: 'p_3', tags: ['billing'] })], pending);
    expect(shownPerStatus(mixed, pending, view)).toEqual({
      ...shownPerStatus(mixed, pending),
      pending: 1,
      all: 2,
    });
    // The All view: its rows are counted by status, nothing else is searched.
    const all = { ...pending, status: 'all', sort: 'newest' } as const;
    expect(shownPerStatus(mixed, all, applyFilters(mixed, all))).toEqual(
      shownPerStatus(mixed, all),
    );
    expect(shownPerStatus([], all, applyFilters(mixed, all))).toMatchObject({ all: 3, pending: 2 });
  });
});
