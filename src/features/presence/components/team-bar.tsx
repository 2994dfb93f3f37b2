import { Group, Text } from '@mantine/core';
import { useEffect } from 'react';
import { useSearchParams } from 'react-router';
import { claimQuestions } from '../api/requests';
import type { TeamSubject } from '../api/schemas';
import { useAction } from '../hooks/use-action';
import { useTeam } from '../hooks/use-team';
import {
  type ClaimedFilter as Filter,
  keepsQuestion,
  parseClaimedFilter,
} from '../utils/team-policy';
import * as styles from './styles';

/**
 * "Claimed: anyone / by me / unclaimed", kept in the URL (`claimed=`). It hands the list a
 * predicate; absent (no portal server), it shows nothing and filters nothing.
 */
export function TeamBar({
  selected,
  onKeep,
}: {
  selected: readonly TeamSubject[];
  onKeep: (update: () => ((question: TeamSubject) => boolean) | null) => void;
}) {
  const claim = useAction(claimQuestions);
  const [params, setParams] = useSearchParams();
  const filter = parseClaimedFilter(params.get('claimed'));
  const { state, me, now, connection } = useTeam();
  const absent = connection === 'absent';
  useEffect(() => {
    const keep =
      filter === null || absent
        ? null
        : (question: TeamSubject) => keepsQuestion(filter, state, question, me, now);
    onKeep(() => keep);
  }, [filter, state, me, now, absent, onKeep]);
  useEffect(() => () => onKeep(() => null), [onKeep]);
  if (absent) return null;
  const pending = selected.filter((question) => question.status === 'pending');
  const refused = claim.data?.refused.length ?? 0;
  return (
    <Group gap="sm" px="xs" data-testid="team-bar">
      <label style={styles.label}>
        Claimed{' '}
        <select
          value={filter ?? ''}
          onChange={(event) => {
            const value = event.currentTarget.value as Filter | '';
            setParams((current) => {
              const next = new URLSearchParams(current);
              if (value) next.set('claimed', value);
              else next.delete('claimed');
              return next;
            });
          }}
        >
          <option value="">any</option>
          <option value="anyone">by anyone</option>
          <option value="mine">by me</option>
          <option value="unclaimed">unclaimed</option>
        </select>
      </label>
      {pending.length > 0 && (
        <button
          type="button"
          style={styles.button}
          disabled={claim.pending}
          onClick={() => claim.start(pending)}
        >
          Claim {pending.length}
        </button>
      )}
      {claim.data && (
        <Text size="sm" role="status">
          Claimed {claim.data.claimed.length}
          {refused > 0 ? `; ${refused} not: ${claim.data.refused[0]?.detail}` : ''}
        </Text>
      )}
    </Group>
  );
}

export default TeamBar;
