import { useMediaQuery } from '@mantine/hooks';

/** From this width on, an open question shows beside the list instead of over it. */
export const SPLIT_VIEW_QUERY = '(min-width: 80em)'; // 1280 px

/** True on wide screens: the list stays usable beside the open question (see QuestionDrawer). */
export function useSplitView(): boolean {
  return useMediaQuery(SPLIT_VIEW_QUERY, false, { getInitialValueInEffect: false }) ?? false;
}
