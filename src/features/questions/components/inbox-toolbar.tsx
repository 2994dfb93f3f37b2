import { CloseButton, Kbd, SegmentedControl, Select, TextInput } from '@mantine/core';
import { useDebouncedCallback } from '@mantine/hooks';
import { IconSearch } from '@tabler/icons-react';
import { type Ref, useState } from 'react';
import type { StatusCounts } from '../hooks/use-inbox-data';
import {
  type InboxFilters,
  MAX_QUERY_LENGTH,
  type SortOrder,
  type StatusFilter,
  statusFilters,
} from '../utils/filters';
import { statusLabels } from '../utils/status';
import classes from './inbox-toolbar.module.css';
import { RefreshIndicator, type RefreshIndicatorProps } from './refresh-indicator';

const filterLabels: Record<StatusFilter, string> = { ...statusLabels, all: 'All' };

function countLabel(count: StatusCounts[StatusFilter]): string {
  if (!count) return '';
  return ` ${count.count}${count.atLeast ? '+' : ''}`;
}

export interface InboxToolbarProps {
  filters: InboxFilters;
  setFilters: (patch: Partial<InboxFilters>, options?: { replace?: boolean }) => void;
  counts: StatusCounts;
  tags: string[];
  users: string[];
  searchRef: Ref<HTMLInputElement>;
  refresh: RefreshIndicatorProps;
}

export function InboxToolbar({
  filters,
  setFilters,
  counts,
  tags,
  users,
  searchRef,
  refresh,
}: InboxToolbarProps) {
  // Typing updates the URL in place (no history entry per key); Back still steps over filter
  // changes. The box keeps what was typed: only a change that did not come from it (Back, a
  // link, "Clear filters") replaces its text, so a trailing space or a slow render loses nothing.
  const [query, setQuery] = useState(filters.q);
  const [inFlight, setInFlight] = useState<string[]>([]);
  const [syncedQuery, setSyncedQuery] = useState(filters.q);
  if (filters.q !== syncedQuery) {
    setSyncedQuery(filters.q);
    const index = inFlight.indexOf(filters.q);
    if (index === -1) setQuery(filters.q);
    else setInFlight(inFlight.slice(index + 1));
  }
  const sendQuery = (value: string) => {
    const q = value.trim().slice(0, MAX_QUERY_LENGTH);
    if (q === filters.q) return;
    setInFlight((list) => [...list, q]);
    setFilters({ q }, { replace: true });
  };
  const pushQuery = useDebouncedCallback(sendQuery, 200);
  const clearQuery = () => {
    pushQuery.cancel();
    setQuery('');
    sendQuery('');
  };

  const withCurrent = (values: string[], current: string | null) =>
    current && !values.includes(current) ? [current, ...values] : values;

  return (
    <div className={classes.toolbar}>
      <div className={classes.statusRow}>
        <div className={classes.statusScroller}>
          <SegmentedControl
            aria-label="Status"
            value={filters.status}
            onChange={(value) => setFilters({ status: value as StatusFilter })}
            data={statusFilters.map((status) => ({
              value: status,
              label: `${filterLabels[status]}${countLabel(counts[status])}`,
            }))}
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
          onChange={(event) => {
            setQuery(event.currentTarget.value);
            pushQuery(event.currentTarget.value);
          }}
          onKeyDown={(event) => {
            if (event.key === 'Escape' && query) {
              event.stopPropagation();
              clearQuery();
            }
          }}
        />
        <Select
          aria-label="Tag"
          placeholder="Any tag"
          data={withCurrent(tags, filters.tag)}
          value={filters.tag}
          onChange={(value) => setFilters({ tag: value })}
          searchable
          clearable
          nothingFoundMessage="No such tag"
          comboboxProps={{ withinPortal: true }}
        />
        <Select
          aria-label="User"
          placeholder="Any user"
          data={withCurrent(users, filters.user)}
          value={filters.user}
          onChange={(value) => setFilters({ user: value })}
          searchable
          clearable
          nothingFoundMessage="No such user"
        />
        <Select
          aria-label="Sort"
          className={classes.sort}
          data={[
            { value: 'expiry', label: 'Expiring soonest' },
            { value: 'newest', label: 'Newest first' },
          ]}
          value={filters.sort}
          onChange={(value) => value && setFilters({ sort: value as SortOrder })}
          allowDeselect={false}
        />
      </div>
    </div>
  );
}
