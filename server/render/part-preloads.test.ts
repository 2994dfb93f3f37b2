import { describe, expect, it } from 'vitest';
import { partCodeMeta, readPartPreloads, renderedParts } from './part-preloads';

describe('the preloads of a first screen’s parts', () => {
  it('reads only the build’s own file names, and nothing from a broken or missing list', () => {
    expect(readPartPreloads('{not json')).toBeNull();
    expect(readPartPreloads('{}')).toBeNull();
    expect(readPartPreloads('[]')).toBeNull();
    expect(
      readPartPreloads(
        JSON.stringify({
          always: ['assets/a-1.js', 'assets/../../config.json', '//elsewhere.example/x.js'],
          parts: { Team: ['assets/t-1.js', 'assets/x.css', 42], Odd: 'assets/o.js' },
        }),
      ),
    ).toEqual({ always: ['assets/a-1.js'], parts: { Team: ['assets/t-1.js'], Odd: [] } });
  });

  it('names each file once, those every page needs first', () => {
    const preloads = {
      always: ['assets/a.js'],
      parts: { A: ['assets/a.js', 'assets/b.js'], B: ['assets/b.js'] },
    };
    expect(partCodeMeta(preloads, ['A', 'B', 'Unknown'])).toBe(
      '<meta name="qi-first-screen-code" content="assets/a.js assets/b.js" />',
    );
    expect(partCodeMeta({ always: [], parts: {} }, ['A'])).toBeNull();
    expect(partCodeMeta(null, ['A'])).toBeNull();
  });

  it('takes the part names from the page’s state', () => {
    expect(renderedParts({ parts: ['A', 3, 'B'] })).toEqual(['A', 'B']);
    expect(renderedParts({ parts: 'A' })).toEqual([]);
    expect(renderedParts(null)).toEqual([]);
  });
});
