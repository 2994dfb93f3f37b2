import { describe, expect, it } from 'vitest';
import {
  isGroupOpen,
  questionHref,
  questionIdFromPath,
  questionPath,
  withGroup,
  withoutGroup,
} from './paths';

const awkward = [
  '.',
  '..',
  '...',
  'a/b',
  '%2e',
  '%2E',
  '.%2e',
  '?x',
  '#',
  '~',
  '~x',
  '%',
  'a%2Fb',
  'é x',
  'ptc_1',
];

describe('question paths', () => {
  it.each(awkward)('%j survives the browser’s URL parser and comes back as itself', (id) => {
    const url = new URL(questionPath(id), 'http://portal.test');
    expect(url.pathname.startsWith('/questions/')).toBe(true);
    expect(url.pathname.length).toBeGreaterThan('/questions/'.length);
    expect(questionIdFromPath(url.pathname)).toBe(id);
    const href = new URL(questionHref('/sub/questions', id, 'status=all'), 'http://portal.test');
    expect(questionIdFromPath(href.pathname)).toBe(id);
    expect(href.search).toBe('?status=all');
  });

  it('finds no id on the list itself', () => {
    expect(questionIdFromPath('/questions')).toBeUndefined();
    expect(questionIdFromPath('/questions/')).toBeUndefined();
  });
});

describe('the group marker', () => {
  it('is added to the view and dropped from it', () => {
    const search = withGroup('status=all&q=orders');
    expect(search).toBe('status=all&q=orders&asks=all');
    const params = new URLSearchParams(search);
    expect(isGroupOpen(params)).toBe(true);
    expect(withoutGroup(params)).toBe('status=all&q=orders');
    expect(isGroupOpen(new URLSearchParams('asks=1'))).toBe(false);
  });
});
