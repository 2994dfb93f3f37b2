import {
  memo,
  type Ref,
  type RefObject,
  useCallback,
  useDeferredValue,
  useEffect,
  useImperativeHandle,
  useLayoutEffect,
  useMemo,
  useRef,
  useState,
} from 'react';
import { useHref, useLocation, useNavigate } from 'react-router';
import { QUESTIONS_PATH } from '@/config/routes';
import { useTakenOver } from '@/lib/first-screen';
import { markOnce } from '@/lib/perf-marks';
import { useLatest } from '@/lib/use-latest';
import type { Question, QuestionStatus } from '../../api/schemas';
import type { Density } from '../../hooks/use-density';
import { useSelectionContext } from '../../hooks/use-selection';
import { useSourceOptions } from '../../hooks/use-source-options';
import { questionHref, questionPath, withGroup } from '../../utils/paths';
import type { RowGroup } from './lookalike-members';
import { QuestionRow } from './question-row';
import classes from './questions-page.module.css';
import {
  focusedRowId,
  focusLink,
  onAny,
  type QuestionListHandle,
  REVIEWER_MOVES,
  type RenderRow,
  type RowsProps,
  revealLink,
  rowLink,
  SETTLE_FRAMES,
  useFirstRenderRows,
} from './row-focus';

export type { QuestionListHandle } from './row-focus';

type VirtualListModule = typeof import('./virtual-list');
let virtualList: Promise<VirtualListModule> | null = null;
let loadedVirtualList: VirtualListModule | null = null;
/** virtua and the virtualized list's code, downloaded once, when a list first gets long. */
function loadVirtualList(): Promise<VirtualListModule> {
  virtualList ??= import('./virtual-list').then(
    (module) => {
      loadedVirtualList = module;
      return module;
    },
    (error: unknown) => {
      virtualList = null;
      throw error;
    },
  );
  return virtualList;
}

/** From this many rows on, only the rows on screen (and a few around them) are in the page. */
export const VIRTUALIZE_FROM = 100;
/** Rows are about this tall; virtua measures the real heights once they are in the page. */
const ROW_HEIGHT_ESTIMATE = { comfortable: 100, compact: 33 } as const;

export interface QuestionListProps {
  /** One per row: a look-alike group's first ask stands for it (see groupLookalikes). */
  questions: Question[];
  /** Look-alike groups' members by their first ask's id. */
  groups?: ReadonlyMap<string, Question[]>;
  newIds: ReadonlySet<string>;
  draftIds: ReadonlySet<string>;
  openId: string | undefined;
  /** Which of several records with the open id is open (1 for the first). */
  openCopy: number;
  search: string;
  density?: Density;
  /** The one status the view shows, if it shows one only (rows then leave their status out). */
  viewStatus?: QuestionStatus | null;
  ref?: Ref<QuestionListHandle>;
}

/**
 * For a list with duplicate ids only: each record's place among those with its id (1, 2, …).
 * Row links are by id, so the row's number goes with the click, and the drawer opens that record.
 */
function copyNumbers(questions: Question[]): Map<Question, number> | null {
  const seen = new Map<string, number>();
  let copies: Map<Question, number> | null = null;
  for (const question of questions) {
    const copy = (seen.get(question.id) ?? 0) + 1;
    seen.set(question.id, copy);
    if (copy > 1) {
      copies ??= new Map();
      copies.set(question, copy);
    }
  }
  return copies;
}

const NO_IDS: ReadonlySet<string> = new Set();
const NOTHING_YET: Question[] = [];

/** How long (in frames: a loaded machine draws fewer) the row under the pointer is held. */
const HOLD_FRAMES = 120;

/**
 * The row under the mouse stays where it is when rows go in above it (a system answering after
 * the others, a poll): the page scrolls by as much as they pushed it, so a click aimed at it
 * still lands on it. Its place is read as the new rows render (the commit moves it) and made good
 * before the browser paints, and again at each change of the page's height in the frames after
 * (the rows below the first screen render a moment later; the line saying a system is loading
 * goes). The hold ends when the reviewer scrolls, clicks or presses a key.
 */
