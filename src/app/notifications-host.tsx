import '@mantine/core/styles/Notification.layer.css';
import '@mantine/notifications/styles.layer.css';
import { Notifications } from '@mantine/notifications';

/** Toasts after actions; loaded once the page is idle, so it is not part of the initial download. */
export default function NotificationsHost() {
  return <Notifications position="bottom-left" limit={4} />;
}
