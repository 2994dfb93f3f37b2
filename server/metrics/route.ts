// `GET /metrics`: Prometheus' text format. With METRICS_TOKEN, only a scrape that brings it as a
// bearer token (Prometheus' `authorization` setting), from any address, since a scraper reaches
// the pod directly; without it, the portal's own rules: a name it answers to (ALLOWED_HOSTS) and
// the signed-in reviewer (REVIEWER_HEADER, through the SSO proxy). Never cached.
import { timingSafeEqual } from 'node:crypto';
import { type IdentityConfig, identify } from '../identity/identity';
import type { Metrics } from './metrics';

export interface MetricsRouteOptions {
  metrics: Metrics;
  token: string | null;
  identity: IdentityConfig;
  /** `host:port` names the portal answers to (as the HTTP app's guards). */
  allowedHosts: readonly string[];
}

function refused(status: number, detail: string, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify({ detail }), {
    status,
    headers: { 'content-type': 'application/json', 'cache-control': 'no-store', ...headers },
  });
}

function sameSecret(given: string, expected: string): boolean {
  const a = new TextEncoder().encode(given);
  const b = new TextEncoder().encode(expected);
  return a.byteLength === b.byteLength && timingSafeEqual(a, b);
}

export function metricsRoute(
  options: MetricsRouteOptions,
): (request: Request) => Promise<Response> {
  const hosts = new Set(options.allowedHosts.map((host) => host.toLowerCase()));
  return async (request) => {
    if (options.token) {
      const given = /^Bearer\s+(\S+)$/i.exec(request.headers.get('authorization') ?? '')?.[1];
      if (!given || !sameSecret(given, options.token)) {
        return refused(401, 'Metrics need METRICS_TOKEN as a bearer token.', {
          'www-authenticate': 'Bearer realm="metrics"',
        });
      }
    } else {
      const host = (request.headers.get('host') ?? '').toLowerCase();
      if (!hosts.has(host)) {
        return refused(
          403,
          'Host not allowed: set ALLOWED_HOSTS, or METRICS_TOKEN for a scraper that reaches the pod directly.',
        );
      }
      const reviewer = identify(request.headers, options.identity);
      if (reviewer instanceof Response) return reviewer;
    }
    const body = await options.metrics.text();
    return new Response(body, {
      headers: { 'content-type': options.metrics.contentType, 'cache-control': 'no-store' },
    });
  };
}
