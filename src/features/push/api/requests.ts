// The portal server's routes for this device's Web Push subscription (server/notify/push-api.ts):
// the deployment's public key and whether any route sends to devices; keep or forget this device.
import * as z from 'zod/mini';
import { createApiClient, isNoPortalServer, parseResponse } from '@/lib/api-client';
import { lazySchema } from '@/lib/lazy-schema';

const client = () => createApiClient({ baseUrl: new URL('portal-api/notify/', document.baseURI) });

/** What this device chose to receive (server/notify/web-push.ts choiceSchema). */
export type PushChoice =
  | { kind: 'all' }
  | { kind: 'some'; systems: string[]; tags: string[] }
  | { kind: 'claimed' }
  | { kind: 'escalations' };

const pushInfoSchema = lazySchema(() =>
  z.looseObject({ publicKey: z.string().check(z.minLength(1)), offered: z.boolean() }),
);
export interface PushInfo {
  publicKey: string;
  offered: boolean;
}

/** The server's word on Web Push here; null where no portal server answers (nginx, static demo). */
export async function fetchPushInfo(signal?: AbortSignal): Promise<PushInfo | null> {
  try {
    const data = await client().request('push', { signal });
    return parseResponse(pushInfoSchema(), data, { method: 'GET', url: 'portal-api/notify/push' });
  } catch (error) {
    if (isNoPortalServer(error)) return null;
    throw error;
  }
}

export async function saveDevice(subscription: PushSubscriptionJSON, choice: PushChoice) {
  await client().request('push', { method: 'POST', body: { subscription, choice } });
}

export async function forgetDevice(endpoint: string) {
  await client().request('push', { method: 'DELETE', body: { endpoint } });
}
