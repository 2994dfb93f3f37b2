import { showBidiControls } from '@/lib/show-bidi';

// Made when a text first needs cutting, not as the page loads: a segmenter's first use loads
// the browser's grapheme rules (4-7 ms on the bench's machine), and most pages cut nothing.
let madeSegmenter: Intl.Segmenter | null | undefined;
const segmenter = () => {
  madeSegmenter ??=
    typeof Intl !== 'undefined' && 'Segmenter' in Intl
      ? new Intl.Segmenter(undefined, { granularity: 'grapheme' })
      : null;
  return madeSegmenter;
};

/**
 * The first `max` UTF-16 units of `text` or fewer, never ending inside a character a reader sees
 * as one (an emoji with its modifiers, a flag, a letter with its accents, a surrogate pair).
 */
export function cutText(text: string, max: number): string {
  if (text.length <= max) return text;
  // Between two ASCII characters other than CR LF there is always a boundary (Unicode's grapheme
  // rules join only non-ASCII marks, joiners, flags and the like): no segmenter, whose first use
  // loads the browser's rules while the page is taken over.
  const before = text.charCodeAt(max - 1);
  const after = text.charCodeAt(max);
  if (before < 0x80 && after < 0x80 && !(before === 0x0d && after === 0x0a)) {
    return text.slice(0, max);
  }
  // Only the part near the cut is segmented: the text may be megabytes long.
  const from = Math.max(0, max - 64);
  const near = text.slice(from, max + 64);
  const graphemes = segmenter();
  if (!graphemes) {
    const code = text.charCodeAt(max - 1);
    return text.slice(0, code >= 0xd800 && code <= 0xdbff ? max - 1 : max);
  }
  let end = from;
  for (const { index, segment } of graphemes.segment(near)) {
    if (from + index + segment.length > max) break;
    end = from + index + segment.length;
  }
  return text.slice(0, end);
}

/** Agent-written text can be megabytes long; previews show a bounded slice of it. */
export function truncateText(text: string, max: number): string {
  if (text.length <= max) return text;
  return `${cutText(text, max).trimEnd()}…`;
}

/** A bounded slice of agent-written text, as it can be shown: whole characters, controls visible. */
export function displayText(text: string, max: number): string {
  return showBidiControls(truncateText(text, max));
}

export function formatBytes(length: number): string {
  if (length < 1024) return `${length} characters`;
  if (length < 1024 * 1024) return `${(length / 1024).toFixed(0)} KB`;
  return `${(length / (1024 * 1024)).toFixed(1)} MB`;
}

/** React keys for agent-written values that may repeat (the same tag twice): value, then value#2… */
export function repeatKeys(values: string[]): string[] {
  const seen = new Map<string, number>();
  return values.map((value) => {
    const n = (seen.get(value) ?? 0) + 1;
    seen.set(value, n);
    return n === 1 ? value : `${value}\u0000${n}`;
  });
}

/**
 * `text` with `insert` put in at `at` (the cursor; past the end: the end), nothing of `text`
 * replaced: a space on each side where words would otherwise run together. Returns the new text
 * and where the cursor goes (just after what was inserted).
 */
export function insertAtCursor(
  text: string,
  at: number | null,
  insert: string,
): { text: string; cursor: number } {
  if (!text.trim()) return { text: insert, cursor: insert.length };
  const point = at === null ? text.length : Math.max(0, Math.min(at, text.length));
  const before = text.slice(0, point);
  const after = text.slice(point);
  const left = before !== '' && !/\s$/.test(before) && !/^\s/.test(insert) ? ' ' : '';
  const right = after !== '' && !/^\s/.test(after) && !/\s$/.test(insert) ? ' ' : '';
  const middle = `${left}${insert}${right}`;
  return {
    text: `${before}${middle}${after}`,
    cursor: before.length + left.length + insert.length,
  };
}
