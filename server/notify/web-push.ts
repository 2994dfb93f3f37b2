// Web Push to reviewers' devices: the VAPID keys are made once and kept in the database (every
// replica signs with the same ones, and a restart does not orphan the devices), each device's
// subscription is kept with what its reviewer chose to receive, and a notice goes to every device
// whose choice it fits. The payload is encrypted for the device (RFC 8291, aes128gcm) by the
// `web-push` library; a push service that says a subscription is gone (404, 410) has it removed.
import webpush from 'web-push';
import { z } from 'zod';
import type { Queryable } from '../db/engine';
import { leftWords, type Notice } from './message';
import { DeliveryError, type Sender } from './receivers';

export interface VapidKeys {
  publicKey: string;
  privateKey: string;
}

/** The deployment's VAPID keys: read, or made by whichever replica comes first. */
export async function vapidKeys(db: Queryable): Promise<VapidKeys> {
  const read = async () =>
    (
      await db.query<{ public_key: string; private_key: string }>(
        'SELECT public_key, private_key FROM notify_vapid WHERE id = 1',
      )
    )[0];
  let row = await read();
  if (!row) {
    const made = webpush.generateVAPIDKeys();
    await db.query(
      `INSERT INTO notify_vapid (id, public_key, private_key) VALUES (1, $1, $2)
       ON CONFLICT (id) DO NOTHING`,
      [made.publicKey, made.privateKey],
    );
    row = await read();
  }
  if (!row) throw new Error('the VAPID keys could not be kept');
  return { publicKey: row.public_key, privateKey: row.private_key };
}

export const choiceSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('all') }).strict(),
  z
    .object({
      kind: z.literal('some'),
      systems: z.array(z.string().min(1).max(100)).max(20).default([]),
      tags: z.array(z.string().min(1).max(200)).max(50).default([]),
    })
    .strict(),
  z.object({ kind: z.literal('claimed') }).strict(),
  z.object({ kind: z.literal('escalations') }).strict(),
]);
export type PushChoice = z.infer<typeof choiceSchema>;

