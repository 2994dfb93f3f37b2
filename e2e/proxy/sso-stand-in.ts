// A stand-in for the SSO proxy (oauth2-proxy's endpoints, with an identity provider's sign-in
// form folded in). nginx forwards `<prefix>oauth2/...` here exactly as it would to oauth2-proxy
// (see deploy/nginx/questions-inbox.conf); the tests drive it through `/__sso/...`, which only
// the test reaches (directly on the stand-in's port, never through nginx).
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * How an API call whose session has ended is answered, like the SSO products the portal meets:
 * `401` (oauth2-proxy's auth_request answer, or an `--api-route`), `403` with an HTML page,
 * `302` to the sign-in page (oauth2-proxy's /oauth2/start, Pomerium, cloud access proxies),
 * `html`: 200 with the sign-in page itself (portals that render the login at the original URL).
 */
export type ExpiryMode = '401' | '403' | '302' | 'html';
export const EXPIRY_MODES: readonly ExpiryMode[] = ['401', '403', '302', 'html'];

export const SESSION_COOKIE = '_qi_sso';

interface Session {
  id: string;
  username: string;
  /** null while live; how API calls are answered once ended. */
  ended: ExpiryMode | null;
}

export interface SsoAnswer {
  /** What the stand-in answered a signed-out request with. */
  kind: 'api-expired' | 'sign-in-redirect';
  mode: ExpiryMode | null;
  /** The original request (what nginx put in X-Auth-Request-Redirect). */
  uri: string;
}

export interface SsoStandIn {
  origin: string;
  /** Ends the user's live sessions; their API calls are then answered as `mode` says. */
  end(username: string, mode: ExpiryMode): number;
  /** What the stand-in answered signed-out requests with, oldest first. */
  answers(): SsoAnswer[];
  close(): Promise<void>;
}

function escapeHtml(text: string): string {
  return text
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;')
    .replaceAll("'", '&#39;');
}

/** The identity provider's sign-in form: no inline script or style, like the portal. */
function signInPage(rd: string): string {
  return `<!doctype html>
<html lang="en">
  <head><meta charset="utf-8"><title>Sign in · Example SSO</title></head>
  <body>
    <main>
      <h1>Example SSO</h1>
      <form method="post" action="sign_in">
        <input type="hidden" name="rd" value="${escapeHtml(rd)}">
        <p><label>Username <input name="username" autocomplete="username" required></label></p>
        <p><button type="submit">Sign in</button></p>
      </form>
    </main>
  </body>
</html>
`;
}

function framePage(src: string): string {
  return `<!doctype html>
<html lang="en">
  <head><meta charset="utf-8"><title>Another team's portal</title></head>
  <body>
    <h1>Another team's portal</h1>
    <iframe src="${escapeHtml(src)}" title="Questions Inbox" width="1000" height="700"></iframe>
  </body>
</html>
`;
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

function cookieOf(req: IncomingMessage, name: string): string | null {
  for (const part of (req.headers.cookie ?? '').split(';')) {
    const [key, ...value] = part.trim().split('=');
    if (key === name) return decodeURIComponent(value.join('='));
  }
  return null;
}

function send(
  res: ServerResponse,
  status: number,
  body: string,
  headers: Record<string, string> = {},
): void {
  res.writeHead(status, { 'cache-control': 'no-store', ...headers });
  res.end(body);
}

function json(res: ServerResponse, status: number, body: unknown): void {
  send(res, status, JSON.stringify(body), { 'content-type': 'application/json' });
}

/** A user's identity as /oauth2/userinfo reports it (oauth2-proxy's field names). */
export function profileOf(username: string) {
  return {
    user: `uid-${Buffer.from(username).toString('hex').slice(0, 12)}`,
    email: `${username}@example.com`,
    preferredUsername: username,
  };
}

export async function startSsoStandIn(): Promise<SsoStandIn> {
  const sessions = new Map<string, Session>();
  const answers: SsoAnswer[] = [];

  const endSessions = (username: string, mode: ExpiryMode): number => {
    let ended = 0;
    for (const session of sessions.values()) {
      if (session.ended === null && session.username === username) {
        session.ended = mode;
        ended += 1;
      }
    }
    return ended;
  };

  const sessionOf = (req: IncomingMessage): Session | null => {
    const id = cookieOf(req, SESSION_COOKIE);
    return id ? (sessions.get(id) ?? null) : null;
  };

  /** Same-origin return addresses only: a path, or an absolute URL on the host nginx was asked for. */
  const safeReturn = (req: IncomingMessage, rd: string): string | null => {
    if (rd.startsWith('/') && !rd.startsWith('//') && !rd.startsWith('/\\')) return rd;
    try {
      const url = new URL(rd);
      const host = req.headers['x-forwarded-host'] ?? req.headers.host;
      const proto = req.headers['x-forwarded-proto'] ?? 'http';
      return url.origin === `${proto}://${host}` ? url.toString() : null;
    } catch {
      return null;
    }
  };

  const answerExpiredApiCall = (
    res: ServerResponse,
    mode: ExpiryMode,
    base: string,
    uri: string,
  ) => {
    answers.push({ kind: 'api-expired', mode, uri });
    const signIn = `${base}sign_in?rd=${encodeURIComponent(uri)}`;
    switch (mode) {
      case '401':
        return send(res, 401, 'Unauthorized', {
          'content-type': 'text/plain',
          'www-authenticate': 'Bearer realm="example-sso"',
        });
      case '403':
        return send(
          res,
          403,
          '<!doctype html><title>Forbidden</title><h1>403 Forbidden</h1><p>Sign in again.</p>',
          { 'content-type': 'text/html; charset=utf-8' },
        );
      case '302':
        return send(res, 302, '', { location: signIn });
      case 'html':
        return send(res, 200, signInPage(uri), { 'content-type': 'text/html; charset=utf-8' });
    }
  };

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const url = new URL(req.url ?? '/', 'http://stand-in');
    const method = req.method ?? 'GET';

    // ---- Control surface for the tests. ----
    if (url.pathname === '/__sso/end' && method === 'POST') {
      const body = JSON.parse((await readBody(req)) || '{}') as {
        username?: string;
        mode?: ExpiryMode;
      };
      const mode = body.mode ?? '401';
      if (!EXPIRY_MODES.includes(mode)) return json(res, 422, { detail: `unknown mode ${mode}` });
      return json(res, 200, { ended: endSessions(body.username ?? '', mode) });
    }
    if (url.pathname === '/__sso/answers' && method === 'GET') return json(res, 200, answers);
    if (url.pathname === '/__sso/frame' && method === 'GET') {
      return send(res, 200, framePage(url.searchParams.get('src') ?? ''), {
        'content-type': 'text/html; charset=utf-8',
      });
    }

    // ---- oauth2-proxy's endpoints, under whatever --proxy-prefix nginx forwards. ----
    const match = /^(.*\/oauth2\/)(auth|start|sign_in|userinfo|sign_out)$/.exec(url.pathname);
    if (!match) return send(res, 404, 'Not found', { 'content-type': 'text/plain' });
    const base = match[1] as string;
    const endpoint = match[2] as string;
    const session = sessionOf(req);
    const live = session !== null && session.ended === null;

    if (endpoint === 'auth') {
      if (!live) return send(res, 401, 'Unauthorized', { 'content-type': 'text/plain' });
      const profile = profileOf(session.username);
      return send(res, 202, '', {
        'x-auth-request-user': profile.user,
        'x-auth-request-email': profile.email,
        'x-auth-request-preferred-username': profile.preferredUsername,
      });
    }

    if (endpoint === 'userinfo') {
      if (!live) return send(res, 401, 'Unauthorized', { 'content-type': 'text/plain' });
      return json(res, 200, profileOf(session.username));
    }

    if (endpoint === 'sign_out') {
      if (session) sessions.delete(session.id);
      return send(res, 302, '', {
        location: `${base}sign_in`,
        'set-cookie': `${SESSION_COOKIE}=; Path=/; Max-Age=0; HttpOnly; SameSite=Lax`,
      });
    }

    if (endpoint === 'sign_in' && method === 'POST') {
      const form = new URLSearchParams(await readBody(req));
      const username = form.get('username')?.trim() ?? '';
      const rd = safeReturn(req, form.get('rd') ?? '/');
      if (!username) return send(res, 400, 'Username required', { 'content-type': 'text/plain' });
      if (!rd) return send(res, 400, 'Unsafe return address', { 'content-type': 'text/plain' });
      const id = randomUUID();
      sessions.set(id, { id, username, ended: null });
      return send(res, 302, '', {
        location: rd,
        'set-cookie': `${SESSION_COOKIE}=${id}; Path=/; HttpOnly; SameSite=Lax`,
      });
    }

    if (method !== 'GET' && method !== 'HEAD') {
      return send(res, 405, 'Method not allowed', { 'content-type': 'text/plain' });
    }

    // GET start / sign_in. nginx hands a signed-out request here with the original address in
    // X-Auth-Request-Redirect; an `rd` parameter means the browser came here itself.
    const asked = url.searchParams.get('rd');
    const original = String(req.headers['x-auth-request-redirect'] ?? '');
    const handedOver = asked === null && original !== '' && !original.includes('/oauth2/');
    // An API call: the systems' (`api/`) or the portal server's own (`portal-api/`: who is signed
    // in, presence, the trail), whichever the page happens to make first after the session ends.
    if (handedOver && /\/(portal-)?api\//.test(original.split('?')[0] ?? '')) {
      return answerExpiredApiCall(res, session?.ended ?? '401', base, original);
    }
    const rd = asked ?? (handedOver ? original : '/');
    if (endpoint === 'start' || handedOver) {
      // A page: to the sign-in form, remembering where the reviewer was going.
      answers.push({ kind: 'sign-in-redirect', mode: null, uri: rd });
      return send(res, 302, '', { location: `${base}sign_in?rd=${encodeURIComponent(rd)}` });
    }
    return send(res, 200, signInPage(rd), { 'content-type': 'text/html; charset=utf-8' });
  };

  const server: Server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      send(res, 500, String(error), { 'content-type': 'text/plain' });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    origin: `http://127.0.0.1:${port}`,
    end: endSessions,
    answers: () => [...answers],
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
