import { Alert, Button } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import { isApiError, isSignedOut } from '@/lib/api-client';
import { describeError } from '@/lib/describe-error';

/** What went wrong with an action, in the server's words where it gave any, and what happens now. */
export function actionErrorText(error: unknown): { title: string; message: string } {
  if (isApiError(error)) {
    if (error.kind === 'conflict') {
      return {
        title: 'Someone else got there first',
        message: `The server said: “${error.detail ?? 'conflict'}”. The question is refreshed above; what you typed is kept.`,
      };
    }
    if (error.kind === 'busy') {
      return {
        title: 'The agent is still working',
        message: `${error.detail ?? 'The server is busy with this question right now; try again in a moment.'} What you chose and wrote is kept.`,
      };
    }
    if (error.kind === 'not-found') {
      return {
        title: 'This question no longer exists',
        message:
          'It was removed from the list. What you typed is kept here: copy it if you need it.',
      };
    }
    if (error.kind === 'network') {
      return {
        title: 'Not sent: the server could not be reached',
        message:
          'Nothing was lost: your text is kept as a draft. Send it again when the connection is back.',
      };
    }
    if (error.kind === 'timeout') {
      return {
        title: 'No answer from the server in time',
        message:
          'It may or may not have been saved. The question is being refreshed; if it is still open, send again (sending the same answer twice is safe).',
      };
    }
  }
  const { title, message } = describeError(error);
  return { title, message };
}

/** Failures where sending the same thing again, a moment later, is the way forward. */
const RETRY_KINDS = new Set(['busy', 'network', 'timeout', 'unavailable', 'server']);

export function ActionError({ error, onRetry }: { error: unknown; onRetry?: () => void }) {
  // A signed-out session has its own alert, with the way to sign in again.
  if (isSignedOut(error)) return null;
  const { title, message } = actionErrorText(error);
  const retry = onRetry && isApiError(error) && RETRY_KINDS.has(error.kind);
  return (
    <Alert
      color="red"
      variant="light"
      icon={<IconAlertTriangle aria-hidden />}
      title={title}
      role="alert"
    >
      {message}
      {retry && (
        <Button mt="xs" size="compact-sm" variant="default" onClick={onRetry}>
          Try again
        </Button>
      )}
    </Alert>
  );
}
