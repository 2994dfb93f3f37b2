import { Alert, Button, Group, Paper, Text, Title } from '@mantine/core';
import { useDocumentTitle, useHotkeys } from '@mantine/hooks';
import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useDeferredValue, useEffect, useMemo, useRef, useState } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { LoadBoundary, lazyPart } from '@/components/load-boundary';
import { isSignedOut } from '@/lib/api-client';
import { useNow } from '@/lib/clock';
import { describeError } from '@/lib/describe-error';
import { markFirstScreenShown, whenIdle } from '@/lib/idle';
import { LIST_LIMIT, questionKeys } from '../../api/queries';
import type { Question } from '../../api/schemas';
import { useDraftIds } from '../../hooks/use-drafts';
import { useInboxData } from '../../hooks/use-inbox-data';
import { useInboxFilters, useSearchText } from '../../hooks/use-inbox-filters';
import { useNewArrivals } from '../../hooks/use-new-arrivals';
import { applyFilters, facetValues, hasNarrowingFilters } from '../../utils/filters';
import { questionIdFromPath, questionPath } from '../../utils/paths';
import { displayStatus } from '../../utils/question-policy';
import { InboxToolbar } from './inbox-toolbar';
import { ListEmpty, ListFailed, ListFilteredOut, ListLoading } from './list-states';
import { QuestionList, type QuestionListHandle } from './question-list';
import classes from './questions-page.module.css';
import { UnreadableRecords } from './unreadable-records';

// The drawer (with the answer forms) and the shortcuts dialog are not needed to show the list: they
// load in their own chunks, the drawer's as soon as the list is on screen so a click opens it at once.
const QuestionDrawer = lazyPart(() =>
  import('../drawer/question-drawer').then((m) => m.QuestionDrawer),
);
const ShortcutsHelp = lazyPart(() =>
  import('../drawer/shortcuts-help').then((m) => m.ShortcutsHelp),
);

const NO_QUESTIONS: Question[] = [];

function PendingTitle({ pending }: { pending: Question[] | undefined }) {
  const now = useNow();
  const open = pending?.filter((q) => displayStatus(q, now) === 'pending').length;
  useDocumentTitle(open ? `(${open}) Questions` : 'Questions');
  return null;
}

