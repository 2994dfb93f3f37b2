import { useCallback, useMemo, useState } from 'react';
import { useSearchParams } from 'react-router';
import { useDebouncedCallback } from '@/lib/timers';
import { useLatest } from '@/lib/use-latest';
import {
  defaultSort,
  filtersToParams,
  type InboxFilters,
  MAX_QUERY_LENGTH,
  parseFilters,
} from '../utils/filters';
import { isGroupOpen, withoutGroup } from '../utils/paths';

/** The list's filters live in the URL: shareable, and Back/Forward step through them. */
export function useInboxFilters() {
  const [params, setParams] = useSearchParams();
  const filters = useMemo(() => parseFilters(params), [params]);
  // React Router's setter is a new function whenever the path changes (opening a question), which
  // re-rendered the memoized toolbar on every open; the page gets one stable function that calls
  // the latest setter (updated as the page commits, before any event can call it).
  const latestSetParams = useLatest(setParams);
  const setFilters = useCallback(
    (patch: Partial<InboxFilters>, options: { replace?: boolean } = {}) => {
      latestSetParams.current(
        (current) => {
          const base = parseFilters(current);
          const next = { ...base, ...patch };
          // A new status brings its own default sort unless one was asked for.
          if (
            patch.status !== undefined &&
            patch.sort === undefined &&
            base.sort === defaultSort(base.status)
          ) {
            next.sort = defaultSort(next.status);
          }
          return filtersToParams(next);
        },
        { replace: options.replace ?? false },
      );
    },
    [],
  );
  // The group marker belongs to the open question, not to the view: steps and closing drop it.
  return { filters, setFilters, search: withoutGroup(params), groupOpen: isGroupOpen(params) };
}

/**
 * The search box's text. The list filters on it at once (keystroke to filtered list in one frame);
 * the URL follows 200 ms after typing stops, replacing its entry, so Back steps over a search as a
 * whole and browsers' limits on history updates are never hit. Only a change that did not come
 * from the box (Back, a link, "Clear filters") replaces what was typed.
 */
export function useSearchText(
  urlQuery: string,
  setFilters: (patch: Partial<InboxFilters>, options?: { replace?: boolean }) => void,
) {
  const [text, setText] = useState(urlQuery);
  const [inFlight, setInFlight] = useState<string[]>([]);
  const [syncedQuery, setSyncedQuery] = useState(urlQuery);
  if (urlQuery !== syncedQuery) {
    setSyncedQuery(urlQuery);
    const index = inFlight.indexOf(urlQuery);
    if (index === -1) setText(urlQuery);
    else setInFlight(inFlight.slice(index + 1));
  }
  const send = (value: string) => {
    const q = normalizeQuery(value);
    if (q === urlQuery) return;
    setInFlight((list) => [...list, q]);
    setFilters({ q }, { replace: true });
  };
  const sendLater = useDebouncedCallback(send, 200);
  // Stable functions reading the latest closures, so the box's object only changes with its text.
  const latest = useLatest({ send, sendLater });
  const change = useCallback((value: string) => {
    setText(value);
    latest.current.sendLater(value);
  }, []);
  const clear = useCallback(() => {
    latest.current.sendLater.cancel();
    setText('');
    latest.current.send('');
  }, []);
  return useMemo(
    () => ({
      text,
      /** The query the list is filtered on now. */
      query: normalizeQuery(text),
      change,
      clear,
    }),
    [text, change, clear],
  );
}

function normalizeQuery(value: string): string {
  return value.trim().slice(0, MAX_QUERY_LENGTH);
}
