import { Alert, Button, Group, Stack, Text } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import { isSignedOut } from '@/lib/api-client';
import { describeError } from '@/lib/describe-error';

/** A read that failed, with the server's reason and "Try again" (nothing when signed out: that has its own alert). */
export function LoadFailed({
  what,
  error,
  onRetry,
  retrying,
}: {
  /** "Questions", "This question": the sentence's subject. */
  what: string;
  error: unknown;
  onRetry: () => void;
  retrying: boolean;
}) {
  // A signed-out session is explained once, app-wide, with its own way forward.
  if (isSignedOut(error)) return null;
  const { title, message } = describeError(error);
  return (
    <Alert
      color="red"
      variant="light"
      icon={<IconAlertTriangle aria-hidden />}
      title={title}
      role="alert"
    >
      <Stack gap="sm">
        <Text size="sm">
          {what} could not be loaded. {message}
        </Text>
        <Group>
          <Button size="xs" color="red" variant="filled" onClick={onRetry} loading={retrying}>
            Try again
          </Button>
        </Group>
      </Stack>
    </Alert>
  );
}
