import { Alert } from '@mantine/core';
import { IconWifiOff } from '@tabler/icons-react';
import { onlineManager } from '@tanstack/react-query';
import { useSyncExternalStore } from 'react';
import { LoadBoundary, lazyPart } from '@/components/load-boundary';
import { SessionEndedAlert } from '@/components/session-ended-alert';
import { useClock } from '@/lib/clock';
import { useSession } from '@/lib/session-store';

// Its code loads only when the clocks differ by a minute or more: most pages never need it.
const ClockSkewNotice = lazyPart(
  () => import('@/components/clock-skew-notice').then((m) => m.ClockSkewNotice),
  'ClockSkewNotice',
);

// The server's first screen knows no skew of this computer's clock: none while it is taken over.
const noSkewYet = () => 0;

/**
 * Under the page's content, not above it: it comes a moment after the first list (the skew is
 * learnt from the list's own responses, and its code loads then), and above the list it pushed
 * every row down under a reviewer's pointer as they clicked.
 */
export function ClockNotice() {
  const clock = useClock();
  // `|| 0`: a skew of a few milliseconds behind rounds to -0, which is not the first screen's 0
  // (Object.is), and re-rendered this as the page was taken over.
  const read = () => Math.round(clock.skewMs() / 60_000) || 0;
  const minutes = useSyncExternalStore(clock.subscribe, read, noSkewYet);
  return minutes === 0 ? null : (
    <LoadBoundary what="The clock notice" parts={[ClockSkewNotice]} quiet>
      <ClockSkewNotice />
    </LoadBoundary>
  );
}

function useOnline(): boolean {
  return useSyncExternalStore(
    (listener) => onlineManager.subscribe(listener),
    () => onlineManager.isOnline(),
    () => true,
  );
}

/** App-wide states that change what every screen can do: a sign-in that ended, and offline. */
export function StatusBanners() {
  const online = useOnline();
  const { state } = useSession();
  if (state === 'ended') return <SessionEndedAlert />;
  if (!online) {
    return (
      <Alert
        color="orange"
        variant="light"
        icon={<IconWifiOff aria-hidden />}
        title="You are offline"
        mb="md"
        role="status"
      >
        Showing what was loaded before. Refreshing resumes when the connection is back; anything you
        type is kept as a draft.
      </Alert>
    );
  }
  return null;
}
