import { describe, expect, it } from 'vitest';
import type { ActivityEntry } from '../api/schemas';
import {
  answerLabel,
  auditQuestionId,
  describeEntry,
  earlierAnswers,
  reviewerText,
  shortReviewer,
  snippetOf,
} from './describe';

const entry = (overrides: Partial<ActivityEntry>): ActivityEntry => ({
  id: 1,
  at: '2026-12-01T10:00:00.000Z',
  requestId: 'r',
  reviewer: 'alice@example.com',
  reviewerName: null,
  sourceId: 'reflexio',
  sourceKind: 'reflexio',
  questionId: 'q1',
  action: 'answer',
  answer: 'Yes',
  answerMode: 'full',
  status: 200,
  detail: null,
  ...overrides,
});

describe('changes to the team snippets in the trail', () => {
  it('says them in plain words, and reads the title and text the server kept', () => {
    const saved = entry({
      action: 'snippet-create',
      questionId: 'snippet:0b6c1f8e-0000-4000-8000-000000000000',
      answer: 'Refund policy\nWe refund within 30 days.\nThanks.',
      status: 201,
    });
    expect(describeEntry(saved)).toBe('Team snippet saved by alice@example.com');
    expect(describeEntry({ ...saved, action: 'snippet-edit', status: 200 })).toBe(
      'Team snippet edited by alice@example.com',
    );
    expect(describeEntry({ ...saved, action: 'snippet-delete', status: 409 })).toBe(
      'Snippet deleted by alice@example.com refused (HTTP 409)',
    );
    expect(snippetOf(saved)).toEqual({
      title: 'Refund policy',
      text: 'We refund within 30 days.\nThanks.',
    });
    // Kept as a keyed hash (AUDIT_ANSWERS=hash): there is no title to read.
    expect(snippetOf({ ...saved, answerMode: 'hmac-sha256', answer: 'ab'.repeat(32) })).toBeNull();
    expect(snippetOf(entry({}))).toBeNull();
  });
});

describe('describing the trail', () => {
  it('says who did what, and when the system refused it', () => {
    expect(describeEntry(entry({}))).toBe('Answered by alice@example.com');
    expect(describeEntry(entry({ action: 'edit', reviewerName: 'Bob', reviewer: 'bob@x' }))).toBe(
      'Edited by Bob (bob@x)',
    );
    expect(describeEntry(entry({ status: 409 }))).toBe(
      'Answer by alice@example.com refused (HTTP 409)',
    );
  });

  it('says an answer the system took after the browser had gone was taken, not refused', () => {
    expect(describeEntry(entry({ status: 200, detail: 'client left before the answer' }))).toBe(
      'Answered by alice@example.com (the browser had gone before the system answered)',
    );
  });

  it('names how the answer was kept', () => {
    expect(answerLabel('full')).toBe('Sent: ');
    expect(answerLabel('hmac-sha256')).toMatch(/keyed hash/);
    expect(answerLabel('hash')).toMatch(/SHA-256/);
  });

  it('pairs each edit with the answer it replaced', () => {
    const entries = [
      entry({ id: 3, action: 'edit', answer: 'Maybe' }),
      entry({ id: 2, action: 'answer', answer: 'No', status: 409 }),
      entry({ id: 1, action: 'answer', answer: 'Yes' }),
    ];
    expect(earlierAnswers(entries).get(3)).toBe('Yes');
  });

  it('finds the system’s own question id and a short name', () => {
    const vertesia = { id: 'vertesia:ask-1', source: { id: 'vertesia', kind: 'vertesia' } };
    expect(auditQuestionId(vertesia)).toBe('ask-1');
    expect(auditQuestionId({ id: 'tc_1', source: { id: 'reflexio', kind: 'reflexio' } })).toBe(
      'tc_1',
    );
    expect(shortReviewer('alice@example.com')).toBe('alice');
  });

  it('shows a direction override in a name as a mark, and says when the name was self-typed', () => {
    const tossed = entry({ reviewer: '\u202emoc.elpmaxe@ecila', selfNamed: true });
    expect(describeEntry(tossed)).toBe('Answered by ⟨RLO⟩moc.elpmaxe@ecila (self-named)');
    expect(reviewerText(entry({ reviewerName: 'Al\u2066ice' }))).toBe(
      'Al⟨LRI⟩ice (alice@example.com)',
    );
    expect(shortReviewer('\u202eecila@example.com')).toBe('⟨RLO⟩ecila');
  });
});
