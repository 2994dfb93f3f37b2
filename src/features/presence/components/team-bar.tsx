import { Button, Text } from '@mantine/core';
import { useEffect } from 'react';
import { useSearchParams } from 'react-router';
import type { PickerSpec } from '@/config/shell-context';
import { describeError } from '@/lib/describe-error';
import { claimQuestions } from '../api/requests';
import type { TeamSubject } from '../api/schemas';
import { useAction } from '../hooks/use-action';
import { useTeam } from '../hooks/use-team';
import {
  type ClaimedFilter as Filter,
  keepsQuestion,
  parseClaimedFilter,
} from '../utils/team-policy';

const choices: { value: Filter; label: string }[] = [
  { value: 'anyone', label: 'Claimed' },
  { value: 'mine', label: 'Claimed by me' },
  { value: 'unclaimed', label: 'Unclaimed' },
];

/**
 * The Claimed filter (any / by anyone / by me / unclaimed), kept in the URL (`claimed=`): the
 * toolbar draws its picker among its own; this hands the list a predicate. Absent (no portal
 * server), there is no picker and nothing is filtered.
 */
export function ClaimedFilter({
  onKeep,
  onPicker,
}: {
  onKeep: (update: () => ((question: TeamSubject) => boolean) | null) => void;
  onPicker: (picker: PickerSpec | null) => void;
}) {
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
  useEffect(() => {
    onPicker(
      absent
        ? null
        : {
            label: 'Claimed',
            any: 'Any claim',
            testId: 'claimed-filter',
            values: choices,
            value: filter ?? '',
            onChange: (value) =>
              setParams((current) => {
                const next = new URLSearchParams(current);
                if (value) next.set('claimed', value);
                else next.delete('claimed');
                return next;
              }),
          },
    );
  }, [absent, filter, setParams, onPicker]);
  useEffect(() => () => onPicker(null), [onPicker]);
  return null;
}

/**
 * "Claim" in the bar of selected questions: claims the pending ones (look-alike groups' members
 * too, as the selection holds them), then says how many it got and why any were refused.
 */
export function ClaimSelected({ selected }: { selected: readonly TeamSubject[] }) {
  const claim = useAction(claimQuestions);
  const { connection } = useTeam();
  if (connection === 'absent') return null;
  const pending = selected.filter((question) => question.status === 'pending');
  if (pending.length === 0) return null;
  const refused = claim.data?.refused ?? [];
  const reasons = new Set(refused.map((refusal) => refusal.detail));
  return (
    <>
      <Button
        size="compact-sm"
        variant="default"
        loading={claim.pending}
        onClick={() => claim.start(pending)}
      >
        Claim
      </Button>
      {claim.data && (
        <Text size="sm" role="status">
          Claimed {claim.data.claimed.length} of {claim.data.claimed.length + refused.length}.
          {refused.length > 0 &&
            ` ${refused.length} not: ${refused[0]?.detail}${reasons.size > 1 ? ' (and other reasons)' : ''}`}
        </Text>
      )}
      {claim.error !== undefined && (
        <Text size="sm" c="red" role="alert">
          Could not claim them: {describeError(claim.error).message} Try again.
        </Text>
      )}
    </>
  );
}
