import { DEFAULT_THEME } from '@mantine/core';
import { CALL_STATUSES } from '@mock/store';
import { describe, expect, it } from 'vitest';
import {
  NOT_APPLICABLE_ANSWER,
  type Question,
  questionStatuses,
  REFLEXIO_ORIGIN,
} from '../api/schemas';
import { bilbyCapabilities } from '../sources/bilby/capabilities';
import { vertesiaCapabilities } from '../sources/vertesia/capabilities';
import {
  describeChange,
  displayStatus,
  filterMeta,
  GONE_EXPLANATION,
  isOverdue,
  notApplicableEffect,
  OVERDUE_EXPLANATION,
  type QuestionSituation,
  questionPolicy,
  questionVersion,
  statusMeta,
} from './question-policy';
import { sendingUnits } from './sending-units';

const NOW = Date.parse('2026-11-30T12:00:00Z');

function question(overrides: Partial<Question> = {}): Question {
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
    createdAt: NOW - 60_000,
    resolvedAt: null,
    expiresAt: NOW + 60_000,
    validUntil: null,
    ...overrides,
  };
}

const otherTool = { toolName: 'deploy' };
const answered = (answer: string) =>
  question({ status: 'resolved', result: { answer }, resolvedAt: NOW });

describe('statusMeta', () => {
  it('has an entry for every status, with a distinct label and a Mantine colour', () => {
    expect(Object.keys(statusMeta)).toEqual([...questionStatuses]);
    const labels = Object.values(statusMeta).map((meta) => meta.label);
    expect(new Set(labels).size).toBe(labels.length);
    for (const meta of Object.values(statusMeta)) {
      expect(Object.keys(DEFAULT_THEME.colors)).toContain(meta.color);
      expect(meta.emptyList.title).not.toBe('');
    }
  });

  it('opens actions on pending and resolved only, and explains every closed status', () => {
    const open = questionStatuses.filter((status) => statusMeta[status].closed === null);
    expect(open).toEqual(['pending', 'resolved']);
    for (const status of questionStatuses) {
      const meta = statusMeta[status];
      if (meta.closed !== null) expect([meta.cancel, meta.notApplicable]).toEqual([false, false]);
    }
  });

  it('is what the mock backend knows too (it keeps its own copy on purpose)', () => {
    expect([...CALL_STATUSES].sort()).toEqual([...questionStatuses].sort());
  });

  it('gives the status filter its labels and empty lists, with "All" besides', () => {
    expect(filterMeta('resolved').label).toBe('Resolved');
    expect(filterMeta('pending').emptyList.title).toBe('No questions are waiting');
    expect(filterMeta('all')).toEqual({
      label: 'All',
      emptyList: {
        title: 'No questions yet',
        body: 'When an agent asks a person something, it appears here.',
      },
    });
  });
});

describe('displayStatus', () => {
  it('reads a pending question expired from the moment its time runs out', () => {
    const q = question({ expiresAt: NOW });
    expect(displayStatus(q, NOW - 1)).toBe('pending');
    expect(isOverdue(q, NOW - 1)).toBe(false);
    expect(displayStatus(q, NOW)).toBe('expired');
    expect(isOverdue(q, NOW)).toBe(true);
  });

  it('never changes another status, nor a pending question without an expiry', () => {
    expect(displayStatus(question({ status: 'resolved', expiresAt: NOW - 1 }), NOW)).toBe(
      'resolved',
    );
    expect(displayStatus(question({ expiresAt: null }), NOW)).toBe('pending');
  });
});

