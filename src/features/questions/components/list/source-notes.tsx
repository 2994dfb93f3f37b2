import { Alert, Button, Text } from '@mantine/core';
import { useEffect, useState } from 'react';
import { useRuntimeConfig } from '@/config/runtime-config';
import { useShell } from '@/config/shell-context';
import type { SourceFailure, SourceLoading } from '../../api/schemas';
import classes from './source-notes.module.css';

/**
 * What the list says of its sources when one is not all there: failed (with its reason) or still
 * loading (slow after SLOW_SOURCE_MS, with the time so far). Its own chunk: a one-system inbox
 * that answers never needs it.
 */
export function SourceNotes({
  failures,
  loading,
}: {
  failures: SourceFailure[] | undefined;
  loading: SourceLoading[] | undefined;
}) {
  return (
    <>
      <SourceFailuresNote failures={failures} />
      <SourceLoadingNote loading={loading} />
    </>
  );
}

/** A source that has not answered its list after this long is shown as slow. */
export const SLOW_SOURCE_MS = 3_000;

/**
 * Sources still loading, in one quiet line over the page's corner (never moving the rows); the time
 * so far once one is slow.
 */
export function SourceLoadingNote({ loading }: { loading: SourceLoading[] | undefined }) {
  const [now, setNow] = useState(Date.now);
  const waiting = loading !== undefined && loading.length > 0;
  useEffect(() => {
    if (!waiting) return;
    setNow(Date.now());
    const timer = setInterval(() => setNow(Date.now()), 1_000);
    return () => clearInterval(timer);
  }, [waiting]);
  if (!waiting) return null;
  const parts = loading.map(({ source, since }) => {
    const seconds = Math.floor((now - since) / 1_000);
    return now - since >= SLOW_SOURCE_MS
      ? `${source.label} is slow: no answer after ${seconds} s`
      : `${source.label} is still loading`;
  });
  return (
    <Text size="sm" c="dimmed" role="status" className={classes.loading} data-sources-loading="">
      {parts.join('; ')}.{' '}
      {loading.length === 1
        ? 'Its questions join the list when it answers.'
        : 'Their questions join the list as each answers.'}
    </Text>
  );
}

/** Sources that could not be read: each named, while the others' questions stay live. */
export function SourceFailuresNote({ failures }: { failures: SourceFailure[] | undefined }) {
  const { tokens } = useShell();
  const tokenMode = useRuntimeConfig().auth.mode === 'token';
  if (!failures || failures.length === 0) return null;
  return (
    <Alert
      color="orange"
      variant="light"
      role="status"
      title={
        failures.length === 1 ? 'One source is not answering' : 'Some sources are not answering'
      }
    >
      {failures.map((failure) => (
        <Text size="sm" key={failure.source.id} data-source-failure={failure.source.id}>
          {failure.message}.{' '}
          {failure.stale
            ? 'Its questions below are from the last refresh that reached it.'
            : 'Its questions are missing from the list.'}{' '}
          The other sources are up to date; it is tried again with every refresh.
          {failure.signedOut && tokenMode && (
            <>
              {' '}
              <Button
                size="compact-sm"
                variant="default"
                onClick={() => tokens.clear(failure.source.id)}
              >
                Enter a new {failure.source.label} API key
              </Button>
            </>
          )}
        </Text>
      ))}
    </Alert>
  );
}
