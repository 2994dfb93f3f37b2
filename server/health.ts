import type { Context, Hono } from 'hono';

const healthz = (c: Context) => c.json({ status: 'ok' }, 200, { 'Cache-Control': 'no-store' });

/**
 * `GET /healthz` for load balancers and Kubernetes probes: at the root whatever the base path (a
 * probe hits the pod directly, not the public sub-path) and under the base path too (a check from
 * outside, through the ingress). No auth, no I/O: it says the process answers.
 */
export function mountHealth(app: Hono, basePath: string): void {
  app.get('/healthz', healthz);
  if (basePath !== '/') app.get(`${basePath}healthz`, healthz);
}
