import { config } from 'zod/mini';

// zod 4 probes for eval with `new Function("")` when schemas are built; under the portal's
// Content-Security-Policy (no 'unsafe-eval') the browser reports that probe as a violation even
// though zod catches it. Jitless mode skips the probe. This module must be imported first.
config({ jitless: true });

const kindOf = (input: unknown): string =>
  input === null ? 'null' : Array.isArray(input) ? 'array' : typeof input;
const sized: Record<string, string> = { string: 'character', array: 'item' };
const list = (values: readonly unknown[]) =>
  values.map((value) => JSON.stringify(value)).join(', ');

// zod/mini has no messages of its own, and zod's English locale is 2.6 KB of the first download
// for the few the portal's schemas can raise: the config error page and the "unreadable record"
// flags name each problem with these (the schemas' own messages, where they give one, win).
config({
  localeError: (issue) => {
    switch (issue.code) {
      case 'invalid_type':
        return `expected ${issue.expected}, received ${kindOf(issue.input)}`;
      case 'invalid_value':
        return `expected one of ${list(issue.values)}`;
      case 'too_small':
      case 'too_big': {
        const bound = issue.code === 'too_small' ? issue.minimum : issue.maximum;
        const word = issue.code === 'too_small' ? 'at least' : 'at most';
        const unit = sized[issue.origin];
        const count = unit ? ` ${unit}${Number(bound) === 1 ? '' : 's'}` : '';
        return `must be ${word} ${String(bound)}${count}`;
      }
      case 'invalid_format':
        return `not a valid ${issue.format}`;
      case 'unrecognized_keys':
        return `unknown key${issue.keys.length > 1 ? 's' : ''}: ${list(issue.keys)}`;
      case 'invalid_union':
        return 'matches none of the forms allowed here';
      default:
        return 'not valid here';
    }
  },
});
