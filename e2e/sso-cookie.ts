import { createServer, type IncomingMessage, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type BrowserContext, test as base, request as playwrightRequest } from '@playwright/test';
import { MockControl } from './fixtures';
import { startReviewerPortal } from './reviewer-portal';

/** The stand-in SSO's session cookie: it holds the signed-in reviewer's address. */
export const SSO_SESSION_COOKIE = '_e2e_sso';
const HEADER = 'x-forwarded-email';

function sessionOf(req: IncomingMessage): string | null {
  for (const part of (req.headers.cookie ?? '').split(';')) {
    const at = part.indexOf('=');
    if (at > 0 && part.slice(0, at).trim() === SSO_SESSION_COOKIE) {
      return decodeURIComponent(part.slice(at + 1).trim());
    }
  }
  return null;
}

/**
 * A portal server of a journey's own behind what a deployment puts in front of it: an SSO proxy
 * that reads its session cookie on every request and sets X-Forwarded-Email from it (dropping any
 * the browser sent), as oauth2-proxy does. A reviewer signs in with `signIn` (the cookie), not with
 * Playwright's `extraHTTPHeaders`: those are not sent with a request that outlives its page (a
 * `keepalive` fetch on `pagehide`), while a browser sends its cookies with it, as in a deployment.
 */
export interface SsoPortal {
  /** The SSO proxy's address: the portal as the browser reaches it. */
  url: string;
  /** Signs `email` in, in `context` (the SSO's session cookie). */
  signIn(context: BrowserContext, email: string): Promise<void>;
  /** Requests the proxy passed on, oldest first: method, path, status and who they were for. */
  seen(): { method: string; path: string; status: number; reviewer: string | null }[];
  stop(): Promise<void>;
}

export async function startSsoPortal(env: Record<string, string> = {}): Promise<SsoPortal> {
  const seen: { method: string; path: string; status: number; reviewer: string | null }[] = [];
  const proxy = createServer((req, res) => {
    const reviewer = sessionOf(req);
    const headers = { ...req.headers };
    delete headers[HEADER];
    if (reviewer) headers[HEADER] = reviewer;
    const upstream = request(
      { host: '127.0.0.1', port: portPort, method: req.method, path: req.url, headers },
      (answer) => {
        seen.push({
          method: req.method ?? '',
          path: (req.url ?? '').split('?')[0] ?? '',
          status: answer.statusCode ?? 0,
          reviewer,
        });
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    upstream.on('error', () => {
      if (!res.headersSent) res.writeHead(502);
      res.end();
    });
    // An event stream ends when the page goes: so does the proxy's request for it.
    res.on('close', () => upstream.destroy());
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  const proxyPort = (proxy.address() as AddressInfo).port;
  // The portal answers for the proxy's name, as ALLOWED_HOSTS says in a deployment.
  const portal = await startReviewerPortal({
    ALLOWED_HOSTS: `127.0.0.1:${proxyPort}`,
    ...env,
  });
  const portPort = Number(new URL(portal.url).port);
  const url = `http://127.0.0.1:${proxyPort}/`;
  return {
    url,
    async signIn(context, email) {
      await context.addCookies([
        {
          name: SSO_SESSION_COOKIE,
          value: encodeURIComponent(email),
          url,
          httpOnly: true,
          sameSite: 'Lax',
        },
      ]);
    },
    seen: () => [...seen],
    async stop() {
      proxy.closeAllConnections();
      await new Promise<void>((resolve) => proxy.close(() => resolve()));
      await portal.stop();
    },
  };
}

/** One journey's tenant of the mock and its reviewers, each signed in by the SSO's cookie. */
export interface SsoScene {
  /** Unique to this journey (and this repeat): in the tenant and the reviewers' names. */
  tag: string;
  mock: MockControl;
  /** Asks each question (an hour to answer), in order; their ids. */
  ask(questions: (string | Record<string, unknown>)[]): Promise<string[]>;
  /** A browser of its own, signed in as `<name>-<tag>@example.com`. */
  reviewer(name: string): Promise<BrowserContext>;
}

/**
 * Journeys on a portal server of their worker's own behind the cookie SSO above, with a presence
 * time to live of 60 s: a colleague who has left shows gone at once only when the page said so.
 */
export const ssoTest = base.extend<{ scene: SsoScene }, { ssoPortal: SsoPortal }>({
  ssoPortal: [
    // biome-ignore lint/correctness/noEmptyPattern: Playwright's fixture signature.
    async ({}, use) => {
      const portal = await startSsoPortal({ PRESENCE_TTL_SECONDS: '60' });
      await use(portal);
      await portal.stop();
    },
    { scope: 'worker', timeout: 150_000 },
  ],
  scene: async ({ browser, ssoPortal }, use, testInfo) => {
    const tag = `${testInfo.workerIndex}-${testInfo.repeatEachIndex}-${Date.now()}`;
    // The mock's control routes need a signed-in reviewer on this server, as every write does.
    const api = await playwrightRequest.newContext({
      baseURL: ssoPortal.url,
      extraHTTPHeaders: { cookie: `${SSO_SESSION_COOKIE}=operator%40example.com` },
    });
    const mock = new MockControl(api, `sso-${tag}`);
    await mock.reset('empty');
    const contexts: BrowserContext[] = [];
    await use({
      tag,
      mock,
      async ask(questions) {
        const ids: string[] = [];
        for (const question of questions) {
          const fields = typeof question === 'string' ? { question } : question;
          ids.push((await mock.ask({ expires_in_seconds: 3600, ...fields })).id);
        }
        return ids;
      },
      async reviewer(name) {
        const context = await browser.newContext({ baseURL: ssoPortal.url });
        contexts.push(context);
        await ssoPortal.signIn(context, `${name}-${tag}@example.com`);
        await context.addCookies([{ name: 'mock_tenant', value: mock.tenant, url: ssoPortal.url }]);
        await context.addInitScript(() => localStorage.setItem('qi:answer-and-next', 'off'));
        return context;
      },
    });
    // A journey may have closed one already.
    for (const context of contexts) await context.close().catch(() => {});
    await api.dispose();
  },
});