function useHoldRowUnderPointer(frame: RefObject<HTMLDivElement | null>, questions: Question[]) {
  const hovered = useRef<HTMLElement | null>(null);
  useEffect(() => {
    const node = frame.current;
    if (!node) return;
    const over = (event: PointerEvent) => {
      // A finger is not left resting on a row.
      if (event.pointerType === 'touch' || !(event.target instanceof Element)) return;
      hovered.current = event.target.closest<HTMLElement>('[data-question-id]');
    };
    const leave = () => {
      hovered.current = null;
    };
    node.addEventListener('pointerover', over, { passive: true });
    node.addEventListener('pointerleave', leave, { passive: true });
    return () => {
      node.removeEventListener('pointerover', over);
      node.removeEventListener('pointerleave', leave);
    };
  }, [frame]);
  const rendered = useRef(questions);
  const place = useRef<{ row: HTMLElement; top: number } | null>(null);
  if (rendered.current !== questions) {
    rendered.current = questions;
    const row = hovered.current;
    place.current = row?.isConnected ? { row, top: row.getBoundingClientRect().top } : null;
  }
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs once the new rows are in.
  useLayoutEffect(() => {
    const held = place.current;
    place.current = null;
    if (!held) return;
    const keep = () => {
      if (!held.row.isConnected) return;
      const moved = held.row.getBoundingClientRect().top - held.top;
      if (Math.abs(moved) >= 1) window.scrollBy(0, moved);
    };
    keep();
    // jsdom has no layout to keep.
    if (typeof ResizeObserver === 'undefined' || typeof requestAnimationFrame === 'undefined')
      return;
    const observer = new ResizeObserver(keep);
    observer.observe(document.body);
    let frames = 0;
    let frameId = 0;
    const count = () => {
      if (++frames >= HOLD_FRAMES) stop();
      else frameId = requestAnimationFrame(count);
    };
    frameId = requestAnimationFrame(count);
    const unlisten = onAny(REVIEWER_MOVES, () => stop());
    function stop() {
      observer.disconnect();
      cancelAnimationFrame(frameId);
      unlisten();
    }
    return stop;
  }, [questions]);
}

/**
 * The inbox's rows. Long lists are virtualized; short ones are rendered whole (find-in-page works).
 * Memoized: the page re-renders on every query state change; the rows only when their data does.
 */
const NO_GROUPS: ReadonlyMap<string, Question[]> = new Map();

export const QuestionList = memo(function QuestionList({
  questions,
  groups = NO_GROUPS,
  newIds,
  draftIds,
  openId,
  openCopy,
  search,
  density = 'comfortable',
  viewStatus = null,
  ref,
}: QuestionListProps) {
  // For the benchmark: the rows' first render starts here and ends when the first row is in the
  // page (the same commit, unless the list renders none yet). No-ops afterwards.
  if (questions.length > 0) markOnce('qi:list-render-start');
  const frame = useRowLinkClicks(search, openId);
  useHoldRowUnderPointer(frame, questions);
  useLayoutEffect(() => {
    if (frame.current?.querySelector('[data-question-id]')) markOnce('qi:list-rendered');
  });
  const listHref = useHref(QUESTIONS_PATH);
  const copies = useMemo(() => copyNumbers(questions), [questions]);
  const showSource = useSourceOptions().length > 1;
  const selection = useSelectionContext();
  const [expanded, setExpanded] = useState<ReadonlySet<string>>(() => new Set());
  const toggleExpanded = useMemo(
    () => (id: string) =>
      setExpanded((current) => {
        const next = new Set(current);
        if (!next.delete(id)) next.add(id);
        return next;
      }),
    [],
  );
  const rowGroup = (question: Question): RowGroup | undefined => {
    const members = groups.get(question.id);
    if (!members) return undefined;
    const ids = selection?.ids;
    return {
      members,
      expanded: expanded.has(question.id),
      onExpand: toggleExpanded,
      selectedCount: ids ? members.filter((m) => ids.has(m.id)).length : 0,
      selectedIds: ids ?? NO_IDS,
      onToggle: selection?.setSome,
      memberHref: (id) => questionHref(listHref, id, search),
    };
  };
  const renderRow: RenderRow = (question, as) => {
    const copy = copies?.get(question) ?? 1;
    const group = rowGroup(question);
    return (
      <QuestionRow
        // Two records with one id (a faulty server) are two rows: a key each.
        key={copy === 1 ? question.id : `${question.id}\u0000${copy}`}
        as={as}
        question={question}
        copy={copy}
        isNew={newIds.has(question.id)}
        hasDraft={draftIds.has(question.id)}
        isOpen={question.id === openId && copy === openCopy}
        href={questionHref(listHref, question.id, group ? withGroup(search) : search)}
        group={group}
        showSource={showSource}
        selected={selection?.ids.has(question.id)}
        onToggle={selection?.toggle}
        compact={density === 'compact'}
        viewStatus={viewStatus}
      />
    );
  };
  return (
    <div
      ref={frame}
      className={classes.frame}
      data-statuses={viewStatus === null || undefined}
      data-sources={showSource || undefined}
    >
      {questions.length >= VIRTUALIZE_FROM ? (
        <LongList
          questions={questions}
          renderRow={renderRow}
          ref={ref}
          compact={density === 'compact'}
        />
      ) : (
        <PlainList
          questions={questions}
          renderRow={renderRow}
          ref={ref}
          compact={density === 'compact'}
        />
      )}
    </div>
  );
});

