import { afterEach, describe, expect, it } from 'vitest';
import { preloadFirstScreenCode } from './first-screen-code';

afterEach(() => {
  document.head.innerHTML = '';
});

describe('the code a server-rendered page needs before it is taken over', () => {
  it('is asked for as the app starts: one modulepreload per file the page names', () => {
    document.head.innerHTML =
      '<meta name="qi-first-screen-code" content="assets/parts-1.js assets/team-2.js" />';
    expect(preloadFirstScreenCode(document)).toEqual(['assets/parts-1.js', 'assets/team-2.js']);
    const links = [...document.head.querySelectorAll<HTMLLinkElement>('link')];
    expect(links.map((link) => link.rel)).toEqual(['modulepreload', 'modulepreload']);
    expect(links.map((link) => link.href)).toEqual([
      new URL('assets/parts-1.js', document.baseURI).href,
      new URL('assets/team-2.js', document.baseURI).href,
    ]);
  });

  it('asks for nothing but the build’s own files, and nothing on a page that names none', () => {
    document.head.innerHTML =
      '<meta name="qi-first-screen-code" content="https://elsewhere.example/x.js assets/../config.json javascript:alert(1)" />';
    expect(preloadFirstScreenCode(document)).toEqual([]);
    document.head.innerHTML = '';
    expect(preloadFirstScreenCode(document)).toEqual([]);
    expect(document.head.querySelector('link')).toBeNull();
  });
});
