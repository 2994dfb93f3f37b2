import { describe, expect, it } from 'vitest';
import { configuredSystems, servedSystems } from './systems';

describe('configuredSystems', () => {
  const served = servedSystems({ vertesia: {}, bilby: {} }).config;

  it("is the server's three when config.json names no sources, its own when it does", () => {
    const three = [
      { id: 'reflexio', kind: 'reflexio' },
      { id: 'vertesia', kind: 'vertesia' },
      { id: 'bilby', kind: 'bilby' },
    ];
    expect(configuredSystems({ apiBaseUrl: 'api' }, served)).toEqual(three);
    expect(configuredSystems(null, served)).toEqual(three);
    const own = { sources: [{ id: 'v-eu', kind: 'vertesia', apiBaseUrl: 'x' }, { id: 7 }] };
    expect(configuredSystems(own, served)).toEqual([{ id: 'v-eu', kind: 'vertesia' }]);
  });
});
