import {
  createContext,
  use,
  useCallback,
  useEffect,
  useImperativeHandle,
  useMemo,
  useRef,
} from 'react';
import {
  type CustomContainerComponentProps,
  type CustomItemComponentProps,
  WindowVirtualizer,
  type WindowVirtualizerHandle,
} from 'virtua';
import { useLatest } from '@/lib/use-latest';
import classes from './questions-page.module.css';
import {
  firstRenderRows,
  focusedRowId,
  onAny,
  REVIEWER_MOVES,
  type RowsProps,
  revealLink,
  rowLink,
  SCROLLS_AND_CLICKS,
  SETTLE_FRAMES,
  scrollToRow,
  tryFocus,
} from './row-focus';

// A long list's rows (VIRTUALIZE_FROM and more): only those on screen, and a few around them, are
// in the page. Its code (virtua's with it) loads when a list first gets that long, not with the
// first screen: most inboxes never do.

/**
 * Keeps the row j/k focused on screen while virtua settles (VirtualList pins it first). Rows that
 * come into the page as the list scrolls are measured a frame (on a loaded machine, seconds)
 * later; when they are taller than virtua's estimate, the rows below them move down, the focused
 * one out of the window, and a re-measure can even take it out of the page, focus falling to the
 * body (both seen in CI). An IntersectionObserver watches the focused row: when it leaves the
 * band rows are scrolled into (inside their scroll margins, question-row.module.css) it is
 * scrolled back; when it has left the page, `onLost` brings it back and focuses it again. The
 * follow ends when focus leaves the row, the reviewer scrolls, clicks or presses a key (a j or k
 * starts a new one), or after SETTLE_FRAMES: a scroll bar dragged later is not fought (not every
 * browser reports that drag as a pointer event).
 */
function useFollowFocusedRow(): (id: string, onLost: () => void) => void {
  const stop = useRef(() => {});
  useEffect(() => () => stop.current(), []);
  return useCallback((id: string, onLost: () => void) => {
    stop.current();
    const link = rowLink(document.body, id);
    // jsdom has no IntersectionObserver.
    if (!link || typeof IntersectionObserver === 'undefined') return;
    const observer = new IntersectionObserver(
      ([entry]) => {
        if (!link.isConnected) {
          end();
          if (document.activeElement === document.body) onLost();
        } else if (document.activeElement !== link) end();
        else if (entry && entry.intersectionRatio < 1) scrollToRow(link);
      },
      { threshold: 1, rootMargin: '-63px 0px -7px' },
    );
    const end = () => {
      observer.disconnect();
      cancelAnimationFrame(frame);
      unlisten();
    };
    const unlisten = onAny(REVIEWER_MOVES, end);
    let frames = 0;
    let frame = 0;
    const count = () => {
      if (++frames >= SETTLE_FRAMES) end();
      else frame = requestAnimationFrame(count);
    };
    frame = requestAnimationFrame(count);
    observer.observe(link.closest('[data-question-id]') ?? link);
    stop.current = end;
  }, []);
}

const SetSizeContext = createContext(0);

/** virtua's slot for each row: an `<li>` that tells screen readers where it is in the whole list. */
function RowSlot({ style, index, children, ref }: CustomItemComponentProps) {
  return (
    <li
      ref={ref}
      style={style}
      className={classes.slot}
      aria-posinset={index + 1}
      aria-setsize={use(SetSizeContext)}
    >
      {children}
    </li>
  );
}

/** The `<ul>` around virtualized rows (virtua positions rows inside it). */
function VirtualContainer({ style, children, ref }: CustomContainerComponentProps) {
  return (
    <ul ref={ref} style={style} className={classes.list} aria-label="Questions">
      {children}
    </ul>
  );
}

export function VirtualList({
  questions,
  renderRow,
  rowHeight,
  ref,
}: RowsProps & { rowHeight: number }) {
  const virtualizer = useRef<WindowVirtualizerHandle>(null);
  const ids = useMemo(() => questions.map((q) => q.id), [questions]);

  const pendingFocus = useRef<string | null>(null);
  const follow = useFollowFocusedRow();
  /**
   * Focuses the row's link, bringing it into the page and into view first. Not in the page (not
   * rendered yet, or taken out by a re-measure): virtua scrolls to it; in the page but hidden
   * until virtua has measured it: wait. Tried every frame for SETTLE_FRAMES, until the reviewer
   * scrolls or clicks, or a j or k moves on.
   */
  const focusRow = useCallback(
    (id: string): boolean => {
      const index = ids.indexOf(id);
      if (index === -1) return false;
      pendingFocus.current = id;
      const unlisten = onAny(SCROLLS_AND_CLICKS, () => {
        if (pendingFocus.current === id) pendingFocus.current = null;
      });
      let frames = 0;
      const attempt = () => {
        if (pendingFocus.current !== id) return unlisten();
        const link = tryFocus(id);
        if (link) {
          pendingFocus.current = null;
          unlisten();
          // virtua may still be scrolling to a row j passed on the way (it scrolls again after
          // every measurement until there are none for 150 ms: seconds on a loaded machine).
          // Scrolling to this row where it now is replaces that scroll, and keeps the row there
          // as the rows around it are measured.
          const top = (link.closest('[data-question-id]') ?? link).getBoundingClientRect().top;
          virtualizer.current?.scrollToIndex(index, { offset: -top });
          // Taken out of the page by a re-measure once focused: brought back the same way.
          follow(id, () => refocus.current(id));
          return;
        }
        if (frames % 20 === 0 && !rowLink(document.body, id))
          virtualizer.current?.scrollToIndex(index, { align: 'center' });
        if (++frames < SETTLE_FRAMES) requestAnimationFrame(attempt);
        else {
          pendingFocus.current = null;
          unlisten();
        }
      };
      attempt();
      return true;
    },
    [ids, follow],
  );
  const refocus = useLatest(focusRow);
  // A focused row scrolled far away leaves the page and focus falls back to the body; j/k then
  // carry on from that row instead of starting over at the top.
  const lastFocused = useRef<string | undefined>(undefined);
  useEffect(() => {
    const remember = () => {
      const id = focusedRowId();
      if (id) lastFocused.current = id;
    };
    document.addEventListener('focusin', remember);
    return () => document.removeEventListener('focusin', remember);
  }, []);
  useImperativeHandle(
    ref,
    () => ({
      focusRow,
      cursor: () =>
        pendingFocus.current ??
        focusedRowId() ??
        (document.activeElement === document.body ? lastFocused.current : undefined),
      revealRow(id) {
        const link = rowLink(document.body, id);
        if (link) revealLink(link);
        // Not in the page yet: to the middle of the window, clear of the sticky header (at the
        // top, where virtua puts it by default, the header covered it).
        else if (ids.includes(id))
          virtualizer.current?.scrollToIndex(ids.indexOf(id), { align: 'center' });
      },
    }),
    [ids, focusRow],
  );

  return (
    <SetSizeContext value={questions.length}>
      <WindowVirtualizer
        ref={virtualizer}
        data={questions}
        as={VirtualContainer}
        item={RowSlot}
        bufferSize={400}
        // About a row's height, and a screenful of rows in the very first render: virtua cannot
        // measure the window before it is mounted, and would otherwise render the rows twice.
        itemSize={rowHeight}
        ssrCount={firstRenderRows(rowHeight)}
      >
        {(question) => renderRow(question, 'div')}
      </WindowVirtualizer>
    </SetSizeContext>
  );
}
