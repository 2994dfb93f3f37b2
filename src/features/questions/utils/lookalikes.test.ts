import { describe, expect, it } from 'vitest';
import { type Question, type QuestionOrigin, REFLEXIO_ORIGIN } from '../api/schemas';
import { answeredBefore } from './answered-before';
import {
  groupLookalikes,
  lookalikeGroups,
  lookalikeKey,
  narrowLookalikes,
  normalizeQuestionText,
} from './lookalikes';

const now = Date.UTC(2026, 0, 1);
const VERTESIA: QuestionOrigin = { id: 'vertesia', kind: 'vertesia', label: 'Vertesia' };

function question(patch: Partial<Question>): Question {
  return {
    id: 'q',
    source: REFLEXIO_ORIGIN,
    status: 'pending',
    toolName: 'ask_human',
    questionText: 'Drop the orders table?',
    answerFormat: null,
    tags: [],
    userId: null,
    createdAt: now,
    expiresAt: now + 60_000,
    resolvedAt: null,
    validUntil: null,
    result: null,
    notApplicable: false,
    args: null,
    scope: null,
    supersededBy: null,
    scopeHash: 'scope-a',
    dedupKey: 'dedup-1',
    asker: null,
    ...patch,
  };
}

const ids = (questions: Question[]) => questions.map((q) => q.id);

describe('normalizeQuestionText', () => {
  it('trims, collapses whitespace and lower-cases', () => {
    expect(normalizeQuestionText('  Drop   the\n\tOrders TABLE? ')).toBe('drop the orders table?');
  });
});

describe('lookalikeKey', () => {
  it('is source + scope_hash + tool + dedup_key for Reflexio', () => {
    const a = question({ id: 'a', questionText: 'One wording' });
    const b = question({ id: 'b', questionText: 'Another wording, same dedup key' });
    expect(lookalikeKey(a)).toBe(lookalikeKey(b));
    expect(lookalikeKey(question({ scopeHash: 'scope-b' }))).not.toBe(lookalikeKey(a));
    expect(lookalikeKey(question({ toolName: 'approve' }))).not.toBe(lookalikeKey(a));
    expect(lookalikeKey(question({ dedupKey: 'dedup-2' }))).not.toBe(lookalikeKey(a));
    expect(lookalikeKey(question({ source: VERTESIA }))).not.toBe(lookalikeKey(a));
  });

  it('falls back to the normalized text from the same asker where there is no dedup key', () => {
    const vertesia = (patch: Partial<Question>) =>
      question({ source: VERTESIA, scopeHash: null, dedupKey: null, asker: 'agent-1', ...patch });
    expect(lookalikeKey(vertesia({ questionText: ' Drop THE orders  table? ' }))).toBe(
      lookalikeKey(vertesia({})),
    );
    expect(lookalikeKey(vertesia({ asker: 'agent-2' }))).not.toBe(lookalikeKey(vertesia({})));
    expect(lookalikeKey(vertesia({ questionText: 'Something else?' }))).not.toBe(
      lookalikeKey(vertesia({})),
    );
    // Within one scope when Reflexio sends a scope but no dedup key.
    expect(lookalikeKey(question({ dedupKey: null }))).toBe(
      lookalikeKey(question({ dedupKey: null, questionText: 'drop the ORDERS table?' })),
    );
  });

  it('is null when nothing tells scopes apart, or there is no text', () => {
    expect(lookalikeKey(question({ scopeHash: null, dedupKey: null }))).toBeNull();
    expect(lookalikeKey(question({ scopeHash: null, dedupKey: 'dedup-1' }))).toBeNull();
    expect(
      lookalikeKey(question({ scopeHash: null, dedupKey: null, asker: 'x', questionText: '  ' })),
    ).toBeNull();
  });
});

describe('groupLookalikes', () => {
  it('makes one row of pending look-alikes, where its first member is, named by the oldest ask', () => {
    const list = [
      question({ id: 'other', dedupKey: 'dedup-9' }),
      question({ id: 'b', createdAt: now + 2 }),
      question({ id: 'solo', scopeHash: null, dedupKey: null }),
      question({ id: 'a', createdAt: now + 1 }),
      question({ id: 'c', createdAt: now + 3 }),
    ];
    const { rows, groups, leadOf } = groupLookalikes(list);
    expect(ids(rows)).toEqual(['other', 'a', 'solo']);
    expect(ids(groups.get('a') ?? [])).toEqual(['a', 'b', 'c']);
    expect(groups.size).toBe(1);
    expect(leadOf.get('c')).toBe('a');
    expect(leadOf.has('other')).toBe(false);
  });

  it('sorts members by when they were asked, then by id', () => {
    const list = [
      question({ id: 'z', createdAt: now }),
      question({ id: 'y', createdAt: now }),
      question({ id: 'x', createdAt: now - 5 }),
    ];
    expect(ids(groupLookalikes(list).groups.get('x') ?? [])).toEqual(['x', 'y', 'z']);
  });

  it('never groups across scopes', () => {
    const list = [
      question({ id: 'u1', scopeHash: 'user-1' }),
      question({ id: 'u2', scopeHash: 'user-2' }),
    ];
    const { rows, groups } = groupLookalikes(list);
    expect(ids(rows)).toEqual(['u1', 'u2']);
    expect(groups.size).toBe(0);
  });

  it('leaves closed questions alone', () => {
    const list = [
      question({ id: 'p' }),
      question({ id: 'r', status: 'resolved', result: { answer: 'no' } }),
      question({ id: 'e', status: 'expired' }),
    ];
    const { rows, groups } = groupLookalikes(list);
    expect(ids(rows)).toEqual(['p', 'r', 'e']);
    expect(groups.size).toBe(0);
  });

  it('does not make a group of one id sent twice', () => {
    const list = [question({ id: 'dup' }), question({ id: 'dup' })];
    expect(groupLookalikes(list).groups.size).toBe(0);
    expect(groupLookalikes(list).rows).toHaveLength(2);
  });
});

