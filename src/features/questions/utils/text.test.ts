import { describe, expect, it } from 'vitest';
import { showBidiControls } from '@/lib/show-bidi';
import { cutText, displayText, insertAtCursor, truncateText } from './text';

describe('agent-written text as it is shown', () => {
  it('never cuts inside an emoji, a flag or a letter with its accent', () => {
    const family = '👨‍👩‍👧‍👦';
    const text = `${'a'.repeat(118)}${family} and more`;
    const cut = cutText(text, 120);
    expect(cut).toBe('a'.repeat(118));
    expect(truncateText(`${'b'.repeat(119)}🇫🇷 rest`, 120)).toBe(`${'b'.repeat(119)}…`);
    expect(truncateText(`${'c'.repeat(119)}e\u0301 rest`, 120)).toBe(`${'c'.repeat(119)}…`);
    // Whatever the cut, the result is well-formed UTF-16.
    for (let max = 1; max < 40; max++) {
      const sliced = cutText('😀👍🏽🇩🇪'.repeat(10), max);
      // No lone surrogate at the end.
      expect(/[\uD800-\uDBFF]$/.test(sliced), String(max)).toBe(false);
    }
  });

  it('cuts plain text where the grapheme rules would, a CR LF kept whole', () => {
    expect(cutText(`${'a'.repeat(119)}\r\nrest`, 120)).toBe('a'.repeat(119));
    expect(cutText(`${'a'.repeat(119)}\n\rrest`, 120)).toBe(`${'a'.repeat(119)}\n`);
    const graphemes = new Intl.Segmenter(undefined, { granularity: 'grapheme' });
    const byRules = (text: string, max: number) => {
      let end = 0;
      for (const { index, segment } of graphemes.segment(text)) {
        if (index + segment.length > max) break;
        end = index + segment.length;
      }
      return text.slice(0, end);
    };
    const alphabet = 'ab \r\n\t~é\u0301😀';
    let seed = 7;
    for (let round = 0; round < 2000; round++) {
      let text = '';
      for (let index = 0; index < 12; index++) {
        seed = (seed * 1103515245 + 12345) % 2 ** 31;
        text += alphabet[seed % alphabet.length];
      }
      const max = 1 + (seed % (text.length - 1));
      expect(cutText(text, max), JSON.stringify([text, max])).toBe(byRules(text, max));
    }
  });

  it('cuts a megabyte quickly, reading only near the cut', () => {
    const huge = '🙂'.repeat(500_000);
    expect(cutText(huge, 121)).toHaveLength(120);
  });

  it('shows direction overrides and isolates as visible marks, keeping the marks of RTL writing', () => {
    expect(showBidiControls('invoice\u202Efdp.exe')).toBe('invoice⟨RLO⟩fdp.exe');
    expect(showBidiControls('a\u2066b\u2069c\u202Ad\u202C')).toBe('a⟨LRI⟩b⟨PDI⟩c⟨LRE⟩d⟨PDF⟩');
    expect(showBidiControls('שלום\u200Fabc')).toBe('שלום\u200Fabc');
    expect(displayText(`x\u202E${'y'.repeat(200)}`, 10)).toBe('x⟨RLO⟩yyyyyyyy…');
  });
});

describe('insertAtCursor (a team snippet into the answer box)', () => {
  it('fills an empty box, and keeps everything typed around the cursor', () => {
    expect(insertAtCursor('', null, 'We refund.')).toEqual({ text: 'We refund.', cursor: 10 });
    expect(insertAtCursor('  \n', 2, 'We refund.')).toEqual({ text: 'We refund.', cursor: 10 });
    expect(insertAtCursor('Hello,', null, 'we refund.')).toEqual({
      text: 'Hello, we refund.',
      cursor: 17,
    });
    expect(insertAtCursor('Hello, thanks', 7, 'we refund.')).toEqual({
      text: 'Hello, we refund. thanks',
      cursor: 17,
    });
    expect(insertAtCursor('Hello,thanks', 6, 'we refund.')).toEqual({
      text: 'Hello, we refund. thanks',
      cursor: 17,
    });
    expect(insertAtCursor('Dear team\n', 99, 'We refund.')).toEqual({
      text: 'Dear team\nWe refund.',
      cursor: 20,
    });
    expect(insertAtCursor('Thanks', 0, 'We refund.')).toEqual({
      text: 'We refund. Thanks',
      cursor: 10,
    });
  });
});