export function QuestionsPage() {
  const { filters, setFilters, search } = useInboxFilters();
  const searchText = useSearchText(filters.q, setFilters);
  // Set once the first rows are committed; the secondary lists wait for it.
  const [viewShown, setViewShown] = useState(false);
  const { view, pending, all, counts } = useInboxData(filters.status, viewShown);
  const navigate = useNavigate();
  const location = useLocation();
  const openId = questionIdFromPath(location.pathname);
  const draftIds = useDraftIds();
  const { newIds, markSeen, markAllSeen } = useNewArrivals(pending.data?.questions);
  const searchRef = useRef<HTMLInputElement>(null);
  const [helpOpen, setHelpOpen] = useState(false);
  // Mounted from the first time they are wanted, so they can animate out when closed.
  const [drawerUsed, setDrawerUsed] = useState(openId !== undefined);
  if (openId !== undefined && !drawerUsed) setDrawerUsed(true);
  const [helpUsed, setHelpUsed] = useState(false);
  if (helpOpen && !helpUsed) setHelpUsed(true);
  // A poll that changes nothing keeps the same data (structural sharing): the page re-renders for
  // its fetching state, but the memoized list and rows do not.
  const listData = view.data;
  const listRef = useRef<QuestionListHandle>(null);
  const focusRow = (id: string | undefined) => !!id && !!listRef.current?.focusRow(id);

  // The list follows the search box as it is typed; the URL catches up a moment later.
  const liveFilters = useMemo(
    () => ({ ...filters, q: searchText.query }),
    [filters, searchText.query],
  );
  const visible = useMemo(
    () => (listData ? applyFilters(listData.questions, liveFilters) : []),
    [listData, liveFilters],
  );
  const listShown = listData !== undefined;
  // After the first rows are on screen: the secondary lists, idle-time extras, the drawer's code.
  useEffect(() => {
    if (!listShown) return;
    markFirstScreenShown();
    setViewShown(true);
    return whenIdle(() => void QuestionDrawer.load().catch(() => {}));
  }, [listShown]);
  const facetSource = all.data?.questions ?? view.data?.questions ?? NO_QUESTIONS;
  const tags = useMemo(() => facetValues(facetSource, (q) => q.tags), [facetSource]);
  const users = useMemo(
    () => facetValues(facetSource, (q) => (q.userId ? [q.userId] : [])),
    [facetSource],
  );

  useEffect(() => {
    if (openId) markSeen(openId);
  }, [openId, markSeen]);

  // Closing the drawer returns focus to the row it came from, or to its neighbour if that row left
  // the list (answered). After the commit, so the page behind the drawer is no longer inert.
  const lastOpen = useRef<{ id: string; index: number } | null>(null);
  const visibleIds = useMemo(() => visible.map((q) => q.id), [visible]);
  const wasOpen = useRef(openId);
  useEffect(() => {
    const was = wasOpen.current;
    wasOpen.current = openId;
    if (openId) {
      const index = visibleIds.indexOf(openId);
      if (index !== -1) lastOpen.current = { id: openId, index };
      else if (lastOpen.current?.id !== openId) lastOpen.current = { id: openId, index: 0 };
      return;
    }
    const target = lastOpen.current;
    if (!was || !target || listRef.current?.focusRow(target.id)) return;
    const neighbour = visibleIds[Math.min(target.index, visibleIds.length - 1)];
    if (neighbour) listRef.current?.focusRow(neighbour);
  }, [openId, visibleIds]);
  const closeDrawer = useCallback(() => {
    const fromList = (location.state as { fromList?: boolean } | null)?.fromList;
    if (fromList && window.history.length > 1) navigate(-1);
    else navigate({ pathname: '/questions', search }, { replace: true });
  }, [location.state, navigate, search]);

  // Several records with the open id in this list (a faulty server): the drawer shows the one
  // whose row was clicked (its place among them travels in the history state).
  const openCopies = useMemo(
    () => (openId === undefined ? [] : visible.filter((q) => q.id === openId)),
    [visible, openId],
  );
  const openCopy = (location.state as { copy?: number } | null)?.copy ?? 1;

  const clampIndex = (index: number) => Math.min(visibleIds.length - 1, Math.max(0, index));

  /** The question before or after the open one; if it just left the view (answered), its old place. */
  const neighbourOfOpen = (delta: 1 | -1): string | null => {
    if (!openId || visibleIds.length === 0) return null;
    const index = visibleIds.indexOf(openId);
    if (index !== -1) {
      const next = visibleIds[clampIndex(index + delta)];
      return next && next !== openId ? next : null;
    }
    const place = lastOpen.current?.id === openId ? lastOpen.current.index : 0;
    return visibleIds[clampIndex(delta === 1 ? place : place - 1)] ?? null;
  };

  /** From one open question to another: same view, same history entry. */
  const switchTo = (id: string) =>
    navigate({ pathname: questionPath(id), search }, { replace: true, state: location.state });

  const step = (delta: 1 | -1) => {
    if (visibleIds.length === 0) return;
    if (openId) {
      const next = neighbourOfOpen(delta);
      if (next) switchTo(next);
      return;
    }
    const focused = listRef.current?.cursor();
    const index = focused ? visibleIds.indexOf(focused) : -1;
    focusRow(
      visibleIds[
        index === -1 ? (delta === 1 ? 0 : visibleIds.length - 1) : clampIndex(index + delta)
      ],
    );
  };

  useHotkeys([
    ['j', () => step(1)],
    ['k', () => step(-1)],
    [
      '/',
      (event) => {
        event.preventDefault();
        searchRef.current?.focus();
      },
    ],
    ['shift+?', () => setHelpOpen(true)],
    ['r', () => refreshAll()],
  ]);

  const clearFilters = () => {
    searchText.clear();
    setFilters({ q: '', tag: null, user: null });
  };

  const queryClient = useQueryClient();
  // Every list on screen and the open question, not just the view.
  const refreshAll = useCallback(
    () => void queryClient.refetchQueries({ queryKey: questionKeys.all, type: 'active' }),
    [queryClient],
  );

  // A signed-out session is explained by its own alert; this one is for everything else.
  const refreshFailed = view.isError && !!view.data && !isSignedOut(view.error);
  // Counts, pickers and "updated" follow the rows in a deferred render: when a list arrives, its
  // rows paint first and the toolbar a moment later, in short slices.
  const toolbarData = useDeferredValue(
    useMemo(
      () => ({
        counts,
        tags,
        users,
        refresh: {
          updatedAt: view.dataUpdatedAt,
          fetching: view.isFetching,
          failed: refreshFailed,
          onRefresh: refreshAll,
        },
      }),
      [counts, tags, users, view.dataUpdatedAt, view.isFetching, refreshFailed, refreshAll],
    ),
  );
  const body = (() => {
    if (listData) {
      if (listData.questions.length === 0 && listData.unreadable.length === 0)
        return <ListEmpty status={filters.status} />;
      if (visible.length === 0 && listData.unreadable.length === 0) {
        return hasNarrowingFilters(liveFilters) ? (
          <ListFilteredOut onClear={clearFilters} />
        ) : (
          <ListEmpty status={filters.status} />
        );
      }
      return (
        <>
          <UnreadableRecords records={listData.unreadable} />
          {visible.length === 0 ? (
            <ListFilteredOut onClear={clearFilters} />
          ) : (
            <QuestionList
              ref={listRef}
              questions={visible}
              newIds={newIds}
              draftIds={draftIds}
              openId={openId}
              openCopy={openCopy}
              search={search}
            />
          )}
          {listData.truncated && (
            <Text size="sm" c="dimmed" p="md" ta="center" data-testid="list-truncated">
              The API returns at most {LIST_LIMIT} questions, newest first: older ones are not shown
              here. Choose a status to see more of that kind.
            </Text>
          )}
        </>
      );
    }
    if (view.isError)
      return (
        <ListFailed
          error={view.error}
          onRetry={() => void view.refetch()}
          retrying={view.isFetching}
        />
      );
    return <ListLoading />;
  })();

  return (
    <div className={classes.page}>
      <PendingTitle pending={pending.data?.questions} />
      <Title order={2} className="visually-hidden">
        Questions
      </Title>
      <InboxToolbar
        filters={filters}
        setFilters={setFilters}
        searchRef={searchRef}
        searchText={searchText}
        {...toolbarData}
      />
      {refreshFailed && (
        <Alert color="orange" variant="light" role="status" title="Showing the last loaded list">
          {describeError(view.error).title}. The list below may be out of date; it refreshes again
          on its own.
        </Alert>
      )}
      {newIds.size > 0 && (
        <Paper withBorder p="xs" px="md" className={classes.banner} role="status">
          <Text size="sm">
            {newIds.size} new question{newIds.size === 1 ? '' : 's'} arrived.
          </Text>
          <Group gap="xs">
            <Button size="compact-sm" variant="subtle" onClick={markAllSeen}>
              Mark all seen
            </Button>
          </Group>
        </Paper>
      )}
      <Paper withBorder radius="md">
        {body}
      </Paper>
      <Text size="xs" c="dimmed" ta="center">
        Press <kbd>?</kbd> for keyboard shortcuts
      </Text>
      <LoadBoundary what="The question view" parts={[QuestionDrawer, ShortcutsHelp]}>
        {drawerUsed && (
          <QuestionDrawer
            id={openId ?? null}
            copies={openCopies.length > 1 ? openCopies : null}
            copy={openCopy}
            nextId={neighbourOfOpen(1)}
            onClose={closeDrawer}
            onOpen={switchTo}
          />
        )}
        {helpUsed && <ShortcutsHelp opened={helpOpen} onClose={() => setHelpOpen(false)} />}
      </LoadBoundary>
    </div>
  );
}
