import { Alert, Button, Group, Stack, Text } from '@mantine/core';
import { IconLock, IconWifiOff } from '@tabler/icons-react';
import { onlineManager } from '@tanstack/react-query';
import { useSyncExternalStore } from 'react';
import { useRuntimeConfig } from '@/config/runtime-config';
import { signInAddress } from '@/config/sign-in';
import { useSession } from '@/lib/session-store';
import { useShell } from './shell-context';

function useOnline(): boolean {
  return useSyncExternalStore(
    (listener) => onlineManager.subscribe(listener),
    () => onlineManager.isOnline(),
    () => true,
  );
}

/** App-wide states that change what every screen can do: offline, and a sign-in that ended. */
export function StatusBanners() {
  const online = useOnline();
  const { state, store } = useSession();
  const { tokens } = useShell();
  const config = useRuntimeConfig();
  const tokenMode = config.auth.mode === 'token';

  if (state === 'ended') {
    return (
      <Alert
        color="red"
        variant="light"
        icon={<IconLock aria-hidden />}
        title="Your session has ended"
        mb="md"
        role="alert"
      >
        <Stack gap="xs">
          <Text size="sm">
            {tokenMode
              ? 'The server no longer accepts your API key, so nothing can be loaded or sent.'
              : 'The sign-in in front of this portal expired, so nothing can be loaded or sent.'}{' '}
            Your drafts are kept in this browser and will be here when you come back.
          </Text>
          <Group>
            {tokenMode ? (
              <Button
                color="red"
                onClick={() => {
                  tokens.clear();
                  store.reset();
                }}
              >
                Enter a new API key
              </Button>
            ) : (
              <Button component="a" href={signInAddress(config, window.location.href)} color="red">
                Sign in again
              </Button>
            )}
          </Group>
        </Stack>
      </Alert>
    );
  }
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
