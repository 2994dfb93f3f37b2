import { Alert, Button, Group, Stack, Text } from '@mantine/core';
import { IconLock } from '@tabler/icons-react';
import { useRuntimeConfig } from '@/config/runtime-config';
import { useShell } from '@/config/shell-context';
import { signInAddress } from '@/config/sign-in';
import { useSession } from '@/lib/session-store';

/**
 * The one "session ended" state, with its way forward. Shown on the page and, since an open
 * question makes the page behind it inert, inside the question drawer too.
 */
export function SessionEndedAlert() {
  const { state, store } = useSession();
  const { tokens } = useShell();
  const config = useRuntimeConfig();
  if (state !== 'ended') return null;
  const tokenMode = config.auth.mode === 'token';
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
