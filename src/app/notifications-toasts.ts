import { notifications } from '@mantine/notifications';
import type { DesktopNotificationState } from '@/lib/desktop-notifications';
import { BLOCKED_HELP } from './notifications-toggle';

/**
 * What the notifications switch says once it has been pressed: loaded with the toasts' own code
 * when it is, not in the header's first download.
 */
export function sayToggled(state: DesktopNotificationState): void {
  if (state === 'blocked') {
    notifications.show({
      color: 'orange',
      title: 'Notifications are blocked',
      message: BLOCKED_HELP,
    });
  } else if (state === 'on') {
    notifications.show({
      color: 'teal',
      title: 'Desktop notifications on',
      message:
        'You will be told of new questions and of questions about to expire while you are in another tab or app.',
    });
  } else {
    notifications.show({
      color: 'gray',
      title: 'Notifications stay off',
      message: 'The browser did not allow them. Turn them on again to be asked once more.',
    });
  }
}
