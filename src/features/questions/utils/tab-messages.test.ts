import { describe, expect, it } from 'vitest';
import { type Question, REFLEXIO_ORIGIN } from '../api/schemas';
import { decodeTabMessage } from './tab-message-schema';
import { encodeTabMessage, MAX_LIST_MESSAGE_CHARS } from './tab-messages';

const key = ['questions', 'list', { status: 'pending' }];
const question: Question = {
  id: 'ptc_1',
  source: REFLEXIO_ORIGIN,
  status: 'pending',
  toolName: 'ask_human',
  questionText: 'Ship it?',
  userId: null,
  tags: [],
  answerFormat: null,
  args: { question: 'Ship it?' },
  scope: null,
  scopeHash: null,
  dedupKey: null,
  asker: null,
  result: null,
  notApplicable: false,
  supersededBy: null,
  createdAt: 1,
  resolvedAt: null,
  expiresAt: 2,
  validUntil: null,
};

describe('tab messages', () => {
  it('carries a list as text and reads it back', () => {
    const data = { questions: [question], unreadable: [], truncated: false };
    const text = encodeTabMessage({ type: 'list', key, data, updatedAt: 5, nextInMs: 1000 });
    expect(typeof text).toBe('string');
    expect(decodeTabMessage(text)).toEqual({
      type: 'list',
      key,
      data,
      updatedAt: 5,
      nextInMs: 1000,
    });
  });

  it('sends "read it yourself" in place of a list too large to send', () => {
    const huge = { ...question, questionText: 'x'.repeat(MAX_LIST_MESSAGE_CHARS) };
    const text = encodeTabMessage({
      type: 'list',
      key,
      data: { questions: [huge], unreadable: [], truncated: false },
      updatedAt: 5,
      nextInMs: 1000,
    });
    expect(decodeTabMessage(text)).toEqual({ type: 'invalidate', key, nextInMs: 1000 });
  });

  it('reads nothing but the portal’s own shapes', () => {
    const valid = { questions: [question], unreadable: [], truncated: false };
    const bad: unknown[] = [
      { type: 'refresh' },
      JSON.stringify({ type: 'nuke' }),
      JSON.stringify({ type: 'list', key, data: { questions: 'x' }, updatedAt: 1, nextInMs: 1 }),
      JSON.stringify({
        type: 'list',
        key,
        data: { ...valid, questions: [{ ...question, status: 'exploded' }] },
        updatedAt: 1,
        nextInMs: 1,
      }),
      JSON.stringify({ type: 'beat', nextInMs: 1e12 }),
      JSON.stringify({ type: 'invalidate', key: ['questions', 'detail', 'x'], nextInMs: 1 }),
    ];
    for (const data of bad) expect(decodeTabMessage(data), String(data)).toBeNull();
    expect(decodeTabMessage(JSON.stringify({ type: 'refresh' }))).toEqual({ type: 'refresh' });
  });
});
