import { useMediaQuery } from '@mantine/hooks';
import { useAfterHydration } from '@/lib/first-screen';

/** From this width on, an open question shows beside the list instead of over it. */
export const SPLIT_VIEW_QUERY = '(min-width: 80em)'; // 1280 px

/** True on wide screens: the list stays usable beside the open question (see QuestionDrawer). */
export function useSplitView(): boolean {
  const wide = useMediaQuery(SPLIT_VIEW_QUERY, false, { getInitialValueInEffect: false }) ?? false;
  // The server's first screen, which knows no screen width, shows an open question beside the
  // list (split-pane.module.css lays it over the list on a narrow screen until the app takes over).
  return useAfterHydration(wide, () => true);
}
