import { Group, Stack, Text } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { ANSWER_EVENT, type AnswerEventDetail } from '@/config/shell-context';
import { showBidiControls } from '@/lib/show-bidi';
import { claimQuestions, releaseQuestions } from '../api/requests';
import type { TeamSubject } from '../api/schemas';
import { useAction } from '../hooks/use-action';
import { usePresenceReport } from '../hooks/use-presence-report';
import { useTeam } from '../hooks/use-team';
import { otherHolder } from '../utils/confirm-answer';
import { claimOn, minutesLeft, othersViewing, shortName } from '../utils/team-policy';
import * as styles from './styles';

/**
 * Asks before answering a question someone else holds: the answer form's ANSWER_EVENT is
 * cancelled, and the answer goes only if the reviewer says so. In the drawer, above the form,
 * with the focus on it.
 */
function ClaimAsk({ question, now }: { question: TeamSubject; now: number }) {
  const queryClient = useQueryClient();
  const [pending, setPending] = useState<{ holder: string; go: () => void } | null>(null);
  const box = useRef<HTMLDivElement>(null);
  const latest = useRef({ question, now });
  latest.current = { question, now };
  useEffect(() => {
    const onAnswer = (event: Event) => {
      const detail = (event as CustomEvent<AnswerEventDetail>).detail;
      const { question: open, now: at } = latest.current;
      if (detail.id !== open.id || detail.source !== open.source.id) return;
      const holder = otherHolder(open, queryClient, at);
      if (!holder) return;
      event.preventDefault();
      setPending({ holder, go: detail.go });
    };
    document.addEventListener(ANSWER_EVENT, onAnswer);
    return () => document.removeEventListener(ANSWER_EVENT, onAnswer);
  }, [queryClient]);
  useEffect(() => {
    if (pending) box.current?.focus();
  }, [pending]);
  if (!pending) return null;
  return (
    <Stack
      gap="xs"
      ref={box}
      tabIndex={-1}
      role="alertdialog"
      aria-label="Answer a claimed question?"
      style={styles.ask}
    >
      <Text size="sm">{pending.holder} has claimed this question. Answer anyway?</Text>
      <Group gap="xs">
        <button
          type="button"
          style={styles.primary}
          onClick={() => {
            setPending(null);
            pending.go();
          }}
        >
          Answer anyway
        </button>
        <button type="button" style={styles.button} onClick={() => setPending(null)}>
          Don't answer
        </button>
      </Group>
    </Stack>
  );
}

/**
 * In the drawer: who else has the question open or is typing, who holds it, Claim / Release;
 * and, while mounted, this tab's own presence on it.
 */
export function DrawerTeam({
  question,
  also = [],
}: {
  question: TeamSubject;
  /** The other asks of its look-alike group, claimed and released with it. */
  also?: readonly TeamSubject[] | undefined;
}) {
  const { state, me, now, connection } = useTeam();
  const area = useRef<HTMLDivElement>(null);
  const pending = question.status === 'pending';
  usePresenceReport(question, area, connection !== 'absent' && pending);
  const claim = claimOn(state, question, now);
  const viewers = othersViewing(state, question, me);
  const others = also.filter((other) => other.status === 'pending' && other.id !== question.id);
  const act = useAction(async (what: 'claim' | 'release') => {
    const asks = [question, ...others];
    if (what === 'release') {
      // Only what this reviewer holds: another's claim on one of the group stays theirs.
      const held = asks.filter((ask) => claimOn(state, ask, now)?.reviewer === me);
      return releaseQuestions(held.length > 0 ? held : [question]).then(() => null);
    }
    const answer = await claimQuestions(asks);
    if (answer.refused.length === 0) return null;
    const detail = answer.refused[0]?.detail ?? 'Not claimed.';
    return answer.claimed.length > 0
      ? `Claimed ${answer.claimed.length} of ${asks.length}; ${answer.refused.length} not: ${detail}`
      : detail;
  });

  if (connection === 'absent') {
    return (
      <Text size="sm" c="dimmed" ref={area} data-testid="team-absent">
        Presence and claims need the portal server; this deployment has none.
      </Text>
    );
  }
  const mine = claim !== null && claim.reviewer === me;
  return (
    <Stack gap={4} ref={area} data-testid="drawer-team">
      {viewers.map((viewer) => (
        <Text size="sm" key={viewer.reviewer} role="status">
          {showBidiControls(viewer.reviewer)} is {viewer.typing ? 'typing an answer' : 'viewing'}
        </Text>
      ))}
      {claim && !mine && (
        <Text size="sm" fw={600} data-testid="claimed-by">
          Claimed by {shortName(claim.reviewer)} · {minutesLeft(claim, now)} min left
        </Text>
      )}
      {pending && (
        <Group gap="xs">
          {mine ? (
            <>
              <Text size="sm">You hold this question · {minutesLeft(claim, now)} min left</Text>
              <button
                type="button"
                style={styles.button}
                disabled={act.pending}
                onClick={() => act.start('release')}
              >
                Release
              </button>
            </>
          ) : (
            !claim && (
              <button
                type="button"
                style={styles.primary}
                disabled={act.pending}
                onClick={() => act.start('claim')}
              >
                {others.length > 0 ? `Claim all ${others.length + 1} asks` : 'Claim'}
              </button>
            )
          )}
          {connection === 'reconnecting' && (
            <Text size="xs" c="dimmed" role="status">
              Live updates paused: reconnecting…
            </Text>
          )}
        </Group>
      )}
      {act.data && (
        <Text size="sm" c="red.8" role="alert">
          {act.data}
        </Text>
      )}
      {act.error !== undefined && (
        <Text size="sm" c="red.8" role="alert">
          {act.error instanceof Error ? act.error.message : 'Could not reach the server.'}
        </Text>
      )}
      <ClaimAsk question={question} now={now} />
    </Stack>
  );
}

export default DrawerTeam;
