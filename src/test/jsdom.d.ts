// jsdom (the unit tests' browser) ships no types and @types/jsdom has none for version 29: what
// the tests use of it, for a page of their own (src/app/first-screen-script.test.ts).
declare module 'jsdom' {
  export class JSDOM {
    constructor(
      html?: string,
      options?: { url?: string; runScripts?: 'outside-only' | 'dangerously' },
    );
    readonly window: Window & typeof globalThis;
  }
}
