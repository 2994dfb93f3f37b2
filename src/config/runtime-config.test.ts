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
        sources: [{ id: 'reflexio', kind: 'reflexio', apiBaseUrl: 'api' }],
        pollIntervalMs: 10_000,
        notifyPollIntervalMs: 60_000,
        auth: { mode: 'proxy' },
        headers: {},
        embed: false,
        links: 'path',
        claimMinutes: 15,
        maxClaims: 50,
        insightsPerReviewer: true,
        undoSeconds: 5,
      },
    });
  });

  it('takes hash links (the static demo), and nothing else but path links', () => {
    expect(parseRuntimeConfig({ links: 'hash' })).toMatchObject({
      ok: true,
      config: { links: 'hash' },
    });
    expect(parseRuntimeConfig({ links: 'query' }).ok).toBe(false);
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

  it('reads a list of sources; the old apiBaseUrl is one Reflexio source', () => {
    expect(parseRuntimeConfig({ apiBaseUrl: 'https://r.example/' })).toMatchObject({
      ok: true,
      config: {
        apiBaseUrl: 'https://r.example/',
        sources: [{ id: 'reflexio', kind: 'reflexio', apiBaseUrl: 'https://r.example/' }],
      },
    });
    const three = parseRuntimeConfig({
      sources: [
        { id: 'reflexio', kind: 'reflexio', apiBaseUrl: 'api' },
        { id: 'vertesia', kind: 'vertesia', apiBaseUrl: 'vertesia/api/v1' },
        { id: 'bilby', kind: 'bilby', label: 'Bilby (EU)', apiBaseUrl: 'b', organizationId: 'o' },
      ],
    });
    expect(three).toMatchObject({
      ok: true,
      config: {
        apiBaseUrl: 'api',
        sources: [
          { id: 'reflexio' },
          { id: 'vertesia', apiVersion: '20260803' },
          { id: 'bilby', label: 'Bilby (EU)', organizationId: 'o' },
        ],
      },
    });
    expect(
      parseRuntimeConfig({ sources: [{ id: 'b', kind: 'bilby', apiBaseUrl: 'b' }] }),
    ).toMatchObject({ ok: true, config: { apiBaseUrl: null } });
  });

  it('names the bad source setting', () => {
    const issues = (raw: unknown) => {
      const result = parseRuntimeConfig(raw);
      return result.ok ? [] : result.issues;
    };
    expect(
      issues({ sources: [{ id: 'v', kind: 'vertesia', apiBaseUrl: 'javascript:x' }] }),
    ).toEqual([expect.stringMatching(/^sources\.0\.apiBaseUrl: must be an http\(s\) address/)]);
    expect(issues({ sources: [{ id: 'Bad Id', kind: 'bilby', apiBaseUrl: 'b' }] })).toEqual([
      expect.stringMatching(/^sources\.0\.id: must be 1–32 lower-case/),
    ]);
    expect(
      issues({
        sources: [
          { id: 'r', kind: 'reflexio', apiBaseUrl: 'a' },
          { id: 'r', kind: 'bilby', apiBaseUrl: 'b' },
        ],
      }),
    ).toEqual(['sources: every source needs its own id']);
    expect(issues({ sources: [{ id: 'r', kind: 'jira', apiBaseUrl: 'a' }] }).join()).toMatch(
      /^sources\.0\.kind/,
    );
    expect(
      issues({ apiBaseUrl: 'api', sources: [{ id: 'r', kind: 'reflexio', apiBaseUrl: 'a' }] }),
    ).toEqual([
      'apiBaseUrl: give either apiBaseUrl or sources, not both (put the address in sources)',
    ]);
    expect(issues({ sources: [] })).toEqual(['sources: must name at least one source']);
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

  it('takes the settings a render read from the same text as they are, and reads other text anew', async () => {
    const text = '{"pollIntervalMs": 5000}';
    const read = await loadRuntimeConfig(base, respond(text));
    if (!read.ok) throw new Error('config.json refused');
    expect(read.text).toBe(text);
    const known = { text, config: JSON.stringify(read.config) };
    const again = await loadRuntimeConfig(base, respond(text), known);
    expect(again).toEqual(read);
    // No schema runs on the known text: what the render made of it is what the page gets.
    const marked = { text, config: JSON.stringify({ ...read.config, pollIntervalMs: 7000 }) };
    expect(await loadRuntimeConfig(base, respond(text), marked)).toMatchObject({
      config: { pollIntervalMs: 7000 },
    });
    // config.json changed since: read, and checked, anew.
    expect(
      await loadRuntimeConfig(base, respond('{"pollIntervalMs": "fast"}'), known),
    ).toMatchObject({ ok: false, issues: [expect.stringContaining('pollIntervalMs')] });
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
