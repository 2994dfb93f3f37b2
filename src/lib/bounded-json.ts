/**
 * JSON as text, bounded in depth and length, for agent-written values that may be nested
 * thousands of levels deep or megabytes long. JSON.stringify recurses without limit (10,000 levels
 * overflow the stack) and always builds the whole string; this stops at `maxDepth` levels, marking
 * what it left out ("… 9,990 more levels"), and at about `maxChars` characters.
 */
export interface JsonTextOptions {
  /** Spaces per level; 0 for one line. */
  indent?: number;
  /** Levels of objects and arrays shown; deeper ones are replaced by a marker. */
  maxDepth?: number;
  /** Stop once the text is this long (the cut may fall inside a string). */
  maxChars?: number;
}

export interface JsonText {
  text: string;
  /** Something was left out: levels beyond maxDepth, or everything past maxChars. */
  cut: 'depth' | 'length' | null;
}

/** How many nodes the depth count of a left-out value may visit before it gives up. */
const DEPTH_COUNT_BUDGET = 100_000;

/** The depth of nested objects and arrays in `value` (1 for `{}`), counted without recursion. */
export function jsonDepth(
  value: unknown,
  budget = DEPTH_COUNT_BUDGET,
): { depth: number; exact: boolean } {
  let max = 0;
  let visited = 0;
  const stack: Array<[unknown, number]> = [[value, 1]];
  while (stack.length > 0) {
    const [node, depth] = stack.pop() as [unknown, number];
    if (node === null || typeof node !== 'object') continue;
    const left = cutLevels(node);
    if (left !== null) {
      // What capDepth left out counts as the levels it was.
      if (depth - 1 + left > max) max = depth - 1 + left;
      continue;
    }
    if (depth > max) max = depth;
    if (++visited > budget) return { depth: max, exact: false };
    for (const child of Object.values(node)) {
      if (child !== null && typeof child === 'object') stack.push([child, depth + 1]);
    }
  }
  return { depth: max, exact: true };
}

class Full extends Error {}

export function jsonText(value: unknown, options: JsonTextOptions = {}): JsonText {
  const { indent = 0, maxDepth = 10, maxChars = 20_000 } = options;
  const parts: string[] = [];
  let length = 0;
  let cutByDepth = false;
  const push = (part: string) => {
    parts.push(part);
    length += part.length;
    if (length > maxChars) throw new Full();
  };
  const newline = (level: number) => (indent > 0 ? `\n${' '.repeat(indent * level)}` : '');
  const colon = indent > 0 ? ': ' : ':';

  const write = (node: unknown, level: number): void => {
    if (node === null || typeof node !== 'object') {
      // Only what JSON.parse makes can be here: strings, numbers, booleans, null. A string longer
      // than what is left is cut first: escaping a megabyte to keep a few characters is slow.
      const room = maxChars - length + 1;
      const value = typeof node === 'string' && node.length > room ? node.slice(0, room) : node;
      push(JSON.stringify(value) ?? 'null');
      return;
    }
    const cutHere = cutLevels(node);
    if (cutHere !== null) {
      cutByDepth = true;
      push(`{ … ${cutHere.toLocaleString('en')} more level${cutHere === 1 ? '' : 's'} }`);
      return;
    }
    const isArray = Array.isArray(node);
    const entries = isArray
      ? (node as unknown[]).map((item, index) => [String(index), item] as const)
      : Object.entries(node).filter(([, item]) => item !== undefined);
    const [open, close] = isArray ? ['[', ']'] : ['{', '}'];
    if (entries.length === 0) {
      push(`${open}${close}`);
      return;
    }
    if (level >= maxDepth) {
      cutByDepth = true;
      const { depth, exact } = jsonDepth(node);
      const more = `${exact ? '' : 'at least '}${depth.toLocaleString('en')} more level${depth === 1 ? '' : 's'}`;
      push(`${open} … ${more} ${close}`);
      return;
    }
    push(open);
    entries.forEach(([key, item], index) => {
      push(`${index > 0 ? ',' : ''}${newline(level + 1)}`);
      if (!isArray) push(`${JSON.stringify(key)}${colon}`);
      write(item, level + 1);
    });
    push(`${newline(level)}${close}`);
  };

  try {
    write(value, 0);
  } catch (error) {
    if (!(error instanceof Full)) throw error;
    return { text: parts.join('').slice(0, maxChars), cut: 'length' };
  }
  return { text: parts.join(''), cut: cutByDepth ? 'depth' : null };
}

/**
 * The key of what capDepth puts in place of the levels it leaves out: `{"…levels": 9936}`. jsonDepth
 * and jsonText count and show it as those levels, so the reviewer still reads the real depth.
 */
export const CUT_LEVELS_KEY = '\u2026levels';

/** The levels a capDepth marker stands for, or null for any other value. */
function cutLevels(node: object): number | null {
  if (Array.isArray(node)) return null;
  const keys = Object.keys(node);
  if (keys.length !== 1 || keys[0] !== CUT_LEVELS_KEY) return null;
  const levels = (node as Record<string, unknown>)[CUT_LEVELS_KEY];
  return typeof levels === 'number' && levels > 0 ? levels : null;
}

/**
 * Agent-written JSON no deeper than `maxDepth` levels (more than the drawer shows, far less than
 * a stack holds): the value itself when it is within them
 * (checked without recursion, the common case, no copy), else a copy whose deeper parts are each
 * a marker that stands for the levels left out. Everything downstream that walks a value
 * recursively (React Query's structural sharing, the browser's structured clone,
 * JSON.stringify) then stays far from the stack's limit, and the reviewer still reads how deep
 * it went.
 */
export function capDepth<T>(value: T, maxDepth = 256): T {
  if (value === null || typeof value !== 'object') return value;
  const stack: Array<[unknown, number]> = [[value, 1]];
  let within = true;
  while (stack.length > 0) {
    const [node, depth] = stack.pop() as [unknown, number];
    if (depth > maxDepth) {
      within = false;
      break;
    }
    for (const child of Object.values(node as object)) {
      if (child !== null && typeof child === 'object') stack.push([child, depth + 1]);
    }
  }
  if (within) return value;
  const copy = (node: unknown, level: number): unknown => {
    if (node === null || typeof node !== 'object') return node;
    if (level >= maxDepth - 1) {
      const { depth } = jsonDepth(node);
      return { [CUT_LEVELS_KEY]: depth };
    }
    if (Array.isArray(node)) return node.map((item) => copy(item, level + 1));
    return Object.fromEntries(
      Object.entries(node).map(([key, item]) => [key, copy(item, level + 1)]),
    );
  };
  return copy(value, 0) as T;
}
