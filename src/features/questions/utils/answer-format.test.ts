import { describe, expect, it } from 'vitest';
import {
  checkAnswer,
  checkJsonResult,
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
