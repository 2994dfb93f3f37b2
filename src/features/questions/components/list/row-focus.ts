import { type ReactElement, type Ref, use } from 'react';
import { ServerViewContext, useAfterHydration } from '@/lib/first-screen';
import type { Question } from '../../api/schemas';

// What the plain list (question-list.tsx) and the virtualized one (virtual-list.tsx, loaded when a
// list first reaches VIRTUALIZE_FROM rows) share: how rows are found, focused and brought into view.

/** The rows of the first render: as many as the window can show; virtua adds the rest it needs. */
export function firstRenderRows(rowHeight: number): number {
  return Math.max(4, Math.ceil(window.innerHeight / rowHeight));
}

/**
 * The window's height the server renders the first screen for (it cannot know the reviewer's):
 * a tall laptop's. The browser's first render (hydration) shows as many, then its own.
 */
const SERVER_WINDOW_HEIGHT = 1200;

/**
 * firstRenderRows, from the server's render through hydration to the browser's own. A page the
 * server rendered keeps the rows it came with where the window shows fewer: taking them away would
 * render the list again just as the app takes the page over, for rows no one sees the difference of.
 */
export function useFirstRenderRows(rowHeight: number): number {
  const served = use(ServerViewContext) !== null;
  const serverRows = Math.max(4, Math.ceil(SERVER_WINDOW_HEIGHT / rowHeight));
  const own = typeof window === 'undefined' ? 0 : firstRenderRows(rowHeight);
  return useAfterHydration(served ? Math.max(own, serverRows) : own, () => serverRows);
}

export interface QuestionListHandle {
  /** Focuses the row's link, scrolling it into view first; false if the row is not in the list. */
  focusRow(id: string): boolean;
  /** The row focused, or about to be (scrolled to, not rendered yet): where j/k step from. */
  cursor(): string | undefined;
  /**
   * Brings the row into view (split view: the list follows the open question). Focus moves along
   * only if it was on a row: keys pressed in the list keep working from the new row.
   */
  revealRow(id: string): void;
}

export type RenderRow = (question: Question, as: 'li' | 'div') => ReactElement;

export interface RowsProps {
  questions: Question[];
  renderRow: RenderRow;
  ref?: Ref<QuestionListHandle>;
}

export function rowLink(list: HTMLElement | null, id: string): HTMLElement | null {
  return (
    list?.querySelector<HTMLElement>(`[data-question-id="${CSS.escape(id)}"] [data-row-link]`) ??
    null
  );
}

export function focusedRowId(): string | undefined {
  return document.activeElement?.closest<HTMLElement>('[data-question-id]')?.dataset.questionId;
}

/** The whole row (its status and countdown too), below the sticky header (see question-row.module.css). */
export function scrollToRow(link: HTMLElement) {
  (link.closest('[data-question-id]') ?? link).scrollIntoView({ block: 'nearest' });
}

export function focusLink(link: HTMLElement) {
  link.focus({ preventScroll: true });
  scrollToRow(link);
}

/** Into view; focus moves along only if it was on a row (keys pressed there carry on from it). */
export function revealLink(link: HTMLElement) {
  if (focusedRowId() !== undefined) focusLink(link);
  else scrollToRow(link);
}

/** Focuses the row's link if it is in the page and can take focus (a hidden one cannot). */
export function tryFocus(id: string): HTMLElement | null {
  const link = rowLink(document.body, id);
  if (!link) return null;
  focusLink(link);
  return document.activeElement === link ? link : null;
}

/** A reviewer scrolling or clicking: a pending focus (VirtualList's focusRow) gives way to it. */
export const SCROLLS_AND_CLICKS = ['wheel', 'touchstart', 'pointerdown'];
/** And a key: following a focused row (useFollowFocusedRow) ends; a j or k starts a new one. */
export const REVIEWER_MOVES = [...SCROLLS_AND_CLICKS, 'keydown'];

/**
 * How long a row j/k moved to is waited for and then followed: counted in frames, not
 * milliseconds, as a loaded machine draws fewer and its list settles as slowly (five seconds at
 * 60 frames a second).
 */
export const SETTLE_FRAMES = 300;

export function onAny(types: string[], handler: () => void): () => void {
  for (const type of types)
    window.addEventListener(type, handler, { capture: true, passive: true });
  return () => {
    for (const type of types) window.removeEventListener(type, handler, true);
  };
}
