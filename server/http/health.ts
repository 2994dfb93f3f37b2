import type { Context, Hono } from 'hono';

/** Whether this server can do all its work now, and if not, what it cannot do. */
export interface Readiness {
  ok: boolean;
  /** Plain words, one a problem (no addresses, no secrets). */
  problems: string[];
}

const healthz = (c: Context) => c.json({ status: 'ok' }, 200, { 'Cache-Control': 'no-store' });

/**
 * `GET /healthz` for load balancers and Kubernetes liveness probes, and `GET /readyz` for their
 * readiness probes: at the root whatever the base path (a probe hits the pod directly, not the
 * public sub-path) and under the base path too (a check from outside, through the ingress). No
 * auth, no I/O. `/healthz` says the process answers; `/readyz` answers 503 "degraded" while a
 * part of its work cannot be done (the link to the other replicas is down), so the replica leaves
 * the Service until it is back.
 */
export function mountHealth(app: Hono, basePath: string, ready?: () => Readiness): void {
  const readyz = (c: Context) => {
    const state = ready?.() ?? { ok: true, problems: [] };
    return state.ok
      ? c.json({ status: 'ok' }, 200, { 'Cache-Control': 'no-store' })
      : c.json({ status: 'degraded', problems: state.problems }, 503, {
          'Cache-Control': 'no-store',
        });
  };
  for (const prefix of basePath === '/' ? ['/'] : ['/', basePath]) {
    app.get(`${prefix}healthz`, healthz);
    app.get(`${prefix}readyz`, readyz);
  }
}
