import {
  buildVertesiaResponse,
  getAskRequest,
  listAsksRequest,
  resolveAskRequest,
} from './requests';

const config = {
  apiBaseUrl: 'https://api.us1.vertesia.io/api/v1',
  headers: { Authorization: 'Bearer k' },
};

describe('Vertesia requests', () => {
  it('every request carries x-api-version 20260803 under the API root', () => {
    expect(listAsksRequest(config)).toEqual({
      method: 'GET',
      url: 'https://api.us1.vertesia.io/api/v1/pending-asks',
      headers: { Authorization: 'Bearer k', 'x-api-version': '20260803' },
    });
    expect(getAskRequest(config, 'a/b').url).toBe(
      'https://api.us1.vertesia.io/api/v1/pending-asks/a%2Fb',
    );
    const resolve = resolveAskRequest({ ...config, apiVersion: '20270101' }, 'x', 'Yes');
    expect(resolve).toMatchObject({
      method: 'POST',
      url: 'https://api.us1.vertesia.io/api/v1/pending-asks/x/resolve',
      headers: { 'x-api-version': '20270101' },
      body: { response: 'Yes' },
    });
    expect(Object.keys(resolve.body as object)).toEqual(['response']);
  });

  it("an id that is a URL dot step (or empty) is never put in a URL: '..' would leave the ask", () => {
    for (const id of ['', '.', '..']) {
      expect(() => getAskRequest(config, id)).toThrow(/cannot be used in a Vertesia URL/);
      expect(() => resolveAskRequest(config, id, 'yes')).toThrow(
        /cannot be used in a Vertesia URL/,
      );
    }
    expect(resolveAskRequest(config, '...', 'yes').url).toBe(
      'https://api.us1.vertesia.io/api/v1/pending-asks/.../resolve',
    );
  });

  it('a configured header cannot replace x-api-version', () => {
    const request = listAsksRequest({ ...config, headers: { 'x-api-version': '1' } });
    expect(request.headers['x-api-version']).toBe('20260803');
  });
});

describe('buildVertesiaResponse', () => {
  it('one question: the answer, trimmed', () => {
    expect(buildVertesiaResponse(['Ship it?'], ['  yes\n'])).toBe('yes');
  });

  it('several: each question followed by its answer; a blank one says so', () => {
    expect(buildVertesiaResponse(['A?', 'B?', 'C?'], ['one', '', 'three\nlines'])).toBe(
      'Q: A?\nA: one\n\nQ: B?\nA: (no answer)\n\nQ: C?\nA: three\nlines',
    );
  });

  it('refuses no answer at all and a count that does not match', () => {
    expect(() => buildVertesiaResponse(['A?', 'B?'], [' ', ''])).toThrow(RangeError);
    expect(() => buildVertesiaResponse(['A?'], ['x', 'y'])).toThrow(RangeError);
  });
});
