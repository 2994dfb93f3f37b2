import { Alert } from '@mantine/core';
import { IconWifiOff } from '@tabler/icons-react';
import { onlineManager } from '@tanstack/react-query';
import { useSyncExternalStore } from 'react';
import { ClockSkewNotice } from '@/components/clock-skew-notice';
import { SessionEndedAlert } from '@/components/session-ended-alert';
import { useSession } from '@/lib/session-store';

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
  return <ClockSkewNotice />;
}
