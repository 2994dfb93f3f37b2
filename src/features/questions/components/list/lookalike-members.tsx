import { useId } from 'react';
import { TimeAgo } from '@/components/time-ago';
import type { Question } from '../../api/schemas';
import { truncateText } from '../../utils/text';
import { Countdown } from '../shared/countdown';
import classes from './question-row.module.css';

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
        <AsksList
          id={listId}
          label={`${count} asks: ${truncateText(lead.questionText, 80) || lead.id}`}
          group={group}
        />
      )}
    </>
  );
}

/** A look-alike group's asks under its row. */
function AsksList({ id, label, group }: { id: string; label: string; group: RowGroup }) {
  const count = group.members.length;
  return (
    <ul id={id} className={classes.members} aria-label={label}>
      {group.members.map((member, index) => (
        <Member
          key={member.id}
          member={member}
          label={`Ask ${index + 1} of ${count}`}
          group={group}
        />
      ))}
    </ul>
  );
}

function Member({ member, label, group }: { member: Question; label: string; group: RowGroup }) {
  const metaId = `ask-${useId()}`;
  const ticked = group.selectedIds.has(member.id);
  return (
    <li className={classes.member} data-member-id={member.id}>
      {group.onToggle && (
        <input
          type="checkbox"
          className={classes.select}
          aria-label={`Select ${label.toLowerCase()}`}
          checked={ticked}
          onChange={() => group.onToggle?.([member.id], !ticked)}
        />
      )}
      <a href={group.memberHref(member.id)} data-member-link aria-describedby={metaId}>
        {label}
      </a>
      <span id={metaId} className={classes.memberMeta}>
        {member.userId && <span className={classes.user}>{truncateText(member.userId, 80)}</span>}
        {member.createdAt !== null && (
          <TimeAgo at={member.createdAt} prefix="asked" sourceKey={member.source.id} />
        )}
        {member.status === 'pending' && member.expiresAt !== null && (
          <Countdown expiresAt={member.expiresAt} sourceId={member.source.id} size="xs" />
        )}
      </span>
    </li>
  );
}
