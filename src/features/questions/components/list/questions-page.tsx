import { Paper, Title } from '@mantine/core';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useLocation } from 'react-router';
import { LoadBoundary, lazyPart } from '@/components/load-boundary';
import { type PickerSpec, useShell } from '@/config/shell-context';
import { whenReviewerActs } from '@/lib/idle';
import { createSlot } from '@/lib/value-slot';
import { useDensity } from '../../hooks/use-density';
import { useDraftIds } from '../../hooks/use-drafts';
import { DrawerFlowContext, useAnswerAndNext } from '../../hooks/use-drawer-flow';
import { useInboxFilters, useSearchText } from '../../hooks/use-inbox-filters';
import { useInboxKeyboard } from '../../hooks/use-inbox-keyboard';
import {
  useDeferredToolbarData,
  useRefreshAll,
  useRefreshFailure,
  useWantedOnce,
} from '../../hooks/use-inbox-toolbar';
import { useInboxView } from '../../hooks/use-inbox-view';
import { LookalikesContext, useLookalikes } from '../../hooks/use-lookalikes';
import { useNewArrivals } from '../../hooks/use-new-arrivals';
import {
  useDrawerNavigation,
  useDrawerReturnFocus,
  useOpenCopies,
} from '../../hooks/use-open-question';
import { SelectionContext, useSelection } from '../../hooks/use-selection';
import { questionIdFromPath } from '../../utils/paths';
import { BulkBar } from './bulk-bar';
import { InboxBody } from './inbox-body';
import { NewArrivalsBanner, RefreshFailedNote } from './inbox-notices';
import { InboxToolbar } from './inbox-toolbar';
import type { QuestionListHandle } from './question-list';
import classes from './questions-page.module.css';
import { ShortcutsHint } from './shortcuts-hint';