describe('narrowLookalikes', () => {
  const list = [
    question({ id: 'other', dedupKey: 'dedup-9' }),
    question({ id: 'b', createdAt: now + 2, tags: ['x'] }),
    question({ id: 'solo', scopeHash: null, dedupKey: null }),
    question({ id: 'a', createdAt: now + 1 }),
    question({ id: 'c', createdAt: now + 3, tags: ['x'] }),
    question({ id: 'd', createdAt: now + 4, tags: ['x'] }),
    question({ id: 'v1', source: VERTESIA, scopeHash: null, dedupKey: null, asker: 'agent' }),
    question({ id: 'v2', source: VERTESIA, scopeHash: null, dedupKey: null, asker: 'agent' }),
    question({ id: 'r', status: 'resolved', result: { answer: 'no' } }),
    question({ id: 'dup', dedupKey: 'dedup-7' }),
    question({ id: 'dup', dedupKey: 'dedup-7' }),
  ];
  const groups = lookalikeGroups(list);
  const picks: Record<string, (q: Question) => boolean> = {
    everything: () => true,
    nothing: () => false,
    'a tag': (q) => q.tags.includes('x'),
    'one of each group': (q) => ['a', 'v2', 'other', 'dup'].includes(q.id),
    'the newest first': () => true,
  };
  for (const [name, pick] of Object.entries(picks)) {
    it(`shows what grouping the shown questions anew would: ${name}`, () => {
      const shown = list.filter(pick);
      if (name === 'the newest first') shown.reverse();
      const narrowed = narrowLookalikes(groups, shown);
      const anew = groupLookalikes(shown);
      expect(ids(narrowed.rows)).toEqual(ids(anew.rows));
      // By lead: the map's order is not used (look-ups only).
      const byLead = (map: ReadonlyMap<string, Question[]>) =>
        [...map].map(([lead, members]) => [lead, ids(members)]).sort();
      expect(byLead(narrowed.groups)).toEqual(byLead(anew.groups));
      expect([...narrowed.leadOf].sort()).toEqual([...anew.leadOf].sort());
    });
  }

  it("leaves the whole list's groups as they were", () => {
    narrowLookalikes(
      groups,
      list.filter((q) => q.id !== 'a'),
    );
    expect(ids(groups.get('a') ?? [])).toEqual(['a', 'b', 'c', 'd']);
  });
});

describe('answeredBefore', () => {
  const open = question({ id: 'open' });
  const answered = (id: string, answer: string, at: number, patch: Partial<Question> = {}) =>
    question({ id, status: 'resolved', result: { answer }, resolvedAt: at, ...patch });

  it('lists resolved and superseded answers of the same question, newest first', () => {
    const list = [
      answered('old', 'Keep it', now - 3000, { status: 'superseded' }),
      answered('new', 'Drop it', now - 1000),
      answered('scope', 'Other user', now, { scopeHash: 'scope-b' }),
      answered('na', 'x', now, { notApplicable: true }),
      question({ id: 'pending' }),
      open,
    ];
    const found = answeredBefore(open, list);
    expect(found.map((a) => [a.question.id, a.text, a.at])).toEqual([
      ['new', 'Drop it', now - 1000],
      ['old', 'Keep it', now - 3000],
    ]);
  });

  it('lists a text given twice once, at its latest, and at most `limit`', () => {
    const list = [
      answered('a', 'Yes', now - 5000),
      answered('b', 'Yes', now - 1000),
      answered('c', 'No', now - 2000),
      answered('d', 'Maybe', now - 3000),
    ];
    expect(answeredBefore(open, list).map((a) => a.question.id)).toEqual(['b', 'c', 'd']);
    expect(answeredBefore(open, list, 2).map((a) => a.text)).toEqual(['Yes', 'No']);
  });

  it('reads a new list anew (each list is indexed once, by its identity)', () => {
    const list = [answered('a', 'Yes', now - 5000)];
    expect(answeredBefore(open, list).map((a) => a.text)).toEqual(['Yes']);
    expect(answeredBefore(open, list).map((a) => a.text)).toEqual(['Yes']);
    const next = [...list, answered('b', 'No', now - 1000)];
    expect(answeredBefore(open, next).map((a) => a.text)).toEqual(['No', 'Yes']);
  });

  it('has nothing for a question that cannot be matched', () => {
    const lone = question({ scopeHash: null, dedupKey: null });
    expect(answeredBefore(lone, [answered('a', 'Yes', now, { scopeHash: null })])).toEqual([]);
  });
});
