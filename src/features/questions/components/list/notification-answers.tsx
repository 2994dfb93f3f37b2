import { useNotificationAnswers } from '../../hooks/use-notification-answers';

/**
 * Answers chosen on a notification (public/push-sw.js), sent by this tab: a part of its own,
 * loaded after the first screen (its code and the Service Worker API stay out of the first
 * download).
 */
export function NotificationAnswers() {
  useNotificationAnswers();
  return null;
}
