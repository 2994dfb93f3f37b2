import { afterEach, describe, expect, it } from 'vitest';
import { markDraftSeenClosed } from '../hooks/use-closed-draft-seen';
import {
  draftIds,
  markedDraftIdsSnapshot,
  readDraft,
  removeDraft,
  writeDraft,
} from './draft-store';

const SOURCE = 'test-source';

describe('a draft left on a question that closed', () => {
  afterEach(() => localStorage.clear());

  it('stops being marked once seen closed, and keeps its text', () => {
    writeDraft(SOURCE, 'q1', 'Yes, ship it', 1);
    writeDraft(SOURCE, 'q2', 'No', 2);
    expect(draftIds(SOURCE, { marked: true })).toEqual(new Set(['q1', 'q2']));

    expect(markDraftSeenClosed(SOURCE, 'q1')).toBe(true);
    expect(draftIds(SOURCE, { marked: true })).toEqual(new Set(['q2']));
    expect(draftIds(SOURCE)).toEqual(new Set(['q1', 'q2']));
    expect(readDraft(SOURCE, 'q1')).toEqual({ text: 'Yes, ship it', savedAt: 1, seenClosed: true });
    // Once is enough; a question without a draft has nothing to mark.
    expect(markDraftSeenClosed(SOURCE, 'q1')).toBe(false);
    expect(markDraftSeenClosed(SOURCE, 'q3')).toBe(false);
    expect(readDraft(SOURCE, 'q3')).toBeNull();
  });

  it('is marked again when its text changes', () => {
    writeDraft(SOURCE, 'q1', 'Yes', 1);
    markDraftSeenClosed(SOURCE, 'q1');
    expect(draftIds(SOURCE, { marked: true }).has('q1')).toBe(false);
    writeDraft(SOURCE, 'q1', 'Yes, but later', 3);
    expect(draftIds(SOURCE, { marked: true }).has('q1')).toBe(true);
    removeDraft(SOURCE, 'q1');
    expect(draftIds(SOURCE).size).toBe(0);
  });
});

describe('markedDraftIdsSnapshot', () => {
  afterEach(() => localStorage.clear());

  it('is read again after each change: here, in another tab, or a clear made elsewhere', () => {
    expect(markedDraftIdsSnapshot(SOURCE)).toBe('');
    writeDraft(SOURCE, 'q2', 'b');
    writeDraft(SOURCE, 'q1', 'a');
    expect(markedDraftIdsSnapshot(SOURCE)).toBe('q1\nq2');
    // Another tab marks q1 seen closed: the same number of keys, told by the storage event.
    const key = Object.keys(localStorage).find((k) => k.endsWith('\u0000q1')) as string;
    localStorage.setItem(key, JSON.stringify({ text: 'a', savedAt: 1, seenClosed: true }));
    window.dispatchEvent(new StorageEvent('storage', { key }));
    expect(markedDraftIdsSnapshot(SOURCE)).toBe('q2');
    removeDraft(SOURCE, 'q2');
    expect(markedDraftIdsSnapshot(SOURCE)).toBe('');
    writeDraft(SOURCE, 'q3', 'c');
    expect(markedDraftIdsSnapshot(SOURCE)).toBe('q3');
    localStorage.clear();
    expect(markedDraftIdsSnapshot(SOURCE)).toBe('');
  });
});