// The drawer (with the answer forms) and the shortcuts dialog are not needed to show the list: they
// load in their own chunks, the drawer's at the reviewer's first input once the list is on screen.
// What counts the pending questions in the tab's title and tells a reviewer who is away (PageParts)
// loads in a small chunk of its own once the browser is idle.
const QuestionDrawer = lazyPart(
  () => import('../drawer/question-drawer').then((m) => m.QuestionDrawer),
  'QuestionDrawer',
);
const ShortcutsHelp = lazyPart(() =>
  import('../drawer/shortcuts-help').then((m) => m.ShortcutsHelp),
);
const PageParts = lazyPart(() => import('./page-parts').then((m) => m.PageParts), 'PageParts');
// Only when a source is loading late or failing: a one-system inbox that answers never needs it.
// Answers chosen on a notification, sent by this tab (after the first screen, as the parts above).
const NotificationAnswers = lazyPart(() =>
  import('./notification-answers').then((m) => m.NotificationAnswers),
);
const SourceNotes = lazyPart(
  () => import('./source-notes').then((m) => m.SourceNotes),
  'SourceNotes',
);
const noop = () => {};
export function QuestionsPage() {
  const { filters, setFilters, search, groupOpen } = useInboxFilters();
  const searchText = useSearchText(filters.q, setFilters);
  const [partsLoaded, setPartsLoaded] = useState(false);
  const loadParts = useCallback(
    () => void PageParts.load().then(() => setPartsLoaded(true), noop),
    [],
  );
  // The drawer's code (0.16 MB of compiled code and objects once run, measured) loads at the
  // reviewer's first input once the list is on screen, or when a question is opened: a tab left
  // open and untouched never runs it. The pointer moving toward a row starts it well before the
  // click lands.
  const [drawerLoaded, setDrawerLoaded] = useState(false);
  useEffect(() => {
    if (!partsLoaded) return;
    return whenReviewerActs(
      () => void QuestionDrawer.load().then(() => setDrawerLoaded(true), noop),
    );
  }, [partsLoaded]);
  const Team = useShell().team?.Team;
  const { view, pending, counts, liveFilters, narrowed, visible, tags, users, setKeep } =
    useInboxView(filters, searchText.query, loadParts);
  const openId = questionIdFromPath(useLocation().pathname);
  const open = useOpenCopies(openId, visible);
  // Pending look-alikes are one row each; j/k, "answer and next" and focus go by rows.
  const lookalikes = useLookalikes(visible, view.data?.questions ?? visible);
  const visibleIds = lookalikes.rowIds;
  const draftIds = useDraftIds();
  const { newIds, markAllSeen } = useNewArrivals(pending.data, openId);

  const listRef = useRef<QuestionListHandle>(null);
  const searchRef = useRef<HTMLInputElement>(null);
  const lastOpen = useDrawerReturnFocus(openId, visibleIds, listRef);
  const drawer = useDrawerNavigation(openId, visibleIds, lastOpen, search, lookalikes.groups);
  const flow = useAnswerAndNext(
    openId,
    visibleIds,
    lastOpen,
    drawer.switchTo,
    // Loaded means every source has answered: a list painted from the sources in so far may not
    // hold the question just answered nor the one below it yet.
    view.data !== undefined && !view.data.loading?.length,
  );
  const selection = useSelection(visible);
  const { setSome } = selection.context;
  const inView = useMemo(
    () => ({ lookalikes, groupOpen, setSome }),
    [lookalikes, groupOpen, setSome],
  );
  const [helpOpen, setHelpOpen] = useState(false);
  const [density, setDensity] = useDensity();
  // The list follows the open question (j/k, answer and next): beside it on a wide screen (split
  // view), and ready for when the drawer closes on a narrow one.
  // Again once its row is in the list: a question opened by its link shows before the list has
  // loaded (and a long list is virtualized, so no row of it is in the page until then).
  const openListed = openId !== undefined && visibleIds.includes(openId);
  // Not the question the page was opened on (a link): the page opens at its top, the status tabs
  // (and the demo's banner) in view, the open row marked; the list follows from the first step on.
  const linked = useRef(openId);
  // biome-ignore lint/correctness/useExhaustiveDependencies: openListed is when, not what.
  useEffect(() => {
    if (openId !== linked.current) linked.current = undefined;
    if (openId && !linked.current) listRef.current?.revealRow(openId);
  }, [openId, openListed]);
  // Mounted from the first time they are wanted, so they can animate out when closed.
  const drawerUsed = useWantedOnce(openId !== undefined);
  // Once the reviewer heads for a question (points at the list, or moves the focus into it) and
  // the drawer's code is here, the drawer is rendered once unseen (WarmUp) with the first row's
  // question, so that the first question opened does not run the drawer's code for the first
  // time. Not before: its compiled code (about 0.3 MB) is kept for the page's life, and a page
  // only glanced at never needs it.
  const [heading, setHeading] = useState(false);
  const headForQuestion = useCallback(() => setHeading(true), []);
  const [drawerWarm, setDrawerWarm] = useState(false);
  const warmUpId =
    drawerLoaded && heading && !drawerUsed && !drawerWarm ? visibleIds[0] : undefined;
  const helpUsed = useWantedOnce(helpOpen);
  const refreshAll = useRefreshAll();
  useInboxKeyboard({
    openId,
    visibleIds,
    list: listRef,
    neighbourOfOpen: drawer.neighbourOfOpen,
    switchTo: drawer.switchTo,
    searchBox: searchRef,
    showHelp: () => setHelpOpen(true),
    refresh: refreshAll,
    // `x` on a group's row (or its open drawer) ticks all of its asks.
    toggleSelected: (id) => {
      const ids = lookalikes.groups.get(id)?.map((q) => q.id);
      if (ids) selection.context.setSome(ids, !ids.every(selection.has));
      else selection.toggle(id);
    },
  });

  const refreshError = useRefreshFailure(view);
  const refreshFailed = refreshError !== null;
  const toolbarData = useDeferredToolbarData(counts, tags, users, {
    updatedAt: view.dataUpdatedAt,
    fetching: view.isFetching,
    failed: refreshFailed,
    onRefresh: refreshAll,
  });
  // Stable while the rows are: the toolbar (memoized) is not rendered again when a question opens.
  const focusFirstRow = useCallback(() => {
    const first = visibleIds[0];
    if (first) listRef.current?.focusRow(first);
  }, [visibleIds]);
  // The Claimed filter: the team's part says what it is, the toolbar draws it with its pickers
  // (a slot the toolbar reads: the part saying so re-renders the toolbar, not the page and its
  // list, which held 0.05 MB more of the heap after load, measured).
  const [claimedSlot] = useState(() => createSlot<PickerSpec | null | undefined>(undefined));
  const clearFilters = () => {
    searchText.clear();
    setFilters({ q: '', tag: null, user: null, source: null });
  };

  return (
    <div className={classes.page} data-question-open={openId !== undefined || undefined}>
      {partsLoaded && <PageParts pending={pending.data?.questions} />}
      {partsLoaded && (
        <LoadBoundary what="Answering from notifications" parts={[NotificationAnswers]} quiet>
          <NotificationAnswers />
        </LoadBoundary>
      )}
      <Title order={2} className="visually-hidden">
        Questions
      </Title>
      <InboxToolbar
        filters={filters}
        setFilters={setFilters}
        searchRef={searchRef}
        searchText={searchText}
        onSearchDone={focusFirstRow}
        {...toolbarData}
        density={density}
        onDensityChange={setDensity}
        loadingSources={view.data?.loading?.map((loading) => loading.source.id).join(' ')}
        claimed={Team ? claimedSlot : undefined}
      />
      {Team && partsLoaded && (
        <LoadBoundary what="The Claimed filter" parts={[Team]} quiet>
          <Team onKeep={setKeep} onPicker={claimedSlot.set} />
        </LoadBoundary>
      )}
      {refreshFailed && <RefreshFailedNote error={refreshError} />}
      {(view.data?.failures?.length || view.data?.loading) && (
        <LoadBoundary what="The sources' state" parts={[SourceNotes]} quiet>
          <SourceNotes failures={view.data.failures} loading={view.data.loading} />
        </LoadBoundary>
      )}
      <NewArrivalsBanner count={newIds.size} onSeen={markAllSeen} />
      <BulkBar
        selection={selection}
        viewCount={visible.length}
        more={
          Team &&
          partsLoaded &&
          selection.selected.some((question) => question.status === 'pending') && (
            <LoadBoundary what="Claim" parts={[Team]} quiet>
              <Team selected={selection.selected} />
            </LoadBoundary>
          )
        }
      />
      <Paper withBorder radius="md" onPointerOver={headForQuestion} onFocus={headForQuestion}>
        <SelectionContext value={selection.context}>
          <InboxBody
            list={view.data}
            visible={visible}
            rows={lookalikes.rows}
            groups={lookalikes.groups}
            filters={liveFilters}
            narrowed={narrowed}
            failure={
              view.isError
                ? { error: view.error, retry: () => void view.refetch(), retrying: view.isFetching }
                : null
            }
            onClearFilters={clearFilters}
            listRef={listRef}
            newIds={newIds}
            draftIds={draftIds}
            openId={openId}
            openCopy={open.copy}
            search={search}
            density={density}
          />
        </SelectionContext>
      </Paper>
      <ShortcutsHint onShow={() => setHelpOpen(true)} />
      <LoadBoundary what="The question view" parts={[QuestionDrawer, ShortcutsHelp]}>
        {(drawerUsed || warmUpId !== undefined) && (
          <DrawerFlowContext value={flow}>
            <LookalikesContext value={inView}>
              {drawerUsed && (
                <QuestionDrawer
                  id={openId ?? null}
                  copies={open.copies}
                  copy={open.copy}
                  nextId={drawer.neighbourOfOpen(1)}
                  onClose={drawer.close}
                  onOpen={drawer.switchTo}
                />
              )}
              {warmUpId !== undefined && (
                <QuestionDrawer
                  id={warmUpId}
                  copies={null}
                  copy={1}
                  nextId={null}
                  onClose={noop}
                  onOpen={noop}
                  onWarm={() => setDrawerWarm(true)}
                />
              )}
            </LookalikesContext>
          </DrawerFlowContext>
        )}
        {helpUsed && <ShortcutsHelp opened={helpOpen} onClose={() => setHelpOpen(false)} />}
      </LoadBoundary>
    </div>
  );
}
