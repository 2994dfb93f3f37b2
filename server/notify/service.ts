// Notifications as the server runs them: the senders for the configured receivers, the notifier's
// passes (routing only while this replica watches the systems) and the operator's API. start.ts
// builds this once, after the watcher and the metrics.
import type { Db } from '../db/engine';
import type { IdentityConfig } from '../identity/identity';
import { deliveriesApi } from './api';
import { DEFAULT_DEVICES, type NotifyConfig } from './config';
import { createNotifier, type DeliveryOutcome } from './notifier';
import { pushApi } from './push-api';
import { sendersFor } from './receivers';
import { webPushSender } from './web-push';

export interface NotificationsOptions {
  db: Db;
  config: NotifyConfig;
  smtpUrl: string | null;
  publicUrl: string | null;
  identity: IdentityConfig;
  leader: () => boolean;
  systemNames: ReadonlyMap<string, string>;
  onDelivery?: (receiver: string, outcome: DeliveryOutcome) => void;
}

export function createNotifications(options: NotificationsOptions) {
  const { config } = options;
  const notifier = createNotifier({
    db: options.db,
    config,
    senders: sendersFor(
      config.receivers,
      options.smtpUrl,
      Object.fromEntries(
        config.receivers
          .filter((receiver) => receiver.kind === 'webpush')
          .map((receiver) => [
            receiver.name,
            webPushSender({
              db: options.db,
              subject: options.publicUrl ?? 'mailto:questions-inbox@localhost',
              claimedBy: () => claimHolders(options.db),
            }),
          ]),
      ),
    ),
    publicUrl: options.publicUrl,
    leader: options.leader,
    systemNames: options.systemNames,
    onDelivery: options.onDelivery,
  });
  const deliveries = deliveriesApi({ db: options.db, identity: options.identity });
  const push = pushApi({
    db: options.db,
    identity: options.identity,
    offered: config.receivers.some((receiver) => receiver.kind === 'webpush'),
  });
  return {
    api: async (request: Request, innerPath: string) =>
      (await deliveries(request, innerPath)) ?? push(request, innerPath),
    /** One line for the start-up banner: receivers by kind, never a URL or a secret. */
    summary(): string {
      if (config.receivers.length === 0)
        return 'Notifications: none (NOTIFY_CONFIG, NOTIFY_WEBHOOK_URL or SMTP_URL turn them on)';
      if (config.receivers.every((r) => r.name === DEFAULT_DEVICES && r.kind === 'webpush'))
        return "Notifications: to reviewers' devices that turn them on (NOTIFY_CONFIG, NOTIFY_WEBHOOK_URL or SMTP_URL add a channel)";
      const named = config.receivers.map((r) => `${r.name} (${r.kind})`).join(', ');
      return `Notifications: ${config.routes.length} route${config.routes.length === 1 ? '' : 's'} to ${named}`;
    },
    start: () => {
      if (config.routes.length > 0) notifier.start();
    },
    close: () => notifier.stop(),
  };
}

/** Who holds each question now (the inbox's id: `<source>:<id>` for Vertesia and Bilby). */
export async function claimHolders(db: Db): Promise<Map<string, string>> {
  const rows = await db.query<{ question_id: string; reviewer: string }>(
    'SELECT question_id, reviewer FROM claims WHERE expires_at > now()',
  );
  return new Map(rows.map((row) => [row.question_id, row.reviewer]));
}
