// A reviewer's devices for Web Push: `GET /portal-api/notify/push` gives the deployment's public
// VAPID key (for `pushManager.subscribe`) and whether any route sends to devices (`offered`); `POST` keeps this device's subscription with what its
// reviewer chose (all, some systems or tags, questions they claimed, escalations only); `DELETE`
// forgets it. Only under the signed-in reviewer's name; bodies capped at 8 KB; nothing logged.

import { z } from 'zod';
import type { Queryable } from '../db/engine';
import { type IdentityConfig, identify } from '../identity/identity';
import {
  choiceSchema,
  removeSubscription,
  saveSubscription,
  subscriptionSchema,
  vapidKeys,
} from './web-push';

export const PUSH_PATH = '/portal-api/notify/push';
const MAX_BODY = 8 * 1024;

const json = (status: number, value: unknown) =>
  new Response(JSON.stringify(value), {
    status,
    headers: { 'content-type': 'application/json', 'cache-control': 'no-store' },
  });

const saveBody = z.object({ subscription: subscriptionSchema, choice: choiceSchema }).strict();
const deleteBody = z.object({ endpoint: z.string().max(2000) }).strict();

export function pushApi(options: {
  db: Queryable;
  identity: IdentityConfig;
  /** Whether a `webpush` receiver is configured: without one a device would never hear a word. */
  offered: boolean;
}) {
  return async (request: Request, innerPath: string): Promise<Response | null> => {
    if (innerPath !== PUSH_PATH) return null;
    const reviewer = identify(request.headers, options.identity);
    if (reviewer instanceof Response) return reviewer;
    const method = request.method.toUpperCase();
    if (method === 'GET') {
      return json(200, {
        publicKey: (await vapidKeys(options.db)).publicKey,
        offered: options.offered,
      });
    }
    if (method !== 'POST' && method !== 'DELETE')
      return json(405, { detail: 'GET, POST or DELETE.' });
    const text = await request.text();
    if (text.length > MAX_BODY) return json(413, { detail: 'The body is over 8 KB.' });
    let raw: unknown;
    try {
      raw = JSON.parse(text);
    } catch {
      return json(400, { detail: 'The body is not JSON.' });
    }
    if (method === 'DELETE') {
      const parsed = deleteBody.safeParse(raw);
      if (!parsed.success) return json(400, { detail: 'Send {"endpoint": "…"}.' });
      await removeSubscription(options.db, parsed.data.endpoint, reviewer.id);
      return json(200, { removed: true });
    }
    const parsed = saveBody.safeParse(raw);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      return json(400, {
        detail: `${issue?.path.join('.') || 'body'}: ${issue?.message ?? 'invalid'}`,
      });
    }
    await saveSubscription(options.db, reviewer.id, parsed.data.subscription, parsed.data.choice);
    return json(200, { saved: true, choice: parsed.data.choice });
  };
}
