import { Button, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useId, useMemo } from 'react';
import { TimeAgo } from '@/components/time-ago';
import { useRuntimeConfig } from '@/config/runtime-config';
import { useSession } from '@/lib/session-store';
import { useQuestionQueries } from '../../api/queries';
import type { Question } from '../../api/schemas';
import { answeredBefore, type EarlierAnswer } from '../../utils/answered-before';
import { truncateText } from '../../utils/text';
import classes from './question-detail.module.css';

const NONE: Question[] = [];

/**
 * The questions the inbox already holds, answered ones included: the unfiltered list the page
 * polls anyway (this only reads it: no request of its own). When that list is cut at the API's
 * limit, the Resolved and Superseded lists are asked for, at most once per poll interval.
 */
export function useKnownQuestions(): Question[] {
  const queries = useQuestionQueries();
  const { pollIntervalMs } = useRuntimeConfig();
  const active = useSession().state === 'active';
  const all = useQuery({ ...queries.list('all'), enabled: false });
  const cut = active && all.data?.truncated === true;
  const resolved = useQuery({
    ...queries.list('resolved'),
    enabled: cut,
    staleTime: pollIntervalMs,
  });
  const superseded = useQuery({
    ...queries.list('superseded'),
    enabled: cut,
    staleTime: pollIntervalMs,
  });
  const allQuestions = all.data?.questions ?? NONE;
  const resolvedQuestions = cut ? (resolved.data?.questions ?? NONE) : NONE;
  const supersededQuestions = cut ? (superseded.data?.questions ?? NONE) : NONE;
  return useMemo(
    () =>
      resolvedQuestions === NONE && supersededQuestions === NONE
        ? allQuestions
        : [...allQuestions, ...resolvedQuestions, ...supersededQuestions],
    [allQuestions, resolvedQuestions, supersededQuestions],
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
