import { showBidiControls } from '@/lib/show-bidi';
import type { TeamSubject } from '../api/schemas';
import { useRowTeam } from '../hooks/use-team';
import { claimOn, minutesLeft, othersViewing, shortName } from '../utils/team-policy';

/** "alice viewing", "claimed by bob · 12 min left" on a pending row. */
export function RowTeam({ question }: { question: TeamSubject }) {
  const { state, me, now } = useRowTeam();
  const viewers = othersViewing(state, question, me);
  const claim = claimOn(state, question, now);
  if (question.status !== 'pending' || (viewers.length === 0 && !claim)) return null;
  return (
    <span data-testid="row-team">
      {viewers.length > 0 && (
        <span title={showBidiControls(viewers.map((v) => v.reviewer).join(', '))}>
          {' '}
          {viewers.map((v) => shortName(v.reviewer)).join(', ')}{' '}
          {viewers.some((v) => v.typing) ? 'typing' : 'viewing'}
        </span>
      )}
      {claim && (
        <span title={`Claimed by ${showBidiControls(claim.reviewer)}`}>
          {viewers.length > 0 ? ' · ' : ' '}
          {claim.reviewer === me ? 'claimed by you' : `claimed by ${shortName(claim.reviewer)}`} ·{' '}
          {minutesLeft(claim, now)} min left
        </span>
      )}
    </span>
  );
}

export default RowTeam;
