/**
 * What Reset demo posts to, relative to the demo's root: every mock backend's reset
 * (demo/backends.test.ts checks that each backend of demo/backends.ts has its own here), and the
 * portal's own (the trail, the claims and the simulated colleague: demo/portal.ts).
 */
export const PORTAL_RESET_PATH = 'portal-api/__demo/reset';
export const RESET_PATHS = [
  '__mock/reset',
  'vertesia/__mock/reset',
  'bilby/__mock/reset',
  PORTAL_RESET_PATH,
];