export const subscriptionSchema = z
  .object({
    endpoint: z
      .string()
      .max(2000)
      .refine((value) => /^https:\/\//.test(value) && URL.canParse(value), 'an https URL'),
    keys: z.object({ p256dh: z.string().min(1).max(200), auth: z.string().min(1).max(100) }),
  })
  .passthrough();

export async function saveSubscription(
  db: Queryable,
  reviewer: string,
  subscription: { endpoint: string; keys: { p256dh: string; auth: string } },
  choice: PushChoice,
): Promise<void> {
  await db.query(
    `INSERT INTO push_subscriptions (endpoint, reviewer, p256dh, auth, choice) VALUES ($1, $2, $3, $4, $5)
     ON CONFLICT (endpoint) DO UPDATE SET reviewer = EXCLUDED.reviewer, p256dh = EXCLUDED.p256dh,
       auth = EXCLUDED.auth, choice = EXCLUDED.choice`,
    [
      subscription.endpoint,
      reviewer,
      subscription.keys.p256dh,
      subscription.keys.auth,
      JSON.stringify(choice),
    ],
  );
}

export async function removeSubscription(db: Queryable, endpoint: string, reviewer?: string) {
  await db.query(
    'DELETE FROM push_subscriptions WHERE endpoint = $1 AND ($2::text IS NULL OR reviewer = $2)',
    [endpoint, reviewer ?? null],
  );
}

interface Device {
  endpoint: string;
  reviewer: string;
  keys: { p256dh: string; auth: string };
  choice: PushChoice;
}

async function devices(db: Queryable): Promise<Device[]> {
  const rows = await db.query<{
    endpoint: string;
    reviewer: string;
    p256dh: string;
    auth: string;
    choice: unknown;
  }>('SELECT endpoint, reviewer, p256dh, auth, choice FROM push_subscriptions');
  return rows.flatMap((row) => {
    const choice = choiceSchema.safeParse(
      typeof row.choice === 'string' ? JSON.parse(row.choice) : row.choice,
    );
    return choice.success
      ? [
          {
            endpoint: row.endpoint,
            reviewer: row.reviewer,
            keys: { p256dh: row.p256dh, auth: row.auth },
            choice: choice.data,
          },
        ]
      : [];
  });
}

/** Whether a device's choice wants this notice; `claimedBy` says who holds each question. */
export function wants(
  choice: PushChoice,
  notice: Notice,
  reviewer: string,
  claimedBy: ReadonlyMap<string, string>,
) {
  if (choice.kind === 'all') return true;
  if (choice.kind === 'escalations') return notice.type === 'questions.escalation';
  if (choice.kind === 'claimed')
    return notice.questions.some((q) => claimedBy.get(q.id) === reviewer);
  return notice.questions.some(
    (q) => choice.systems.includes(q.sourceId) || q.tags.some((tag) => choice.tags.includes(tag)),
  );
}

/** A notification action that answers with the quick answer at `index` (public/push-sw.js). */
export const ANSWER_ACTION = 'answer:';

/**
 * What the device's service worker (public/push-sw.js) shows: the title; the agent, the system, the
 * time left and a slice of the (first) question; and where a click goes, as a path under the
 * portal's own address (the worker resolves it against its scope, the address the reviewer uses).
 * A notice about one Reflexio question with quick answers offers them as actions (`answer:<i>`,
 * titled with the answer itself), with the question's system and id to send it through the
 * portal; `answerable: false` (claimed by someone else) leaves only Open.
 */
export function pushPayload(notice: Notice, answerable = true): string {
  const first = notice.questions[0];
  const more = notice.count > 1 ? ` (and ${notice.count - 1} more)` : '';
  const single = notice.count === 1 && first ? first : null;
  const offered = answerable && single?.sourceId === 'reflexio' ? single.choices : [];
  return JSON.stringify({
    id: notice.id,
    type: notice.type,
    title: notice.title,
    body: first
      ? `${first.agent} on ${first.system} · ${leftWords(first.minutesLeft)}: ${first.asked}${more}`
      : '',
    url: notice.url,
    path: single ? `questions/${encodeURIComponent(single.id)}` : 'questions',
    count: notice.count,
    ...(single && offered.length > 0
      ? {
          question: { source: single.sourceId, id: single.id },
          actions: offered.map((title, index) => ({ action: `${ANSWER_ACTION}${index}`, title })),
        }
      : {}),
  });
}

export function webPushSender(options: {
  db: Queryable;
  subject: string;
  claimedBy?: () => Promise<ReadonlyMap<string, string>>;
  /** Tests send to a stand-in over plain HTTP; the server uses fetch as is. */
  fetch?: typeof fetch;
}): Sender {
  const send = options.fetch ?? fetch;
  return async (notice) => {
    const [keys, all, claimedBy] = await Promise.all([
      vapidKeys(options.db),
      devices(options.db),
      options.claimedBy ? options.claimedBy() : Promise.resolve(new Map<string, string>()),
    ]);
    const chosen = all.filter((device) => wants(device.choice, notice, device.reviewer, claimedBy));
    // A question someone else holds is answered in the portal, where their claim is shown first.
    const holder = notice.count === 1 ? claimedBy.get(notice.questions[0]?.id ?? '') : undefined;
    let failed = 0;
    for (const device of chosen) {
      const request = webpush.generateRequestDetails(
        { endpoint: device.endpoint, keys: device.keys },
        pushPayload(notice, holder === undefined || holder === device.reviewer),
        {
          vapidDetails: { subject: options.subject, ...keys },
          TTL: 3600,
          contentEncoding: 'aes128gcm',
        },
      );
      const response = await send(request.endpoint, {
        method: request.method,
        headers: request.headers as Record<string, string>,
        body: request.body ? new Uint8Array(request.body) : undefined,
        signal: AbortSignal.timeout(10_000),
      }).catch(() => null);
      await response?.body?.cancel();
      if (response && (response.status === 404 || response.status === 410)) {
        await removeSubscription(options.db, device.endpoint);
      } else if (!response?.ok) {
        failed += 1;
      }
    }
    if (failed > 0)
      throw new DeliveryError(`${failed} of ${chosen.length} devices could not be reached`);
  };
}
