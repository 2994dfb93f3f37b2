import { type RefObject, useCallback, useEffect, useMemo, useRef } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { QUESTIONS_PATH } from '@/config/routes';
import type { Question } from '../api/schemas';
import type { QuestionListHandle } from '../components/list/question-list';
import { questionPath, withGroup } from '../utils/paths';

/** Where the open question was in the list, for when it leaves it (answered). */
type Place = RefObject<{ id: string; index: number } | null>;

/**
 * Closing the drawer returns focus to the row it came from, or to its neighbour if that row left
 * the list (answered). After the commit, so the page behind the drawer is no longer inert. Returns
 * the open question's last place in the list.
 */
export function useDrawerReturnFocus(
  openId: string | undefined,
  visibleIds: string[],
  list: RefObject<QuestionListHandle | null>,
): Place {
  const lastOpen = useRef<{ id: string; index: number } | null>(null);
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
    if (!was || !target || list.current?.focusRow(target.id)) return;
    const neighbour = visibleIds[Math.min(target.index, visibleIds.length - 1)];
    if (neighbour) list.current?.focusRow(neighbour);
  }, [openId, visibleIds, list]);
  return lastOpen;
}

/** Opening, closing and stepping between questions in the drawer, keeping the list's view. */
export function useDrawerNavigation(
  openId: string | undefined,
  visibleIds: string[],
  lastOpen: Place,
  search: string,
  /** Look-alike groups by their first ask's id: stepping to one opens the whole group. */
  groups: ReadonlyMap<string, unknown>,
) {
  const navigate = useNavigate();
  const location = useLocation();

  // Going back is asynchronous: a second Esc before it lands would go back again, out of the
  // inbox (to the page before it, or the portal around it). One close until the address changes.
  const closing = useRef(false);
  // biome-ignore lint/correctness/useExhaustiveDependencies: a new address (key) is what ends it.
  useEffect(() => {
    closing.current = false;
  }, [location.key]);
  const close = useCallback(() => {
    if (closing.current) return;
    closing.current = true;
    const fromList = (location.state as { fromList?: boolean } | null)?.fromList;
    if (fromList && window.history.length > 1) navigate(-1);
    else navigate({ pathname: QUESTIONS_PATH, search }, { replace: true });
  }, [location.state, navigate, search]);

  /** From one open question (or group) to the next row's: same view, same history entry. */
  const switchTo = (id: string) =>
    navigate(
      { pathname: questionPath(id), search: groups.has(id) ? withGroup(search) : search },
      { replace: true, state: location.state },
    );

  /** The question before or after the open one; if it just left the view (answered), its old place. */
  const neighbourOfOpen = (delta: 1 | -1): string | null => {
    if (!openId || visibleIds.length === 0) return null;
    const clamp = (index: number) => Math.min(visibleIds.length - 1, Math.max(0, index));
    const index = visibleIds.indexOf(openId);
    if (index !== -1) {
      const next = visibleIds[clamp(index + delta)];
      return next && next !== openId ? next : null;
    }
    const place = lastOpen.current?.id === openId ? lastOpen.current.index : 0;
    return visibleIds[clamp(delta === 1 ? place : place - 1)] ?? null;
  };

  return { close, switchTo, neighbourOfOpen };
}

/**
 * Several records with the open id in this list (a faulty server): the drawer shows the one whose
 * row was clicked, whose place among them (1-based) travels in the history state. `copies` is null
 * when the id is unique.
 */
export function useOpenCopies(
  openId: string | undefined,
  visible: Question[],
): { copies: Question[] | null; copy: number } {
  const location = useLocation();
  const copies = useMemo(
    () => (openId === undefined ? [] : visible.filter((q) => q.id === openId)),
    [visible, openId],
  );
  const copy = (location.state as { copy?: number } | null)?.copy ?? 1;
  return { copies: copies.length > 1 ? copies : null, copy };
}
