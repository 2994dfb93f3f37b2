/**
 * What Reset demo posts to, relative to the demo's root: every mock backend's reset
 * (demo/backends.test.ts checks that each backend of demo/backends.ts has its own here).
 */
export const RESET_PATHS = ['__mock/reset', 'vertesia/__mock/reset', 'bilby/__mock/reset'];
