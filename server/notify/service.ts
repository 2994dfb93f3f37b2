// Notifications as the server runs them: the senders for the configured receivers, the notifier's
// passes (routing only while this replica watches the systems) and the operator's API. start.ts
// builds this once, after the watcher and the metrics.
import type { Db } from '../db/engine';
import type { IdentityConfig } from '../identity/identity';
import { deliveriesApi } from './api';
import type { NotifyConfig } from './config';
import { createNotifier, type DeliveryOutcome } from './notifier';
import { sendersFor } from './receivers';

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
    senders: sendersFor(config.receivers, options.smtpUrl),
    publicUrl: options.publicUrl,
    leader: options.leader,
    systemNames: options.systemNames,
    onDelivery: options.onDelivery,
  });
  return {
    api: deliveriesApi({ db: options.db, identity: options.identity }),
    /** One line for the start-up banner: receivers by kind, never a URL or a secret. */
    summary(): string {
      if (config.receivers.length === 0)
        return 'Notifications: none (NOTIFY_CONFIG, NOTIFY_WEBHOOK_URL or SMTP_URL turn them on)';
      const named = config.receivers.map((r) => `${r.name} (${r.kind})`).join(', ');
      return `Notifications: ${config.routes.length} route${config.routes.length === 1 ? '' : 's'} to ${named}`;
    },
    start: () => {
      if (config.routes.length > 0) notifier.start();
    },
    close: () => notifier.stop(),
  };
}
