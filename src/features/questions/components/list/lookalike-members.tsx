import { useId } from 'react';
import { LoadBoundary, lazyPart } from '@/components/load-boundary';
import type { Question } from '../../api/schemas';
import { truncateText } from '../../utils/text';
import classes from './question-row.module.css';

// Only a group the reviewer expands shows its asks: their code comes then.
const AsksList = lazyPart(() => import('./asks-list').then((m) => m.AsksList), 'AsksList');

/** What a row standing for several look-alike asks needs to show them. */
export interface RowGroup {
  /** Oldest ask first; the first is the row's own question. */
  members: Question[];
  expanded: boolean;
  onExpand: (leadId: string) => void;
  /** How many of the members are ticked for a bulk action. */
  selectedCount: number;
  selectedIds: ReadonlySet<string>;
  /** Ticks or unticks asks; no checkboxes without it. */
  onToggle?: (ids: readonly string[], on: boolean) => void;
  /** One ask's own address, opened alone. */
  memberHref: (id: string) => string;
}

/** The "Show 3 asks" control of a group row and, once expanded, its asks as rows of their own. */
export function LookalikeMembers({ lead, group }: { lead: Question; group: RowGroup }) {
  const listId = `asks-${useId()}`;
  const count = group.members.length;
  return (
    <>
      <div className={classes.groupBar}>
        <button
          type="button"
          className={classes.expand}
          aria-expanded={group.expanded}
          aria-controls={group.expanded ? listId : undefined}
          onClick={() => group.onExpand(lead.id)}
        >
          <span className={classes.chevron} aria-hidden />
          Show {count} asks
        </button>
      </div>
      {group.expanded && (
        <LoadBoundary what="The asks" parts={[AsksList]}>
          <AsksList
            id={listId}
            label={`${count} asks: ${truncateText(lead.questionText, 80) || lead.id}`}
            group={group}
          />
        </LoadBoundary>
      )}
    </>
  );
}
