import { IconBell, IconBellOff, IconBellRinging } from '@tabler/icons-react';
import {
  type DesktopNotificationState,
  desktopNotifications,
  useDesktopNotificationState,
} from '@/lib/desktop-notifications';
import classes from './app-layout.module.css';

// What it says when pressed loads with the toasts' code, after the first screen: not in the header's.
const say = (state: DesktopNotificationState) =>
  void import('./notifications-toasts').then((m) => m.sayToggled(state));

export const BLOCKED_HELP =
  'This browser blocks notifications from this site. Allow them in the site settings (the icon left of the address), then turn them on here.';

/**
 * The reviewer's switch for desktop notifications. The browser's permission is asked for only
 * when it is turned on; blocked by the browser, it says so and how to allow them.
 */
export function NotificationsToggle() {
  // The server's render knows no browser: it draws the switch off, as most reviewers have it.
  const state = useDesktopNotificationState();
  if (state === 'unsupported') return null;
  const on = state === 'on';
  const blocked = state === 'blocked';
  const label = blocked
    ? 'Desktop notifications: blocked by the browser'
    : `Desktop notifications: ${on ? 'on' : 'off'}`;
  const toggle = async () => {
    const store = desktopNotifications();
    if (blocked) say('blocked');
    else if (on) store.turnOff();
    else say(await store.turnOn());
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