describe('questionPolicy', () => {
  const policy = (
    overrides: Partial<Question>,
    situation: QuestionSituation = { gone: false, hasDraft: false },
    now = NOW,
  ) => questionPolicy(question(overrides), now, situation);

  it('offers an answer, not applicable and cancel on a pending ask_human question', () => {
    const p = policy({});
    expect(p).toMatchObject({ status: 'pending', label: 'Pending', color: 'blue', closed: null });
    expect(p.offer).toEqual({
      mode: 'answer',
      closedReason: null,
      canCancel: true,
      canMarkNotApplicable: true,
    });
    expect(p.finalResult).toBe(false);
  });

  it('offers a JSON result and cancel, not "not applicable", on another tool’s pending call', () => {
    expect(policy(otherTool).offer).toEqual({
      mode: 'json',
      closedReason: null,
      canCancel: true,
      canMarkNotApplicable: false,
    });
  });

  it('offers an edit and "not applicable" on an answered question, not cancel', () => {
    expect(policy({ status: 'resolved', result: { answer: 'yes' } }).offer).toEqual({
      mode: 'edit',
      closedReason: null,
      canCancel: false,
      canMarkNotApplicable: true,
    });
  });

  it('offers nothing on another tool’s resolved call, and says its result is final', () => {
    const p = policy({ ...otherTool, status: 'resolved', result: { ok: true } });
    expect(p.offer).toEqual({
      mode: null,
      closedReason: null,
      canCancel: false,
      canMarkNotApplicable: false,
    });
    expect(p.closed).toBeNull();
    expect(p.finalResult).toBe(true);
  });

  it.each([
    ['expired', 'Too late to answer'],
    ['superseded', 'Replaced by a newer answer'],
    ['cancelled', 'Cancelled without an answer'],
  ] as const)('closes a %s question with its explanation', (status, title) => {
    const p = policy({ status });
    const explanation = statusMeta[status].closed;
    expect(p.closed).toEqual({ title, explanation });
    expect(p.offer).toEqual({
      mode: null,
      closedReason: explanation,
      canCancel: false,
      canMarkNotApplicable: false,
    });
    expect(p.finalResult).toBe(false);
  });

  it('keeps a draft on a closed question visible in the form of a new answer, read-only', () => {
    const withDraft = { gone: false, hasDraft: true };
    expect(policy({ status: 'cancelled' }, withDraft).offer.mode).toBe('answer');
    expect(policy({ ...otherTool, status: 'expired' }, withDraft).offer.mode).toBe('json');
    expect(policy({ status: 'cancelled' }, withDraft).offer.canMarkNotApplicable).toBe(false);
  });

  it('closes a pending question the moment its time runs out, before the server sweeps it', () => {
    const p = policy({ expiresAt: NOW }, { gone: false, hasDraft: false }, NOW);
    expect(p.status).toBe('expired');
    expect(p.color).toBe(statusMeta.expired.color);
    expect(p.closed).toEqual({ title: 'Too late to answer', explanation: OVERDUE_EXPLANATION });
    expect(p.offer.mode).toBeNull();
    expect(policy({ expiresAt: NOW }, { gone: false, hasDraft: true }, NOW).offer).toEqual({
      mode: 'answer',
      closedReason: OVERDUE_EXPLANATION,
      canCancel: false,
      canMarkNotApplicable: false,
    });
    expect(policy({ expiresAt: NOW }, { gone: false, hasDraft: false }, NOW - 1).closed).toBeNull();
  });

  it('closes a question the server no longer has, keeping a draft in the form it had', () => {
    const p = policy(
      { status: 'resolved', result: { answer: 'yes' } },
      { gone: true, hasDraft: true },
    );
    expect(p.closed).toEqual({ title: 'Not found', explanation: GONE_EXPLANATION });
    expect(p.offer).toEqual({
      mode: 'edit',
      closedReason: GONE_EXPLANATION,
      canCancel: false,
      canMarkNotApplicable: false,
    });
    expect(policy({}, { gone: true, hasDraft: false }).offer.mode).toBeNull();
  });

  it('shows a record the server cannot give back (a repeated id) from the list only, without actions', () => {
    const why = 'Another question has the same id, so this one cannot be opened from the server.';
    const p = policy({}, { gone: false, hasDraft: false, readOnly: why });
    expect(p.closed).toEqual({
      title: 'Shown from the list only, so it cannot be changed here',
      explanation: why,
    });
    expect(p.offer).toEqual({
      mode: null,
      closedReason: why,
      canCancel: false,
      canMarkNotApplicable: false,
    });
  });

  it('returns the same offer object while what is offered is the same', () => {
    const first = policy({}).offer;
    expect(policy({ id: 'ptc_2', questionText: 'Other?' }).offer).toBe(first);
    expect(policy(otherTool).offer).not.toBe(first);
    expect(Object.isFrozen(first)).toBe(true);
  });
});

