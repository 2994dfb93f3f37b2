import { IconBell, IconBellOff, IconBellRinging } from '@tabler/icons-react';
import { desktopNotifications, useDesktopNotificationState } from '@/lib/desktop-notifications';
import classes from './app-layout.module.css';

// The toasts' code loads with the notifications host, after the first screen: not in the header's.
const toast = (message: { color: string; title: string; message: string }) =>
  void import('@mantine/notifications').then(({ notifications }) => notifications.show(message));

const BLOCKED_HELP =
  'This browser blocks notifications from this site. Allow them in the site settings (the icon left of the address), then turn them on here.';

/**
 * The reviewer's switch for desktop notifications. The browser's permission is asked for only
 * when it is turned on; blocked by the browser, it says so and how to allow them.
 */
export function NotificationsToggle() {
  const store = desktopNotifications();
  const state = useDesktopNotificationState(store);
  if (state === 'unsupported') return null;
  const on = state === 'on';
  const blocked = state === 'blocked';
  const label = blocked
    ? 'Desktop notifications: blocked by the browser'
    : `Desktop notifications: ${on ? 'on' : 'off'}`;
  const toggle = async () => {
    if (blocked) {
      toast({ color: 'orange', title: 'Notifications are blocked', message: BLOCKED_HELP });
      return;
    }
    if (on) {
      store.turnOff();
      return;
    }
    const result = await store.turnOn();
    if (result === 'blocked') {
      toast({ color: 'orange', title: 'Notifications are blocked', message: BLOCKED_HELP });
    } else if (result === 'off') {
      toast({
        color: 'gray',
        title: 'Notifications stay off',
        message: 'The browser did not allow them. Turn them on again to be asked once more.',
      });
    } else {
      toast({
        color: 'teal',
        title: 'Desktop notifications on',
        message:
          'You will be told of new questions and of questions about to expire while you are in another tab or app.',
      });
    }
  };
  return (
    <button
      type="button"
      role="switch"
      aria-checked={on}
      aria-disabled={state === 'asking' || undefined}
      aria-label={label}
      title={blocked ? BLOCKED_HELP : label}
      className={blocked ? `${classes.iconButton} ${classes.blocked}` : classes.iconButton}
      data-state={state}
      onClick={() => void toggle()}
    >
      {blocked ? (
        <>
          <IconBellOff size={18} aria-hidden />
          <span>Blocked</span>
        </>
      ) : on ? (
        <IconBellRinging size={18} aria-hidden />
      ) : (
        <IconBell size={18} aria-hidden />
      )}
    </button>
  );
}
