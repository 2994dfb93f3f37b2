import { IconSearch, IconX } from '@tabler/icons-react';
import { memo, type Ref } from 'react';
import field from '@/components/field.module.css';
import { Picker } from '@/components/picker';
import type { PickerSpec } from '@/config/shell-context';
import { type Slot, useSlot } from '@/lib/value-slot';
import type { Density } from '../../hooks/use-density';
import type { StatusCounts } from '../../hooks/use-inbox-data';
import { useSourceOptions } from '../../hooks/use-source-options';
import { type InboxFilters, MAX_QUERY_LENGTH, type SortOrder } from '../../utils/filters';
import { DensitySwitch } from './density-switch';
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
  /** Esc, ↓ or Enter in the search box: on to the list's first row. */
  onSearchDone?: () => void;
  density: Density;
  onDensityChange: (density: Density) => void;
  /** Ids of the sources whose list has not answered yet, space-separated. */
  loadingSources?: string | undefined;
  /**
   * The team's Claimed filter, before Sort, as its part says once loaded (null: none; undefined:
   * not said yet, and its place is kept with a picker not usable yet).
   */
  claimed?: Slot<PickerSpec | null | undefined> | undefined;
}

const noop = () => {};
/**
 * The Claimed filter's place while its part loads (team-bar.tsx): the same picker, not usable yet
 * (and without the part's test id, which says the part is here).
 */
const CLAIMED_LOADING: PickerSpec = {
  label: 'Claimed',
  any: 'Any claim',
  values: [],
  value: '',
  onChange: noop,
  disabled: true,
};

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
  onSearchDone,
  density,
  onDensityChange,
  loadingSources,
  claimed,
}: InboxToolbarProps) {
  const claimedPicker = useSlot(claimed, null);
  // Until the part has said, its place is kept, so the rows below do not move down under a
  // reviewer's pointer when it comes (on a phone it is a line of its own).
  const morePickers = claimedPicker
    ? [claimedPicker]
    : claimedPicker === undefined
      ? [CLAIMED_LOADING]
      : undefined;
  const { text: query, change, clear: clearQuery } = searchText;
  const loading = loadingSources?.split(' ');
  const sources = useSourceOptions().map((source) =>
    loading?.includes(source.value) ? { ...source, label: `${source.label} (loading…)` } : source,
  );
  // Native pickers: the phone's own picker on phones, type-ahead on desktops, and no popover code
  // in the first download. A value from the URL that no question has any more stays selectable.
  const options = (values: string[], current: string | null) =>
    current && !values.includes(current) ? [current, ...values] : values;

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
        <div className={classes.statusTools}>
          <DensitySwitch value={density} onChange={onDensityChange} />
          <RefreshIndicator {...refresh} />
        </div>
      </div>
      <div className={classes.filters}>
        <div className={`${field.field} ${classes.search}`}>
          <IconSearch size={16} aria-hidden className={`${field.section} ${field.left}`} />
          <input
            ref={searchRef}
            className={`${field.input} ${field.withLeft} ${field.withRight}`}
            type="search"
            aria-label="Search"
            placeholder="Search text, tags, users, ids, answers"
            maxLength={MAX_QUERY_LENGTH}
            value={query}
            onChange={(event) => change(event.currentTarget.value)}
            onKeyDown={(event) => {
              if (event.key === 'Escape') {
                event.stopPropagation();
                clearQuery();
                onSearchDone?.();
              } else if (event.key === 'ArrowDown' || event.key === 'Enter') {
                event.preventDefault();
                onSearchDone?.();
              }
            }}
          />
          {query ? (
            <button
              type="button"
              className={`${field.section} ${field.right} ${classes.clear}`}
              aria-label="Clear search"
              onClick={clearQuery}
            >
              <IconX size={16} aria-hidden />
            </button>
          ) : (
            <span className={`${field.section} ${field.right} ${classes.keyHint}`}>
              <kbd className={classes.kbd} aria-hidden>
                /
              </kbd>
            </span>
          )}
        </div>
        {(sources.length > 1 || filters.source) && (
          <Picker
            label="Source"
            any="Any source"
            values={
              filters.source && !sources.some((source) => source.value === filters.source)
                ? [filters.source, ...sources]
                : sources
            }
            value={filters.source ?? ''}
            onChange={(event) => setFilters({ source: event.currentTarget.value || null })}
          />
        )}
        <Picker
          label="Tag"
          any="Any tag"
          values={options(tags, filters.tag)}
          value={filters.tag ?? ''}
          onChange={(event) => setFilters({ tag: event.currentTarget.value || null })}
        />
        <Picker
          label="User"
          any="Any user"
          values={options(users, filters.user)}
          value={filters.user ?? ''}
          onChange={(event) => setFilters({ user: event.currentTarget.value || null })}
        />
        {morePickers?.map(({ onChange, ...picker }) => (
          <Picker
            key={picker.label}
            {...picker}
            className={`${classes.fit} ${classes.more}`}
            onChange={(event) => onChange(event.currentTarget.value)}
          />
        ))}
        <Picker
          label="Sort"
          className={classes.fit}
          values={[
            { value: 'expiry', label: 'Expiring soonest' },
            { value: 'newest', label: 'Newest first' },
            { value: 'resolved', label: 'Recently resolved' },
          ]}
          value={filters.sort}
          onChange={(event) => setFilters({ sort: event.currentTarget.value as SortOrder })}
        />
      </div>
    </div>
  );
});
