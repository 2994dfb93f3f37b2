// Tenancy and the control key, shared by the three mocks: which tenant a request names, and the
// key every control route needs when the server was given one.
import type { Context, MiddlewareHandler } from 'hono';
import { getCookie } from 'hono/cookie';
import { z } from 'zod';
import { MAX_CLOCK_STEP_MS } from './clock';

export const DEFAULT_TENANT = 'default';
export const TENANT_HEADER = 'x-mock-tenant';
export const TENANT_COOKIE = 'mock_tenant';
export const DEFAULT_MAX_TENANTS = 100;

/** The tenant `name`, moved to the end: a Map's order is the order of last use. */
export function lastUsed<T>(tenants: Map<string, T>, name: string): T | undefined {
  const existing = tenants.get(name);
  if (existing !== undefined) {
    tenants.delete(name);
    tenants.set(name, existing);
  }
  return existing;
}

/** Drops the tenants used least recently (never the default) until one more fits. */
export function makeRoom<T>(tenants: Map<string, T>, maxTenants: number): void {
  for (const oldest of tenants.keys()) {
    if (tenants.size < maxTenants) break;
    if (oldest !== DEFAULT_TENANT) tenants.delete(oldest);
  }
}

/** The tenant a request names: `x-mock-tenant`, else the `mock_tenant` cookie, else the default. */
export function tenantName(c: Context): string {
  const fromHeader = c.req.header(TENANT_HEADER)?.trim();
  const fromCookie = getCookie(c, TENANT_COOKIE)?.trim();
  return fromHeader || fromCookie || DEFAULT_TENANT;
}

export const clockSchema = z
  .object({ advanceMs: z.number().finite().min(-MAX_CLOCK_STEP_MS).max(MAX_CLOCK_STEP_MS) })
  .strict();

/**
 * With a key, the control routes (`/__mock/…`) need `Authorization: Bearer <key>`; the refusal
 * is `refuse`'s, and comes before any tenant is looked up, so a refused request makes none.
 */
export function controlKeyGate(
  controlKey: string | null,
  refuse: (message: string) => Response,
): MiddlewareHandler {
  return async (c, next) => {
    // The stand-in sign-in page is where a browser lands, not a control route.
    if (controlKey === null || c.req.path === '/__mock/sign-in') return next();
    const match = /^bearer\s+(.+)$/i.exec((c.req.header('authorization') ?? '').trim());
    if (match?.[1] !== controlKey) {
      const response = refuse(
        'The mock’s control routes need Authorization: Bearer <MOCK_API_KEY>',
      );
      response.headers.set('www-authenticate', 'Bearer');
      return response;
    }
    return next();
  };
}
