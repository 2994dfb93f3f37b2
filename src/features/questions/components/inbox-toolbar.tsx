import { CloseButton, Kbd, NativeSelect, TextInput } from '@mantine/core';
import { IconSearch } from '@tabler/icons-react';
import { memo, type Ref } from 'react';
import type { StatusCounts } from '../hooks/use-inbox-data';
import { type InboxFilters, MAX_QUERY_LENGTH, type SortOrder } from '../utils/filters';
import classes from './inbox-toolbar.module.css';
import { RefreshIndicator, type RefreshIndicatorProps } from './refresh-indicator';
import { StatusFilter } from './status-filter';

export interface InboxToolbarProps {
  filters: InboxFilters;
  setFilters: (patch: Partial<InboxFilters>, options?: { replace?: boolean }) => void;
  counts: StatusCounts;
  tags: string[];
  users: string[];
  searchRef: Ref<HTMLInputElement>;
  /** The search box's text; the list follows it as it is typed. */
  searchText: { text: string; change: (value: string) => void; clear: () => void };
  refresh: RefreshIndicatorProps;
}

/** Memoized: the page re-renders when its rows change, the toolbar only when its own data does. */
export const InboxToolbar = memo(function InboxToolbar({
  filters,
  setFilters,
  counts,
  tags,
  users,
  searchRef,
  searchText,
  refresh,
}: InboxToolbarProps) {
  const { text: query, change, clear: clearQuery } = searchText;
  // Native pickers: the phone's own picker on phones, type-ahead on desktops, and no popover code
  // in the first download. A value from the URL that no question has any more stays selectable.
  const options = (values: string[], current: string | null, any: string) => [
    { value: '', label: any },
    ...(current && !values.includes(current) ? [current, ...values] : values),
  ];

  return (
    <div className={classes.toolbar}>
      <div className={classes.statusRow}>
        <div className={classes.statusScroller}>
          <StatusFilter
            value={filters.status}
            counts={counts}
            onChange={(status) => setFilters({ status })}
          />
        </div>
        <RefreshIndicator {...refresh} />
      </div>
      <div className={classes.filters}>
        <TextInput
          ref={searchRef}
          className={classes.search}
          type="search"
          aria-label="Search"
          placeholder="Search text, tags, users, ids, answers"
          leftSection={<IconSearch size={16} aria-hidden />}
          rightSection={
            query ? (
              <CloseButton aria-label="Clear search" onClick={clearQuery} />
            ) : (
              <Kbd size="xs" aria-hidden>
                /
              </Kbd>
            )
          }
          maxLength={MAX_QUERY_LENGTH}
          value={query}
          onChange={(event) => change(event.currentTarget.value)}
          onKeyDown={(event) => {
            if (event.key === 'Escape' && query) {
              event.stopPropagation();
              clearQuery();
            }
          }}
        />
        <NativeSelect
          aria-label="Tag"
          data={options(tags, filters.tag, 'Any tag')}
          value={filters.tag ?? ''}
          onChange={(event) => setFilters({ tag: event.currentTarget.value || null })}
        />
        <NativeSelect
          aria-label="User"
          data={options(users, filters.user, 'Any user')}
          value={filters.user ?? ''}
          onChange={(event) => setFilters({ user: event.currentTarget.value || null })}
        />
        <NativeSelect
          aria-label="Sort"
          className={classes.sort}
          data={[
            { value: 'expiry', label: 'Expiring soonest' },
            { value: 'newest', label: 'Newest first' },
          ]}
          value={filters.sort}
          onChange={(event) => setFilters({ sort: event.currentTarget.value as SortOrder })}
        />
      </div>
    </div>
  );
});
