import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { LISTS_EVENT, liveLists, useListsLive } from '@/config/live-lists';
import { useRuntimeConfig } from '@/config/runtime-config';
import { questionKeys } from '../api/queries';
import type { QuestionList } from '../api/schemas';
import { useQuestionSource } from '../api/source';

/**
 * Applies the portal server's changes to the cached lists as its live stream brings them (in the
 * order they came; the code that applies them loads with the first one). Returns whether every
 * configured source is watched by the server with the stream up: the lists then need no polling.
 */
export function useLiveChanges(): boolean {
  const queryClient = useQueryClient();
  const source = useQuestionSource();
  const { sources } = useRuntimeConfig();
  const live = useListsLive(sources.map((entry) => entry.id));

  useEffect(() => {
    let queue: Promise<void> = Promise.resolve();
    let stopped = false;
    const listener = (event: Event) => {
      const text = (event as CustomEvent<unknown>).detail;
      queue = queue
        .then(async () => {
          if (stopped) return;
          const { applyListsChange, readListsChange } = await import('../api/live-changes');
          const change = readListsChange(text);
          if (change && !stopped) await applyListsChange(queryClient, source, change);
        })
        .catch(() => {
          // A change that could not be applied: the lists are read again instead.
          void queryClient.invalidateQueries({ queryKey: questionKeys.lists() });
        });
    };
    document.addEventListener(LISTS_EVENT, listener);
    return () => {
      stopped = true;
      document.removeEventListener(LISTS_EVENT, listener);
    };
  }, [queryClient, source]);

  // The stream has just come up: a list read before it that is behind the server's copy missed
  // changes the stream will not bring again, and is read once more.
  useEffect(() => {
    const versions = live ? liveLists()?.versions : undefined;
    if (!versions) return;
    for (const [queryKey, list] of queryClient.getQueriesData<QuestionList>({
      queryKey: questionKeys.lists(),
    })) {
      const behind = Object.entries(versions).some(
        ([sourceId, version]) => (list?.versions?.[sourceId] ?? version) < version,
      );
      if (behind) void queryClient.invalidateQueries({ queryKey, exact: true });
    }
  }, [live, queryClient]);

  return live;
}
