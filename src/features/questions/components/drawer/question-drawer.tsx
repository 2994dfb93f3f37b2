// Styles of what the drawer adds to the page: the drawer, confirmation dialogs, the answer forms.
import '@mantine/core/styles/Input.layer.css';
import '@mantine/core/styles/Badge.layer.css';
import '@mantine/core/styles/Overlay.layer.css';
import '@mantine/core/styles/ModalBase.layer.css';
import '@mantine/core/styles/Drawer.layer.css';
import '@mantine/core/styles/Modal.layer.css';
import '@mantine/core/styles/Divider.layer.css';
import '@mantine/core/styles/Switch.layer.css';
import { Alert, CloseButton, Drawer, Skeleton, Stack } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { type ReactNode, useEffect, useId, useState } from 'react';
import { PartBoundary } from '@/components/part-boundary';
import { SessionEndedAlert } from '@/components/session-ended-alert';
import { WarmUp } from '@/components/warm-up';
import { useActedOn } from '@/config/acted';
import { useRuntimeConfig } from '@/config/runtime-config';
import { useAboveApp } from '@/lib/above-app';
import { isApiError, isSignedOut } from '@/lib/api-client';
import { useCoveringLayer } from '@/lib/covering-layer';
import { describeError } from '@/lib/describe-error';
import { useSession } from '@/lib/session-store';
import { findCachedQuestion, forgetQuestion } from '../../api/cache';
import { useQuestionQueries } from '../../api/queries';
import type { Question } from '../../api/schemas';
import { type QuestionSource, useQuestionSource } from '../../api/source';
import { dialogOpen, isTextField } from '../../hooks/use-shortcuts';
import { useSplitView } from '../../hooks/use-split-view';
import { isAddressableId } from '../../sources/addressable';
import { truncateText } from '../../utils/text';
import { LoadFailed } from '../shared/load-failed';
import { QuestionDetail } from './question-detail';
import classes from './split-pane.module.css';

/**
 * Ids come from agents and the URL: anything that cannot be an id of its system, or cannot be put
 * in its API's address (`.` and `..` are removed by the URL parser: `…/pending_tool_calls/..` is
 * the list), is not asked for.
 */
export function isPlausibleId(source: QuestionSource, id: string): boolean {
  return source.addressable?.(id) ?? isAddressableId(id);
}

function NotFound({ id, askable }: { id: string; askable: boolean }) {
  return (
    <Alert
      color="gray"
      variant="light"
      role="note"
      title="Question not found"
      data-testid="question-not-found"
    >
      {askable
        ? 'There is no question with this id. It may have been removed, or the link may be wrong or belong to another organization.'
        : `No list loaded here has a question with the id “${truncateText(id, 200)}”, and an id like this cannot be looked up on the server (it cannot be part of a web address). If the question is in a list, open it from there.`}
    </Alert>
  );
}

/** Why a question shown from a list cannot be loaded or changed on its own. */
function readOnlyReason(
  id: string,
  plausible: boolean,
  copies: Question[] | null,
  copy: number,
): string | null {
  const shownId = `“${truncateText(id, 200)}”`;
  if (copies)
    return `The server sent ${copies.length} questions with the id ${shownId} in this list; this is number ${copy}. Actions name a question by its id, so the server could not tell them apart: none of them can be answered or changed here. Tell whoever runs the agent platform.`;
  if (!plausible)
    return `Its id ${shownId} cannot be sent to the server in a web address, so this question cannot be refreshed, answered or changed here. Tell whoever runs the agent platform.`;
  return null;
}

function QuestionPanel({
  id,
  copies,
  copy,
  nextId,
  onOpen,
}: {
  id: string;
  copies: Question[] | null;
  copy: number;
  nextId: string | null;
  onOpen: (id: string) => void;
}) {
  const queries = useQuestionQueries();
  const queryClient = useQueryClient();
  const { pollIntervalMs } = useRuntimeConfig();
  const { state: session } = useSession();
  const source = useQuestionSource();
  const plausible = isPlausibleId(source, id);
  const readOnly = readOnlyReason(id, plausible, copies, copy);
  const detail = useQuery({
    ...queries.detail(id),
    enabled: readOnly === null && session === 'active',
    placeholderData: () => findCachedQuestion(queryClient, id),
    refetchInterval: pollIntervalMs,
  });
  const gone = isApiError(detail.error) && detail.error.kind === 'not-found';

  useEffect(() => {
    if (gone) forgetQuestion(queryClient, id);
  }, [gone, id, queryClient]);

  // Its own read failed (the session ended, the server is down), and the question is not gone.
  const readFailed = readOnly === null && detail.isError && !gone;
  // A record the server cannot give back on its own is shown as the list has it, without actions.
  // A question whose first read failed stays as the list has it, as it does when a later read
  // fails (React Query keeps the last data then, but drops placeholder data): the reviewer may be
  // typing into it.
  const shown =
    readOnly === null
      ? (detail.data ?? (readFailed ? findCachedQuestion(queryClient, id) : undefined))
      : copies
        ? (copies[copy - 1] ?? copies[0])
        : (detail.data ?? findCachedQuestion(queryClient, id));
  // Said in so many words, unless the session ended (its own alert is above): the question may be
  // out of date, and is read again with every refresh.
  const stale = readFailed && !isSignedOut(detail.error);
  // Another reviewer answered, edited or closed it (the team's live stream says so): read it now,
  // before this reviewer sends into a conflict, not at the next poll.
  useActedOn(shown ? [shown] : [], () => {
    if (readOnly === null) void detail.refetch();
  });
  if (shown)
    return (
      <>
        {stale && (
          <Alert
            color="orange"
            variant="light"
            role="status"
            mb="md"
            title="Showing this question as last loaded"
          >
            {describeError(detail.error).title}. It may be out of date; it is read again with every
            refresh.
          </Alert>
        )}
        <QuestionDetail
          question={shown}
          gone={readOnly === null && gone}
          readOnly={readOnly}
          nextId={nextId}
          onOpen={onOpen}
        />
      </>
    );
  if (readOnly !== null) return <NotFound id={id} askable={plausible} />;
  if (gone) return <NotFound id={id} askable />;
  if (detail.isError)
    return (
      <LoadFailed
        what="This question"
        error={detail.error}
        onRetry={() => void detail.refetch()}
        retrying={detail.isFetching}
      />
    );
  return (
    <Stack gap="sm" aria-busy="true" aria-label="Loading the question">
      <Skeleton height={24} width="40%" />
      <Skeleton height={16} />
      <Skeleton height={16} width="80%" />
      <Skeleton height={96} mt="md" />
    </Stack>
  );
}