/**
 * Row links are plain `<a href>`s (open in a new tab, copy link); one listener on the list opens a
 * clicked question's drawer in the app instead, as a router `<Link>` would, without a Link and its
 * hooks in every row. Clicks with a modifier key or another button are left to the browser.
 */
function useRowLinkClicks(search: string, openId: string | undefined) {
  const frame = useRef<HTMLDivElement>(null);
  const navigate = useNavigate();
  const location = useLocation();
  const latest = useLatest({ navigate, search, openId, state: location.state });
  useEffect(() => {
    const node = frame.current;
    if (!node) return;
    const onClick = (event: MouseEvent) => {
      const plain =
        event.button === 0 && !event.metaKey && !event.altKey && !event.ctrlKey && !event.shiftKey;
      if (!plain || event.defaultPrevented || !(event.target instanceof Element)) return;
      const link = event.target.closest('a[data-row-link], a[data-member-link]');
      const member = link?.closest<HTMLElement>('[data-member-id]');
      const row = link?.closest<HTMLElement>('[data-question-id]');
      const id = member ? member.dataset.memberId : row?.dataset.questionId;
      if (!link || id === undefined) return;
      event.preventDefault();
      const { openId, state, search } = latest.current;
      // A group row opens the group: its first ask's address with the group marker.
      const group = !member && row?.dataset.group !== undefined;
      // The open question's own row (Enter on it, in split view): on into the question.
      if (id === openId && !group) {
        document.querySelector<HTMLElement>('[data-split-pane] [data-drawer-home]')?.focus();
        return;
      }
      const copy = member ? 1 : Number(row?.dataset.copy ?? 1);
      // Split view: a row clicked beside an open question replaces it, as j/k do, so closing it
      // goes back to the list, not to the question before.
      const fromList = openId === undefined || (state as { fromList?: boolean } | null)?.fromList;
      const next = fromList ? { fromList: true } : {};
      latest.current.navigate(
        { pathname: questionPath(id), search: group ? withGroup(search) : search },
        {
          replace: openId !== undefined,
          state: copy > 1 ? { ...next, copy } : next,
        },
      );
    };
    node.addEventListener('click', onClick);
    return () => node.removeEventListener('click', onClick);
  }, []);
  return frame;
}

/**
 * The rows a render of a short list shows at once: those that can be on screen, and those already
 * in the page (kept as they are, so a refreshed list does not rebuild them). The rest, off screen,
 * follow in a deferred render, after the first paint (a keystroke's result shows that much sooner).
 */
function useShownRows(questions: Question[], first: number): Question[] {
  const settled = useDeferredValue(questions, NOTHING_YET);
  const settledIds = useMemo(() => new Set(settled.map((q) => q.id)), [settled]);
  if (settled === questions || questions.length <= first) return questions;
  return questions.filter((question, index) => index < first || settledIds.has(question.id));
}

/**
 * A list of VIRTUALIZE_FROM rows or more: virtualized once its code is here. Until then (a first
 * long list, a moment) the rows the window can show; if the code cannot be downloaded (offline,
 * a new deployment replaced the files), every row, as a short list is shown.
 */
