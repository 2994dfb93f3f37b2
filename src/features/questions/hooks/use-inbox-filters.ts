import { useCallback, useMemo } from 'react';
import { useSearchParams } from 'react-router';
import { defaultSort, filtersToParams, type InboxFilters, parseFilters } from '../utils/filters';

/** The list's filters live in the URL: shareable, and Back/Forward step through them. */
export function useInboxFilters() {
  const [params, setParams] = useSearchParams();
  const filters = useMemo(() => parseFilters(params), [params]);
  const setFilters = useCallback(
    (patch: Partial<InboxFilters>, options: { replace?: boolean } = {}) => {
      setParams(
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
    [setParams],
  );
  return { filters, setFilters, search: params.toString() };
}
