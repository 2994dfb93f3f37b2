import { type RefObject, useLayoutEffect, useRef } from 'react';

/**
 * A ref that holds `value` as of the last commit: for stable callbacks and listeners that must
 * read the latest props without being recreated. Updated in a layout effect, so it is current
 * before any event or effect of that commit can read it (Mantine's useCallbackRef updates a task
 * later, in a passive effect).
 */
export function useLatest<T>(value: T): RefObject<T> {
  const ref = useRef(value);
  useLayoutEffect(() => {
    ref.current = value;
  });
  return ref;
}