function LongList({ questions, renderRow, ref, compact }: RowsProps & { compact: boolean }) {
  const [loaded, setLoaded] = useState(loadedVirtualList);
  const [failed, setFailed] = useState(false);
  // On a page the server drew, asked for once it is taken over: not among the take-over's effects.
  const takenOver = useTakenOver();
  useEffect(() => {
    if (loaded || !takenOver) return;
    let live = true;
    const load = () =>
      loadVirtualList().then(
        (module) => live && setLoaded(module),
        () => live && setFailed(true),
      );
    void load();
    window.addEventListener('online', load);
    return () => {
      live = false;
      window.removeEventListener('online', load);
    };
  }, [loaded, takenOver]);
  const rowHeight = ROW_HEIGHT_ESTIMATE[compact ? 'compact' : 'comfortable'];
  const firstRows = useFirstRenderRows(rowHeight);
  // The list shown now (the first rows, then the virtualized list), and a row to bring into view
  // that the first rows do not hold: the open question of a link, followed with j before the
  // virtualized list's code was here (the server's first screen holds only the first rows).
  const shownList = useRef<QuestionListHandle>(null);
  const toReveal = useRef<string | null>(null);
  useImperativeHandle(
    ref,
    () => ({
      focusRow: (id) => shownList.current?.focusRow(id) ?? false,
      cursor: () => shownList.current?.cursor(),
      revealRow(id) {
        toReveal.current = loaded ? null : id;
        shownList.current?.revealRow(id);
      },
    }),
    [loaded],
  );
  useEffect(() => {
    const id = toReveal.current;
    if (!loaded || id === null) return;
    toReveal.current = null;
    shownList.current?.revealRow(id);
  }, [loaded]);
  if (loaded) {
    const { VirtualList } = loaded;
    return (
      <VirtualList
        questions={questions}
        renderRow={renderRow}
        rowHeight={rowHeight}
        ref={shownList}
      />
    );
  }
  const first = failed ? questions : questions.slice(0, firstRows);
  return (
    <PlainList
      questions={first}
      renderRow={renderRow}
      ref={shownList}
      compact={compact}
      busy={!failed}
    />
  );
}

function PlainList({
  questions,
  renderRow,
  ref,
  compact,
  busy = false,
}: RowsProps & { compact: boolean; busy?: boolean }) {
  const listRef = useRef<HTMLUListElement>(null);
  const shown = useShownRows(
    questions,
    useFirstRenderRows(ROW_HEIGHT_ESTIMATE[compact ? 'compact' : 'comfortable']),
  );
  const latest = useLatest(questions);
  const whenRendered = useWhenRowRendered(listRef);
  useImperativeHandle(ref, () => {
    const listed = (id: string) => latest.current.some((q) => q.id === id);
    return {
      focusRow(id) {
        if (!listed(id)) return false;
        whenRendered(id, focusLink);
        return true;
      },
      cursor: focusedRowId,
      revealRow(id) {
        if (listed(id)) whenRendered(id, revealLink);
      },
    };
  }, [whenRendered]);
  return (
    <ul
      ref={listRef}
      className={`${classes.list} ${classes.plain}`}
      data-compact={compact || undefined}
      aria-label="Questions"
      // Rows off screen still to come (a moment): assistive technology and tests wait for them.
      aria-busy={busy || shown.length < questions.length || undefined}
    >
      {shown.map((question) => renderRow(question, 'li'))}
    </ul>
  );
}

/**
 * Runs `act` on the row's link now, or once a deferred render has put it in the page (an
 * off-screen row of a list that has just changed). A later call replaces a waiting one.
 */
function useWhenRowRendered(
  listRef: RefObject<HTMLElement | null>,
): (id: string, act: (link: HTMLElement) => void) => void {
  const frame = useRef(0);
  useEffect(() => () => cancelAnimationFrame(frame.current), []);
  return useCallback(
    (id, act) => {
      cancelAnimationFrame(frame.current);
      let frames = 0;
      const attempt = () => {
        const link = rowLink(listRef.current, id);
        if (link) act(link);
        else if (++frames < SETTLE_FRAMES) frame.current = requestAnimationFrame(attempt);
      };
      attempt();
    },
    [listRef],
  );
}
