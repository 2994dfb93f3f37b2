import { beforeEach, describe, expect, it } from 'vitest';
import { aQuestion } from '@/test/question';
import { dropHeld, type Held, heldHere, heldKey, holdsBack, keepHeld, readHeld } from './outbox';

const question = aQuestion;

const vertesia = question({ source: { id: 'vertesia', kind: 'vertesia', label: 'Vertesia' } });
const bilby = question({ source: { id: 'bilby', kind: 'bilby', label: 'Bilby' } });

describe('which actions wait with Undo', () => {
  it('what cannot be changed later: a JSON result, a Vertesia or Bilby answer, a Bilby dismissal, a cancel', () => {
    expect(holdsBack(question({ toolName: 'approve_deployment' }), 'resolve')).toBe(true);
    expect(holdsBack(question({}), 'cancel')).toBe(true);
    expect(holdsBack(vertesia, 'resolve')).toBe(true);
    expect(holdsBack(bilby, 'resolve')).toBe(true);
    expect(holdsBack(bilby, 'not-applicable')).toBe(true);
  });

  it('not what can: a Reflexio answer or not-applicable, edited later with Edit answer', () => {
    expect(holdsBack(question({}), 'resolve')).toBe(false);
    expect(holdsBack(question({}), 'not-applicable')).toBe(false);
  });
});

describe('the outbox in storage', () => {
  beforeEach(() => localStorage.clear());
  const held: Held = {
    key: heldKey(question({})),
    id: 'q',
    source: 'reflexio',
    action: 'cancel',
    sendAt: 1,
    text: 'Q?',
  };

  it('keeps one action per question until it is dropped, across a new read (a reload)', () => {
    expect(keepHeld(held)).toBe(true);
    expect(keepHeld({ ...held, sendAt: 2 })).toBe(true);
    expect(readHeld()).toEqual([{ ...held, sendAt: 2 }]);
    expect(heldHere(held.key)).toBe(true);
    // Asked once: a page that did not hold it back checks its question before sending it.
    expect(heldHere(held.key)).toBe(false);
    dropHeld(held.key);
    expect(readHeld()).toEqual([]);
  });

  it('ignores what it cannot read', () => {
    localStorage.setItem('qi:outbox', JSON.stringify([{ key: 1 }, held, 'x']));
    expect(readHeld()).toEqual([held]);
    localStorage.setItem('qi:outbox', '{');
    expect(readHeld()).toEqual([]);
  });
});
