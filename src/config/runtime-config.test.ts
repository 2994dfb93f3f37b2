import { describe, expect, it } from 'vitest';
import { loadRuntimeConfig, parseRuntimeConfig } from './runtime-config';
import { signInAddress } from './sign-in';

const base = new URL('https://tools.example.com/agents/inbox/');

function respond(body: string, init: ResponseInit = {}): typeof fetch {
  return async () =>
    new Response(body, { headers: { 'content-type': 'application/json' }, ...init });
}

describe('runtime config', () => {
  it('fills defaults for an empty file', () => {
    expect(parseRuntimeConfig({})).toEqual({
      ok: true,
      config: {
        apiBaseUrl: 'api',
        pollIntervalMs: 10_000,
        notifyPollIntervalMs: 60_000,
        auth: { mode: 'proxy' },
        headers: {},
        embed: false,
      },
    });
  });

  it('names every bad setting', () => {
    const result = parseRuntimeConfig({
      pollIntervalMs: 50,
      auth: { mode: 'magic' },
      headers: { Authorization: 'Bearer x' },
      apiBaseURL: '/api',
    });
    expect(result.ok).toBe(false);
    const issues = result.ok ? [] : result.issues.join('\n');
    expect(issues).toContain('pollIntervalMs');
    expect(issues).toContain('auth.mode');
    expect(issues).toContain('must not set Authorization');
    expect(issues).toContain('apiBaseURL');
  });

  it('keeps a hidden tab from polling faster than every 15 s', () => {
    expect(parseRuntimeConfig({ notifyPollIntervalMs: 15_000 })).toMatchObject({
      ok: true,
      config: { notifyPollIntervalMs: 15_000 },
    });
    const tooFast = parseRuntimeConfig({ notifyPollIntervalMs: 5_000 });
    expect(tooFast.ok).toBe(false);
    expect(tooFast.ok ? '' : tooFast.issues.join('\n')).toContain('notifyPollIntervalMs');
  });

  it('is fetched next to index.html and explains each way it can fail', async () => {
    let asked = '';
    const ok = await loadRuntimeConfig(base, async (input) => {
      asked = String(input);
      return new Response('{"pollIntervalMs": 5000}');
    });
    expect(asked).toBe('https://tools.example.com/agents/inbox/config.json');
    expect(ok).toMatchObject({ ok: true, config: { pollIntervalMs: 5000 } });

    expect(await loadRuntimeConfig(base, respond('{ nope'))).toMatchObject({
      ok: false,
      problem: expect.stringContaining('not valid JSON'),
    });
    expect(await loadRuntimeConfig(base, respond('', { status: 404 }))).toMatchObject({
      ok: false,
      problem: expect.stringContaining('HTTP 404'),
    });
    expect(
      await loadRuntimeConfig(base, async () => {
        throw new TypeError('Failed to fetch');
      }),
    ).toMatchObject({ ok: false, problem: expect.stringContaining('could not be reached') });
    expect(await loadRuntimeConfig(base, respond('{"pollIntervalMs": "fast"}'))).toMatchObject({
      ok: false,
      issues: [expect.stringContaining('pollIntervalMs')],
    });
  });
});

describe('the sign-in address', () => {
  const config = (signInUrl?: string) => {
    const parsed = parseRuntimeConfig({ auth: { mode: 'proxy', signInUrl } });
    if (!parsed.ok) throw new Error('bad config');
    return parsed.config;
  };
  const here = 'https://tools.example.com/agents/inbox/questions/ptc_1?status=all&q=a b';

  it('fills {returnTo}, or appends rd, or reloads the page', () => {
    expect(signInAddress(config('/oauth2/start?rd={returnTo}'), here)).toBe(
      `/oauth2/start?rd=${encodeURIComponent(here)}`,
    );
    expect(signInAddress(config('https://sso.example.com/login'), here)).toBe(
      `https://sso.example.com/login?rd=${encodeURIComponent(here).replaceAll('%20', '+')}`,
    );
    expect(signInAddress(config(undefined), here)).toBe(here);
  });
});
