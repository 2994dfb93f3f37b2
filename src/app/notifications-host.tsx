import '@mantine/core/styles/Notification.layer.css';
import '@mantine/notifications/styles.layer.css';
import { Notifications, useNotifications } from '@mantine/notifications';
import { useState } from 'react';

/**
 * Toasts after actions; loaded with the first toast or the reviewer's first input (app.tsx), so it
 * is not part of the initial download. Mounted with the first toast (until then a toast would wait in the store a render at most):
 * Mantine's host, its portal and transitions held ~0.1 MB of the heap on a page that had shown
 * none (bench).
 */
export default function NotificationsHost() {
  const { notifications, queue } = useNotifications();
  const [wanted, setWanted] = useState(false);
  if (!wanted && notifications.length + queue.length > 0) setWanted(true);
  return wanted ? <Notifications position="bottom-left" limit={4} /> : null;
}
