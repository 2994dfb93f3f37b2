import { Button } from '@mantine/core';
import { type ReactNode, useEffect, useRef, useState } from 'react';
import { LoadBoundary, lazyPart } from '@/components/load-boundary';
import type { SelectionApi } from '../../hooks/use-selection';
import { useQuestionsNow } from '../../hooks/use-status-now';
import { type BulkAction, bulkActions } from '../../utils/bulk';
import classes from './bulk-bar.module.css';

const BulkDialog = lazyPart(() => import('../drawer/bulk-dialog').then((m) => m.BulkDialog));

const labels: Record<BulkAction, string> = {
  answer: 'Answer all…',
  'not-applicable': 'Not applicable…',
  cancel: 'Cancel questions…',
};

/**
 * Above the list: the header checkbox for the whole view, and once questions are ticked, their
 * count and the actions every one of them allows (see bulkActions).
 */
export function BulkBar({
  selection,
  viewCount,
  more,
}: {
  selection: SelectionApi;
  viewCount: number;
  /** Actions another part adds once it has loaded (the team's Claim), after the bulk actions. */
  more?: ReactNode;
}) {
  const count = selection.selected.length;
  const actions = bulkActions(selection.selected, useQuestionsNow(10_000));
  const [action, setAction] = useState<BulkAction | null>(null);
  // The questions the reviewer chose, as the confirmation names them: a refresh that drops one
  // from the view (someone else closed it) must not shrink what the reviewer is confirming.
  const [chosen, setChosen] = useState(selection.selected);
  const [wanted, setWanted] = useState(false);
  const header = useRef<HTMLInputElement>(null);
  const all = viewCount > 0 && count === viewCount;
  useEffect(() => {
    if (header.current) header.current.indeterminate = count > 0 && !all;
  }, [count, all]);
  // Mounted from the first bulk action on, in the same place even once the view is empty: the
  // results stay on screen.
  const dialog = wanted && (
    <LoadBoundary what="The bulk action" parts={[BulkDialog]}>
      <BulkDialog
        action={action}
        questions={chosen}
        onClose={() => setAction(null)}
        onFinished={selection.keepOnly}
      />
    </LoadBoundary>
  );
  return (
    <>
      {viewCount > 0 && (
        <div className={classes.bar} role="toolbar" aria-label="Selected questions">
          <label className={classes.all}>
            <input
              ref={header}
              type="checkbox"
              className={classes.check}
              checked={all}
              onChange={(event) => selection.setView(event.currentTarget.checked)}
            />
            {count > 0 ? (
              <span aria-live="polite">{count} selected</span>
            ) : (
              <span>Select all {viewCount} in this view</span>
            )}
          </label>
          {count > 0 && (
            <>
              {actions.map((each) => (
                <Button
                  key={each}
                  size="compact-sm"
                  variant="default"
                  onClick={() => {
                    setWanted(true);
                    setChosen(selection.selected);
                    setAction(each);
                  }}
                >
                  {labels[each]}
                </Button>
              ))}
              {more}
              {actions.length === 0 && !more && (
                <span className={classes.none}>No action suits every selected question.</span>
              )}
              <Button size="compact-sm" variant="subtle" onClick={selection.clear}>
                Clear selection
              </Button>
            </>
          )}
        </div>
      )}
      {dialog}
    </>
  );
}
