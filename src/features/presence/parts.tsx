import type { ComponentType } from 'react';
import type { AuditSubject, TeamPlace } from '@/config/shell-context';
import { DrawerTeam } from './components/drawer-team';
import { RowTeam } from './components/row-team';
import { ClaimedFilter, ClaimSelected } from './components/team-bar';

/** The one module the app shell loads lazily: the part for each place it is shown. */
export function Team(props: TeamPlace) {
  if ('row' in props) return <RowTeam question={props.row} />;
  if ('drawer' in props) return <DrawerTeam question={props.drawer} also={props.also} />;
  if ('onKeep' in props) return <ClaimedFilter onKeep={props.onKeep} onPicker={props.onPicker} />;
  return <ClaimSelected selected={props.selected} />;
}

/** A row's part: who is on it while pending (presence, claims), else `closed` (who acted). */
export function withRowTeam(closed: ComponentType<{ question: AuditSubject }>) {
  const Closed = closed;
  // biome-ignore lint/correctness/noComponentHookFactories: called once, when the part loads (see audit-parts.ts).
  return function RowPart({ question }: { question: AuditSubject }) {
    if (question.status === 'pending') return <RowTeam question={question} />;
    return question.status === 'resolved' || question.status === 'cancelled' ? (
      <Closed question={question} />
    ) : null;
  };
}
