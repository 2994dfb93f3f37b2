import { describe, expect, it } from 'vitest';
import type { QuestionPrompt } from '../api/schemas';
import {
  checkPromptAnswers,
  emptyAnswers,
  hasAnyAnswer,
  parseAnswers,
  promptFormKind,
  serializeAnswers,
  summarizeAnswers,
} from './prompt-answers';

const region: QuestionPrompt = {
  text: 'Which region?',
  header: null,
  options: [],
  multiSelect: false,
};
const owner: QuestionPrompt = {
  text: 'Who owns it?',
  header: null,
  options: [],
  multiSelect: false,
};
const version: QuestionPrompt = {
  text: 'Which Postgres version?',
  header: 'Postgres',
  options: [
    { label: '16', description: null },
    { label: '17', description: 'newest' },
  ],
  multiSelect: false,
};
const extensions: QuestionPrompt = {
  text: 'Which extensions?',
  header: 'Extensions',
  options: [
    { label: 'PostGIS', description: null },
    { label: 'pgvector', description: null },
  ],
  multiSelect: true,
};

describe('promptFormKind', () => {
  it('one box for a plain question, a box each for several, choices when there are options', () => {
    expect(promptFormKind({})).toBe('single');
    expect(promptFormKind({ prompts: [region] })).toBe('single');
    expect(promptFormKind({ prompts: [region, owner] })).toBe('texts');
    expect(promptFormKind({ prompts: [version] })).toBe('choices');
    expect(promptFormKind({ prompts: [region, extensions] })).toBe('choices');
  });
});

describe('drafts of a form with several fields', () => {
  it('round-trips through the draft text', () => {
    const answers = [
      { selected: ['17'], custom: '' },
      { selected: ['PostGIS', 'pgvector'], custom: 'pg_cron' },
    ];
    expect(parseAnswers(serializeAnswers(answers), [version, extensions])).toEqual(answers);
  });

  it('drops what the prompts no longer offer, and a second choice on a single-select', () => {
    const saved = JSON.stringify({
      answers: [
        { selected: ['17', '16'], custom: 3 },
        { selected: ['gone', 'pgvector', 'pgvector'] },
      ],
    });
    expect(parseAnswers(saved, [version, extensions])).toEqual([
      { selected: ['17'], custom: '' },
      { selected: ['pgvector'], custom: '' },
    ]);
  });

  it('text typed before the form had fields becomes the first answer; nothing is empty', () => {
    expect(parseAnswers('eu-west-1', [region, owner])).toEqual([
      { selected: [], custom: 'eu-west-1' },
      { selected: [], custom: '' },
    ]);
    expect(parseAnswers('', [region, owner])).toEqual(emptyAnswers([region, owner]));
    expect(hasAnyAnswer(emptyAnswers([region, owner]))).toBe(false);
    expect(hasAnyAnswer([{ selected: [], custom: ' x ' }])).toBe(true);
  });
});

describe('checkPromptAnswers', () => {
  it('names each question left without an answer', () => {
    const check = checkPromptAnswers(
      [region, version],
      [
        { selected: [], custom: '  ' },
        { selected: [], custom: '' },
      ],
    );
    expect(check).toEqual({
      ok: false,
      errors: [
        'Answer this question too: every question needs an answer.',
        'Choose an answer, or write your own.',
      ],
    });
  });

  it('trims what was written and passes when every question has an answer', () => {
    expect(
      checkPromptAnswers(
        [region, version],
        [
          { selected: [], custom: ' eu ' },
          { selected: ['17'], custom: '' },
        ],
      ),
    ).toEqual({
      ok: true,
      answers: [
        { selected: [], custom: 'eu' },
        { selected: ['17'], custom: '' },
      ],
    });
  });

  it('refuses an answer over the length limit', () => {
    const check = checkPromptAnswers([region], [{ selected: [], custom: 'x'.repeat(20_001) }]);
    expect(check.ok).toBe(false);
  });
});

describe('summarizeAnswers', () => {
  it('header (or text): choices and words, per question; never empty', () => {
    expect(
      summarizeAnswers(
        [version, extensions, region],
        [
          { selected: ['17'], custom: '' },
          { selected: ['PostGIS'], custom: ' pg_cron ' },
          { selected: [], custom: 'eu' },
        ],
      ),
    ).toBe('Postgres: 17; Extensions: PostGIS, pg_cron; Which region?: eu');
    expect(summarizeAnswers([version], [{ selected: [], custom: '' }])).toBe('Not applicable');
  });
});
