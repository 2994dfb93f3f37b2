import { useId } from 'react';
import { TimeAgo } from '@/components/time-ago';
import type { Question } from '../../api/schemas';
import { truncateText } from '../../utils/text';
import { Countdown } from '../shared/countdown';
import type { RowGroup } from './lookalike-members';
import classes from './question-row.module.css';

/** A look-alike group's asks under its row . */
export function AsksList({ id, label, group }: { id: string; label: string; group: RowGroup }) {
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
