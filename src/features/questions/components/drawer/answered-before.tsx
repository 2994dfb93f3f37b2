import { Button, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useId, useMemo } from 'react';
import { TimeAgo } from '@/components/time-ago';
import { useRuntimeConfig } from '@/config/runtime-config';
import { useSession } from '@/lib/session-store';
import { usePainted } from '@/lib/use-painted';
import { useQuestionQueries } from '../../api/queries';
import type { Question } from '../../api/schemas';
import { answeredBefore, type EarlierAnswer } from '../../utils/answered-before';
import { truncateText } from '../../utils/text';
import classes from './question-detail.module.css';

const NONE: Question[] = [];

/**
 * The lists joined, once for all drawers: the same array while none of them changes, so what is
 * worked out from it per list (answeredBefore's index) is kept from one question to the next.
 */
const joins = new WeakMap<Question[], { parts: [Question[], Question[]]; joined: Question[] }>();
function joinLists(all: Question[], resolved: Question[], superseded: Question[]): Question[] {
  if (resolved === NONE && superseded === NONE) return all;
  const last = joins.get(all);
  if (last?.parts[0] === resolved && last.parts[1] === superseded) return last.joined;
  const joined = [...all, ...resolved, ...superseded];
  joins.set(all, { parts: [resolved, superseded], joined });
  return joined;
}

/**
 * The questions the inbox already holds, answered ones included: the unfiltered list the page
 * polls anyway (this only reads it: no request of its own). When that list is cut at the API's
 * limit, the Resolved and Superseded lists are asked for, at most once per poll interval, once
 * the question has painted: reading thousands of records must not hold up its first paint.
 */
export function useKnownQuestions(): Question[] {
  const queries = useQuestionQueries();
  const { pollIntervalMs } = useRuntimeConfig();
  const active = useSession().state === 'active';
  const painted = usePainted();
  const all = useQuery({ ...queries.list('all'), enabled: false });
  const cut = active && all.data?.truncated === true;
  const resolved = useQuery({
    ...queries.list('resolved'),
    enabled: cut && painted,
    staleTime: pollIntervalMs,
  });
  const superseded = useQuery({
    ...queries.list('superseded'),
    enabled: cut && painted,
    staleTime: pollIntervalMs,
  });
  return joinLists(
    all.data?.questions ?? NONE,
    cut ? (resolved.data?.questions ?? NONE) : NONE,
    cut ? (superseded.data?.questions ?? NONE) : NONE,
  );
}

const SHOWN = 600;

function Earlier({ answer, onUse }: { answer: EarlierAnswer; onUse: (text: string) => void }) {
  const textId = useId();
  return (
    <Paper withBorder radius="sm" p="xs" component="li" className={classes.earlier}>
      <Stack gap={4}>
        <Text size="sm" className={classes.answer} id={textId}>
          {truncateText(answer.text, SHOWN)}
        </Text>
        <Group justify="space-between" gap="xs">
          <Text size="xs" c="dimmed">
            {answer.at !== null && (
              <TimeAgo at={answer.at} prefix="answered" sourceKey={answer.question.source.id} />
            )}
            {answer.question.status === 'superseded' ? ' · since replaced by a newer answer' : ''}
          </Text>
          <Button
            size="compact-sm"
            variant="default"
            aria-describedby={textId}
            onClick={() => onUse(answer.text)}
          >
            Use this answer
          </Button>
        </Group>
      </Stack>
    </Paper>
  );
}

/**
 * "Answered before": the latest answers already given to the same question, newest first, each
 * with "Use this answer" (fills the box): a reviewer never retypes what the system knows.
 */
export function AnsweredBefore({
  question,
  onUse,
}: {
  question: Question;
  onUse: (text: string) => void;
}) {
  const known = useKnownQuestions();
  const answers = useMemo(() => answeredBefore(question, known), [question, known]);
  const headingId = useId();
  if (answers.length === 0) return null;
  return (
    <section aria-labelledby={headingId}>
      <Stack gap="xs">
        <Title order={3} size="h5" id={headingId}>
          Answered before
        </Title>
        <Stack component="ul" gap="xs" className={classes.earlierList}>
          {answers.map((answer) => (
            <Earlier key={answer.question.id} answer={answer} onUse={onUse} />
          ))}
        </Stack>
      </Stack>
    </section>
  );
}
