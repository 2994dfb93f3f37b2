import { Alert } from '@mantine/core';
import { useState, useSyncExternalStore } from 'react';
import { useClock } from '@/lib/clock';

/** Smaller differences are within what a reviewer can notice on a countdown anyway. */
const NOTICE_FROM_MS = 60_000;
const DISMISSED_KEY = 'questions-inbox:clock-notice-dismissed';

// The server's first screen knows no skew of this computer's clock: none while it is taken over.
const noSkewYet = () => 0;

export function describeSkew(skewMs: number): string {
  const minutes = Math.round(Math.abs(skewMs) / 60_000);
  const amount =
    minutes >= 120
      ? `${Math.round(minutes / 60)} hours`
      : `${minutes} minute${minutes === 1 ? '' : 's'}`;
  // Which clock is wrong is not known here: a test or demo server's clock may have been moved
  // (the mock's), and it is the server's that the times follow.
  return `This computer's clock is ${amount} ${skewMs > 0 ? 'ahead of' : 'behind'} the server's; times here follow the server.`;
}

function readDismissed(): number | null {
  try {
    const value = localStorage.getItem(DISMISSED_KEY);
    return value === null ? null : Number(value);
  } catch {
    return null;
  }
}

/**
 * Says once, quietly, that the computer's clock and the server's differ (countdowns follow the server's, so
 * they may not match the clock in the corner of the screen). Dismissed, it stays away until the
 * difference changes by more than a minute.
 */
export function ClockSkewNotice() {
  const clock = useClock();
  const readMinutes = () => Math.round(clock.skewMs() / NOTICE_FROM_MS) || 0;
  const skewMinutes = useSyncExternalStore(clock.subscribe, readMinutes, noSkewYet);
  const [dismissed, setDismissed] = useState(readDismissed);
  if (Math.abs(skewMinutes) < 1 || dismissed === skewMinutes) return null;
  return (
    <Alert
      color="gray"
      variant="light"
      mt="md"
      role="status"
      withCloseButton
      closeButtonLabel="Dismiss"
      onClose={() => {
        setDismissed(skewMinutes);
        try {
          localStorage.setItem(DISMISSED_KEY, String(skewMinutes));
        } catch {
          // Private mode: dismissed for this page only.
        }
      }}
    >
      {describeSkew(skewMinutes * NOTICE_FROM_MS)}
    </Alert>
  );
}
