// No imports: vite.demo.config.ts loads this file. The Vertesia API version and the Bilby
// organization are the mocks' own (VERTESIA_API_VERSION, BILBY_ORGANIZATION_ID; demo/backends.test.ts
// checks they agree).

/** The systems the demo's portal reads: the three mocks in its Service Worker, as `npm start` has them. */
export const DEMO_SOURCES = [
  { id: 'reflexio', kind: 'reflexio', apiBaseUrl: 'api' },
  {
    id: 'vertesia',
    kind: 'vertesia',
    apiBaseUrl: 'vertesia/api/v1',
    apiVersion: '20260803',
  },
  {
    id: 'bilby',
    kind: 'bilby',
    apiBaseUrl: 'bilby/api/v1',
    organizationId: '6f1c2a9e-4b7d-4c1e-9a2f-3d5e7b9c1a2f',
  },
] as const;

/**
 * dist-demo/config.json: the settings of the production config.json (public/config.json, which
 * names one Reflexio), with the demo's three sources in place of its single `apiBaseUrl`.
 */
export function demoConfigJson(productionConfig: string): string {
  const { apiBaseUrl: _single, ...settings } = JSON.parse(productionConfig) as Record<
    string,
    unknown
  >;
  // Hash links (`#/questions/<id>`): any static host answers them with the start page, first
  // visit included (a plain `python3 -m http.server` answers other addresses with its own 404).
  return `${JSON.stringify({ ...settings, sources: DEMO_SOURCES, links: 'hash' }, null, 2)}\n`;
}
