// `GET /portal-api/notify/deliveries[?status=failed]`: the operator's view of the outbox, the newest
// 200 messages (of one status, or all), each with its route, receiver, occasion, tries, how many
// questions it carried and its last error in plain words. Who may read it: a signed-in reviewer
// (REVIEWER_HEADER through the SSO proxy), as the Activity page. Never a question's text, a
// receiver's URL or a secret: those stay in the database and the settings.

import type { Queryable } from '../db/engine';
import { type IdentityConfig, identify } from '../identity/identity';
import { listDeliveries } from './outbox';

function jsonResponse(status: number, value: unknown): Response {
  return new Response(JSON.stringify(value), {
    status,
    headers: { 'content-type': 'application/json', 'cache-control': 'no-store' },
  });
}

const STATUSES = ['pending', 'sent', 'failed', 'dropped'] as const;
export const DELIVERIES_PATH = '/portal-api/notify/deliveries';

export function deliveriesApi(options: { db: Queryable; identity: IdentityConfig }) {
  return async (request: Request, innerPath: string): Promise<Response | null> => {
    if (innerPath !== DELIVERIES_PATH) return null;
    const method = request.method.toUpperCase();
    if (method !== 'GET' && method !== 'HEAD') return jsonResponse(405, { detail: 'GET only.' });
    const reviewer = identify(request.headers, options.identity);
    if (reviewer instanceof Response) return reviewer;
    const status = new URL(request.url).searchParams.get('status');
    if (status !== null && !(STATUSES as readonly string[]).includes(status)) {
      return jsonResponse(400, { detail: `status must be one of ${STATUSES.join(', ')}.` });
    }
    try {
      return jsonResponse(200, { deliveries: await listDeliveries(options.db, status, 200) });
    } catch {
      return jsonResponse(503, {
        detail:
          'The deliveries could not be read: the database is unavailable. Try again in a moment.',
      });
    }
  };
}