describe('describeChange', () => {
  it('says nothing when the question is the same, compared by value', () => {
    expect(describeChange(answered('yes'), answered('yes'))).toBeNull();
    expect(describeChange(question(), question({ questionText: 'Reworded?' }))).toBeNull();
  });

  it('names the answer someone else gave, or edited', () => {
    expect(describeChange(question(), answered('Ship it'))).toBe(
      'Answered by someone else: “Ship it”',
    );
    expect(describeChange(answered('yes'), answered('no'))).toBe('Answered by someone else: “no”');
  });

  it('quotes at most 500 characters of a long answer', () => {
    const said = describeChange(question(), answered('y'.repeat(1_000_000))) ?? '';
    expect(said.length).toBeLessThan(600);
    expect(said).toMatch(/^Answered by someone else: “y+…”$/);
  });

  it('tells "not applicable" and other results apart from a plain answer', () => {
    expect(
      describeChange(
        question(),
        question({
          status: 'resolved',
          result: { answer: NOT_APPLICABLE_ANSWER, not_applicable: true },
          notApplicable: true,
        }),
      ),
    ).toBe('Someone else marked this question not applicable.');
    expect(describeChange(question(), question({ status: 'resolved', result: { ok: 1 } }))).toBe(
      'Resolved by someone else.',
    );
  });

  it.each([
    ['cancelled', 'Someone else cancelled this question.'],
    ['expired', 'This question expired before it was answered.'],
    ['superseded', 'A newer answer to the same question replaced this one.'],
  ] as const)('explains a question that became %s', (status, text) => {
    expect(describeChange(question(), question({ status }))).toBe(text);
  });

  it('notices a change that keeps the status', () => {
    const before = question({ status: 'superseded', supersededBy: 'ptc_2' });
    expect(describeChange(before, question({ status: 'superseded', supersededBy: 'ptc_3' }))).toBe(
      'A newer answer to the same question replaced this one.',
    );
    expect(describeChange(answered('yes'), question())).toBe(
      'This question changed on the server.',
    );
  });
});

describe('questionVersion', () => {
  it('is equal for equal records and differs with status, result and supersededBy', () => {
    expect(questionVersion(answered('a'))).toBe(questionVersion(answered('a')));
    const versions = new Set(
      [
        question(),
        answered('a'),
        answered('b'),
        question({ status: 'superseded' }),
        question({ status: 'superseded', supersededBy: 'ptc_2' }),
      ].map(questionVersion),
    );
    expect(versions.size).toBe(5);
  });

  it('copes with a result too deep to serialise, and sees an edit by its new resolved_at', () => {
    let deep: Record<string, unknown> = { leaf: 1 };
    for (let i = 0; i < 10_000; i++) deep = { a: deep };
    const record = question({ status: 'resolved', result: deep, resolvedAt: NOW });
    expect(() => questionVersion(record)).not.toThrow();
    expect(questionVersion({ ...record, resolvedAt: NOW + 1 })).not.toBe(questionVersion(record));
  });
});

