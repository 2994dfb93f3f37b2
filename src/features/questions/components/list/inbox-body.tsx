import { Text } from '@mantine/core';
import { type Ref, Suspense } from 'react';
import { LoadBoundary, lazyPart } from '@/components/load-boundary';
import { LIST_LIMIT } from '../../api/queries';
import type { Question, QuestionList as QuestionListData } from '../../api/schemas';
import type { Density } from '../../hooks/use-density';
import type { InboxFilters } from '../../utils/filters';
import { ListEmpty, ListFailed, ListFilteredOut, ListLoading } from './list-states';
import { QuestionList, type QuestionListHandle } from './question-list';
import { unreadableTitle } from './unreadable-title';

// Only a server sending records the portal cannot read shows this: its code loads then.
const UnreadableRecords = lazyPart(
  () => import('./unreadable-records').then((module) => module.UnreadableRecords),
  'UnreadableRecords',
);

export interface InboxBodyProps {
  /** The view's list as loaded (undefined until it is). */
  list: QuestionListData | undefined;
  /** Its questions that pass the filters, as typed. */
  visible: Question[];
  /** The same, one per row: a look-alike group's first ask stands for the group. */
  rows: Question[];
  groups: ReadonlyMap<string, Question[]>;
  filters: InboxFilters;
  /** A filter besides the status is on (tag, user, source, search, Claimed). */
  narrowed: boolean;
  /** The view failed to load, with a way to try again. */
  failure: { error: unknown; retry: () => void; retrying: boolean } | null;
  onClearFilters: () => void;
  listRef: Ref<QuestionListHandle>;
  newIds: ReadonlySet<string>;
  draftIds: ReadonlySet<string>;
  openId: string | undefined;
  /** Which of several records sharing the open id is open (1-based). */
  openCopy: number;
  search: string;
  density: Density;
}

/**
 * What the inbox shows under its toolbar: the list, or one of its four other states (loading,
 * failed, empty, filtered to nothing), never one for another. Data first: a failed background
 * refresh never blanks a list on screen.
 */
export function InboxBody({
  list,
  visible,
  rows,
  groups,
  filters,
  narrowed,
  failure,
  onClearFilters,
  listRef,
  newIds,
  draftIds,
  openId,
  openCopy,
  search,
  density,
}: InboxBodyProps) {
  if (list) {
    if (list.questions.length === 0 && list.unreadable.length === 0)
      return <ListEmpty status={filters.status} />;
    if (visible.length === 0 && list.unreadable.length === 0) {
      return narrowed ? (
        <ListFilteredOut onClear={onClearFilters} />
      ) : (
        <ListEmpty status={filters.status} />
      );
    }
    return (
      <>
        {list.unreadable.length > 0 && (
          <LoadBoundary what="The list of unreadable records" parts={[UnreadableRecords]}>
            {/* Said at once; which records and why follow with the part's code. */}
            <Suspense
              fallback={
                <Text size="sm" m="sm" role="note" data-testid="unreadable-records">
                  {unreadableTitle(list.unreadable.length)}
                </Text>
              }
            >
              <UnreadableRecords records={list.unreadable} />
            </Suspense>
          </LoadBoundary>
        )}
        {visible.length === 0 ? (
          <ListFilteredOut onClear={onClearFilters} />
        ) : (
          <QuestionList
            ref={listRef}
            questions={rows}
            groups={groups}
            newIds={newIds}
            draftIds={draftIds}
            openId={openId}
            openCopy={openCopy}
            search={search}
            density={density}
            viewStatus={filters.status === 'all' ? null : filters.status}
          />
        )}
        {list.truncated && (
          <Text size="sm" c="dimmed" p="md" ta="center" data-testid="list-truncated">
            The API returns at most {LIST_LIMIT} questions, newest first: older ones are not shown
            here. Choose a status to see more of that kind.
          </Text>
        )}
      </>
    );
  }
  if (failure)
    return <ListFailed error={failure.error} onRetry={failure.retry} retrying={failure.retrying} />;
  return <ListLoading />;
}
