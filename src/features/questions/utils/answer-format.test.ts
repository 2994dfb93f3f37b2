import { describe, expect, it } from 'vitest';
import {
  checkAnswer,
  checkJsonResult,
  fitsChoices,
  jsonArgumentsStart,
  jsonResultTemplate,
  MAX_ANSWER_LENGTH,
  parseValidFor,
  quickAnswers,
} from './answer-format';

describe('quickAnswers', () => {
  it.each([
    ['yes/no', ['Yes', 'No']],
    ['Yes / No', ['Yes', 'No']],
    ['one of: staging, production, both', ['staging', 'production', 'both']],
    ['one of: alice, bob', ['alice', 'bob']],
    ['Choose one of: EU or US', ['EU', 'US']],
    ['number', []],
    ['free text', []],
    [null, []],
  ])('%s → %j', (format, answers) => {
    expect(quickAnswers(format)).toEqual(answers);
  });
});

describe('fitsChoices', () => {
  it.each([
    ['yes', 'yes/no', true],
    [' No. ', 'yes/no', true],
    ['Yes, but only for March', 'yes/no', true],
    ['Not tonight', 'yes/no', false],
    ['Nope', 'yes/no', false],
    ['yes', 'one of: now, after cut-off', false],
    ['After  cut-off', 'one of: now, after cut-off', true],
    ['Open the ticket today', 'one of: open ticket, wait for month-end report', false],
    ['anything at all', 'free text', true],
    ['anything at all', null, true],
  ])('%j for %j → %s', (answer, format, fits) => {
    expect(fitsChoices(answer, quickAnswers(format))).toBe(fits);
  });
});

describe('checks before sending', () => {
  it('refuses blank and whitespace-only answers, trims the rest', () => {
    expect(checkAnswer('')).toMatchObject({ ok: false });
    expect(checkAnswer(' \n\t ')).toMatchObject({ ok: false });
    expect(checkAnswer('  AWS ECS \n')).toEqual({ ok: true, answer: 'AWS ECS' });
  });

  it('refuses answers over the limit and says the limit', () => {
    const check = checkAnswer('x'.repeat(MAX_ANSWER_LENGTH + 1));
    expect(check.ok).toBe(false);
    expect(!check.ok && check.message).toContain('20,000');
    expect(checkAnswer('x'.repeat(MAX_ANSWER_LENGTH)).ok).toBe(true);
  });

  it('accepts only a JSON object as a tool result', () => {
    expect(checkJsonResult('{"approved": true}')).toEqual({ ok: true, result: { approved: true } });
    expect(checkJsonResult('{approved: true}')).toMatchObject({ ok: false });
    expect(checkJsonResult('[1, 2]')).toMatchObject({ ok: false });
    expect(checkJsonResult('null')).toMatchObject({ ok: false });
    expect(checkJsonResult('"yes"')).toMatchObject({ ok: false });
    expect(checkJsonResult('  ')).toMatchObject({ ok: false });
  });

  it('accepts valid_for_seconds only as a positive whole number, or empty for the default', () => {
    expect(parseValidFor('')).toEqual({ ok: true, seconds: undefined });
    expect(parseValidFor(' 3600 ')).toEqual({ ok: true, seconds: 3600 });
    for (const bad of ['0', '-5', '1.5', '1e3', 'abc', '99999999999999999999']) {
      expect(parseValidFor(bad).ok).toBe(false);
    }
  });
});

describe('JSON results: template and errors in plain words', () => {
  it('starts from a JSON answer format, else empty; the arguments only on request', () => {
    expect(jsonResultTemplate('{"approved": false, "reason": ""}')).toBe(
      '{\n  "approved": false,\n  "reason": ""\n}',
    );
    expect(jsonResultTemplate('yes or no')).toBe('');
    expect(jsonResultTemplate(null)).toBe('');
    expect(jsonArgumentsStart({ service: 'api' })).toBe('{\n  "service": "api"\n}');
    expect(jsonArgumentsStart({})).toBeNull();
    expect(jsonArgumentsStart(null)).toBeNull();
    expect(jsonArgumentsStart({ blob: 'x'.repeat(5_000) })).toBeNull();
  });

  it('names the line and column of a mistake', () => {
    const check = (text: string) => {
      const result = checkJsonResult(text);
      return result.ok ? 'ok' : result.message;
    };
    expect(check('{\n  "a": 1\n  "b": 2\n}')).toMatch(
      /^This is not valid JSON: line 3, column 3: a comma or a closing bracket is missing\.$/,
    );
    expect(check('{\n  a: 1\n}')).toMatch(
      /^This is not valid JSON: line 2, column 3: a property name/,
    );
    expect(check('{"a": [1, 2}')).toMatch(/^This is not valid JSON: line 1, column \d+: /);
    expect(check('{"a": "open')).toMatch(
      /^This is not valid JSON: line 1, column \d+: it ends too early/,
    );
  });
});
