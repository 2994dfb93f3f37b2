import { readFileSync } from 'node:fs';
import { JSDOM } from 'jsdom';
import { afterEach, describe, expect, it } from 'vitest';
import { loadRuntimeConfig } from '@/config/runtime-config';
import type { Queued } from './first-screen-replay';
import { configFetch } from './prefetch';

// public/first-screen.js stands in for public/prefetch.js on a page the server rendered, and does
// the part of its work such a page needs (docs/server-rendering.md). Both are plain scripts with
// no module to share, so the request they both make for config.json, which the app takes over
// (src/app/prefetch.ts configFetch), is checked here to stay the one the app would make itself.

interface Asked {
  url: string;
  init: RequestInit | undefined;
}

/** Runs a public/ script in a page of its own (its listeners stay there), at /inbox/questions. */
function run(file: string): { asked: Asked[]; handedOver: Record<string, unknown> } {
  const dom = new JSDOM(
    '<!doctype html><html lang="en"><head><base href="/inbox/" /></head><body></body></html>',
    { url: 'https://portal.example/inbox/questions', runScripts: 'outside-only' },
  );
  const asked: Asked[] = [];
  const window = dom.window as unknown as Window & {
    eval(code: string): unknown;
    __questionsInboxPrefetch?: Record<string, unknown>;
  };
  window.fetch = (async (input: RequestInfo | URL, init?: RequestInit) => {
    asked.push({ url: String(input), init });
    return new Response('{}');
  }) as typeof fetch;
  window.matchMedia = (() => ({ matches: false })) as unknown as typeof window.matchMedia;
  window.eval(readFileSync(`public/${file}`, 'utf8'));
  return { asked, handedOver: window.__questionsInboxPrefetch ?? {} };
}

async function appConfigRequest(): Promise<Asked> {
  let asked: Asked | null = null;
  await loadRuntimeConfig(new URL('https://portal.example/inbox/'), (async (input, init) => {
    asked = { url: String(input), init };
    return new Response('{}');
  }) as typeof fetch);
  if (!asked) throw new Error('the app asked for no config.json');
  return asked;
}

const options = (init: RequestInit | undefined) => ({
  cache: init?.cache,
  credentials: init?.credentials,
  redirect: init?.redirect,
  headers: init?.headers,
  method: init?.method,
});

describe('config.json asked for before the app runs', () => {
  for (const file of ['first-screen.js', 'prefetch.js']) {
    it(`public/${file} asks as the app would, and hands the app what it needs`, async () => {
      const app = await appConfigRequest();
      const { asked, handedOver } = run(file);
      const config = asked.find((request) => request.url.endsWith('/config.json'));
      expect(config?.url).toBe(app.url);
      expect(options(config?.init)).toEqual(options(app.init));
      expect(handedOver.config).toBeInstanceOf(Promise);
      expect(Array.isArray(handedOver.blocked)).toBe(true);
      expect(await handedOver.lists).toBeDefined();
    });
  }
});

describe('config.json’s body, read by first-screen.js while the page is parsed', () => {
  afterEach(() => {
    delete window.__questionsInboxPrefetch;
  });

  it('is handed to the app, which parses it instead of reading the body again', async () => {
    const { handedOver } = run('first-screen.js');
    expect(await handedOver.configText).toBe('{}');
    window.__questionsInboxPrefetch = {
      config: Promise.resolve(new Response('{"apiBaseUrl": "from-the-body"}')),
      configText: Promise.resolve('{"apiBaseUrl": "read-ahead"}'),
    };
    const loaded = await loadRuntimeConfig(new URL('https://portal.example/inbox/'), configFetch);
    expect(loaded.ok && loaded.config.sources[0]?.apiBaseUrl).toBe('read-ahead');
  });

  it('is read by the app itself when first-screen.js could not read it', async () => {
    window.__questionsInboxPrefetch = {
      config: Promise.resolve(new Response('{"apiBaseUrl": "from-the-body"}')),
      configText: Promise.resolve(null),
    };
    const loaded = await loadRuntimeConfig(new URL('https://portal.example/inbox/'), configFetch);
    expect(loaded.ok && loaded.config.sources[0]?.apiBaseUrl).toBe('from-the-body');
  });
});

describe('keys pressed before the app has taken the page over', () => {
  /** first-screen.js in a page with an answer box; the keys it keeps for the app. */
  function page() {
    const dom = new JSDOM(
      '<!doctype html><html lang="en"><head><base href="/inbox/" /></head><body><textarea aria-label="Answer"></textarea></body></html>',
      { url: 'https://portal.example/inbox/questions', runScripts: 'outside-only' },
    );
    const window = dom.window as unknown as Window & {
      eval(code: string): unknown;
      KeyboardEvent: typeof KeyboardEvent;
      __questionsInboxQueue?: Queued[];
    };
    window.fetch = (async () => new Response('{}')) as typeof fetch;
    window.matchMedia = (() => ({ matches: false })) as unknown as typeof window.matchMedia;
    window.eval(readFileSync('public/first-screen.js', 'utf8'));
    const press = (target: EventTarget, key: string) => {
      const event = new window.KeyboardEvent('keydown', { key, bubbles: true, cancelable: true });
      target.dispatchEvent(event);
      return event.defaultPrevented;
    };
    const answer = window.document.querySelector('textarea') as HTMLTextAreaElement;
    const kept = () =>
      (window.__questionsInboxQueue ?? []).map((action) =>
        'key' in action ? action.key.key : null,
      );
    return { window, press, answer, kept };
  }

  it('leaves typing in a field to the field while nothing waits', () => {
    const { press, answer, kept } = page();
    expect(press(answer, 'x')).toBe(false);
    expect(kept()).toEqual([]);
  });

  it('keeps what is typed in a field behind keys that still wait, in order', () => {
    const { window, press, answer, kept } = page();
    // a (the answer box's shortcut), pressed on the page: kept for the app.
    expect(press(window.document.body, 'a')).toBe(true);
    // The app, doing the a again, put the focus in the box while the rest was still typed.
    for (const key of ['O', 'k', 'Backspace', 'Enter']) expect(press(answer, key)).toBe(true);
    expect(kept()).toEqual(['a', 'O', 'k', 'Backspace', 'Enter']);
    // Moving the focus is the browser's own, waiting or not.
    expect(press(answer, 'Tab')).toBe(false);
  });
});