describe('what each source lets the drawer offer', () => {
  const vertesia = { id: 'vertesia', kind: 'vertesia', label: 'Vertesia' } as const;
  const bilby = { id: 'bilby', kind: 'bilby', label: 'Bilby' } as const;
  const situation = { gone: false, hasDraft: false };

  it('Vertesia: an answer only, and says why nothing else is offered', () => {
    const pending = questionPolicy(question({ source: vertesia }), NOW, situation);
    expect(pending.offer).toMatchObject({
      mode: 'answer',
      canCancel: false,
      canMarkNotApplicable: false,
      missing: expect.stringContaining('Vertesia asks can only be answered'),
    });
    const answered = questionPolicy(
      question({ source: vertesia, status: 'resolved', result: { answer: 'yes' } }),
      NOW,
      situation,
    );
    expect(answered.offer.mode).toBeNull();
    expect(answered.closed?.explanation).toMatch(/^Vertesia asks can only be answered/);
    // Answered elsewhere while the reviewer typed: the draft stays visible, read-only.
    const withDraft = questionPolicy(
      question({ source: vertesia, status: 'resolved', result: { answer: 'yes' } }),
      NOW,
      { gone: false, hasDraft: true },
    );
    expect(withDraft.offer).toMatchObject({ mode: 'answer', closedReason: expect.any(String) });
  });

  it('Bilby: answer or not applicable, no cancel, and says so', () => {
    const pending = questionPolicy(question({ source: bilby }), NOW, situation);
    expect(pending.offer).toMatchObject({
      mode: 'answer',
      canCancel: false,
      canMarkNotApplicable: true,
      missing: 'Bilby has no way to cancel a question; mark it not applicable instead.',
    });
  });

  it('Reflexio keeps every action, with nothing missing', () => {
    const offer = questionPolicy(question(), NOW, situation).offer;
    expect(offer).toMatchObject({ mode: 'answer', canCancel: true, canMarkNotApplicable: true });
    expect(offer.missing).toBeUndefined();
  });

  it('says the reasons the adapters give, word for word', () => {
    const answered = { status: 'resolved', result: { answer: 'yes' } } as const;
    expect(
      questionPolicy(question({ source: vertesia, ...answered }), NOW, situation).closed
        ?.explanation,
    ).toBe(vertesiaCapabilities.edit.reason);
    expect(questionPolicy(question({ source: vertesia }), NOW, situation).offer.missing).toBe(
      vertesiaCapabilities.note,
    );
    expect(
      questionPolicy(question({ source: bilby, ...answered }), NOW, situation).closed?.explanation,
    ).toBe(bilbyCapabilities.edit.reason);
  });
});

describe('sendingUnits', () => {
  const bilby = { id: 'bilby', kind: 'bilby', label: 'Bilby' } as const;
  const vertesia = { id: 'vertesia', kind: 'vertesia', label: 'Vertesia' } as const;

  it('one request per question, except a Bilby conversation’s calls, which go together', () => {
    const batch = [
      question({ id: 'r1', asker: 'agent-a' }),
      question({ id: 'c1:t1', source: bilby, asker: 'c1' }),
      question({ id: 'v1', source: vertesia, asker: 'agent-a' }),
      question({ id: 'c2:t1', source: bilby, asker: 'c2' }),
      question({ id: 'r2', asker: 'agent-a' }),
      question({ id: 'c1:t2', source: bilby, asker: 'c1' }),
      question({ id: 'v2', source: vertesia, asker: 'agent-a' }),
    ];
    expect(sendingUnits(batch).map((unit) => unit.map((q) => q.id))).toEqual([
      ['r1'],
      ['c1:t1', 'c1:t2'],
      ['v1'],
      ['c2:t1'],
      ['r2'],
      ['v2'],
    ]);
  });
});

describe('what marking not applicable tells the agent', () => {
  const bilby = { id: 'bilby', kind: 'bilby', label: 'Bilby' } as const;

  it('says what each system tells its agent: Reflexio an answer, Bilby a dismissal', () => {
    expect(notApplicableEffect([question()])).toBe(
      `The agent is told “${NOT_APPLICABLE_ANSWER}” and carries on without an answer.`,
    );
    expect(notApplicableEffect([question({ source: bilby })])).toBe(
      'The agent is told that the question was dismissed and carries on without an answer.',
    );
    expect(notApplicableEffect([question({ source: bilby }), question({ source: bilby })])).toBe(
      'Each agent is told that the question was dismissed and carries on without an answer.',
    );
  });

  it('a selection across systems promises nothing one of them does not say', () => {
    expect(notApplicableEffect([question(), question({ source: bilby })])).toBe(
      'Each agent is told no answer is coming and carries on without one.',
    );
  });
});