export interface QuestionDrawerProps {
  id: string | null;
  /** Every record with this id in the list, when there are several (a faulty server). */
  copies: Question[] | null;
  /** Which of them was clicked (1 for the first). */
  copy: number;
  nextId: string | null;
  onClose: () => void;
  onOpen: (id: string) => void;
  /**
   * Render it once unseen, to warm the drawer's code before the first question is opened (see
   * WarmUp); called when that is done.
   */
  onWarm?: () => void;
}

export function QuestionDrawer({ onWarm, ...props }: QuestionDrawerProps) {
  return onWarm ? (
    <WarmUp onDone={onWarm}>
      <DrawerView {...props} />
    </WarmUp>
  ) : (
    <DrawerView {...props} />
  );
}

function DrawerView({
  id,
  copies,
  copy,
  nextId,
  onClose,
  onOpen,
}: Omit<QuestionDrawerProps, 'onWarm'>) {
  // A wide screen: the question shows beside the list, which stays usable (not a modal).
  const split = useSplitView();
  // Keep the last question on screen while the drawer slides out.
  const [shownId, setShownId] = useState(id);
  if (id !== null && id !== shownId) setShownId(id);
  useCoveringLayer(id !== null && !split);
  useAboveApp(shownId !== null);

  const content = (
    <>
      <SessionEndedAlert />
      {shownId !== null && (
        // Anything in the question that fails to render is caught here at the latest, so the
        // drawer (and its close button) stays.
        <PartBoundary key={`${shownId}\u0000${copy}`} what="This question">
          <QuestionPanel id={shownId} copies={copies} copy={copy} nextId={nextId} onOpen={onOpen} />
        </PartBoundary>
      )}
    </>
  );
  if (split) return id === null ? null : <SplitPane onClose={onClose}>{content}</SplitPane>;
  return (
    <Drawer
      opened={id !== null}
      onClose={onClose}
      position="right"
      size="min(46rem, 100%)"
      title="Question"
      classNames={{ inner: classes.drawerInner, body: classes.drawerBody }}
      returnFocus={false}
      closeButtonProps={{ 'aria-label': 'Close question' }}
      transitionProps={{ duration: 150 }}
    >
      {content}
    </Drawer>
  );
}

/**
 * The open question beside the list (split view): a non-modal dialog. The list stays visible and
 * usable (not dimmed, not inert); Esc closes the question unless a text field or a dialog over the
 * page takes it first.
 */
function SplitPane({ onClose, children }: { onClose: () => void; children: ReactNode }) {
  const titleId = useId();
  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key !== 'Escape' || event.defaultPrevented || event.isComposing) return;
      const target = event.target instanceof Element ? event.target : null;
      // A dialog open over the page takes Esc even before its focus trap has moved the focus into
      // it (a frame after it opens): the question under it stays open.
      if (dialogOpen() || target?.closest('[aria-modal="true"]') || isTextField(target)) return;
      onClose();
    };
    window.addEventListener('keydown', onKeyDown);
    return () => window.removeEventListener('keydown', onKeyDown);
  }, [onClose]);
  return (
    <section
      role="dialog"
      aria-modal="false"
      aria-labelledby={titleId}
      className={classes.pane}
      data-split-pane
      tabIndex={-1}
    >
      <div className={classes.header}>
        <h2 id={titleId} className={classes.title}>
          Question
        </h2>
        <CloseButton
          aria-label="Close question"
          onClick={onClose}
          className="mantine-Drawer-close"
        />
      </div>
      <div className={classes.body}>{children}</div>
    </section>
  );
}
