import { Alert, Button, Code, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { TimeAgo } from '@/components/time-ago';
import { useActedOn } from '@/config/acted';
import { useRuntimeConfig } from '@/config/runtime-config';
import { describeError } from '@/lib/describe-error';
import { showBidiControls } from '@/lib/show-bidi';
import { activityQueries } from '../api/queries';
import type { ActivityEntry } from '../api/schemas';
import {
  accepted,
  answerLabel,
  auditQuestionId,
  describeEntry,
  earlierAnswers,
} from '../utils/describe';

export interface HistorySubject {
  id: string;
  source: { id: string; kind: string };
}

function Entry({
  entry,
  earlier,
  showQuestion,
}: {
  entry: ActivityEntry;
  earlier: string | null | undefined;
  showQuestion: boolean;
}) {
  const ok = accepted(entry);
  return (
    <li>
      <Text
        size="sm"
        fw={600}
        // Red 8 on the dark theme's background fails contrast: the lighter red there.
        c={
          ok === false
            ? 'light-dark(var(--mantine-color-red-8), var(--mantine-color-red-4))'
            : undefined
        }
      >
        {describeEntry(entry)} · <TimeAgo at={Date.parse(entry.at)} />
        {ok === null && ' · outcome not recorded'}
      </Text>
      {showQuestion && (
        <Text size="xs" c="dimmed">
          Ask {showBidiControls(entry.questionId)}
        </Text>
      )}
      {entry.answer !== null && (
        <Text size="sm" component="div">
          {answerLabel(entry.answerMode)}
          <Code>{showBidiControls(entry.answer)}</Code>
        </Text>
      )}
      {earlier !== undefined && earlier !== null && (
        <Text size="sm" c="dimmed" component="div">
          Earlier answer: <Code>{showBidiControls(earlier)}</Code>
        </Text>
      )}
    </li>
  );
}

/** The drawer's "History": every action on these questions through the portal, newest first. */
export function QuestionHistory({ questions }: { questions: readonly HistorySubject[] }) {
  const ids = questions.map(auditQuestionId);
  const me = useQuery(activityQueries.me());
  const { pollIntervalMs } = useRuntimeConfig();
  const history = useQuery({
    ...activityQueries.questions(ids),
    // As often as the list, and no more often than every 15 s: another reviewer's actions come
    // live (below); this is for whatever the stream missed.
    refetchInterval: Math.max(15_000, pollIntervalMs),
    enabled: me.data != null,
  });
  // Another reviewer acted on one of them: their entry now, not at the next 15 s refresh.
  useActedOn(questions, () => void history.refetch());
  const heading = (
    <Title order={3} size="h5" id="question-history">
      History
    </Title>
  );
  if (me.data === null) {
    return (
      <section aria-labelledby="question-history">
        {heading}
        <Text size="sm" c="dimmed">
          No history here: this deployment has no portal server to record who did what.
        </Text>
      </section>
    );
  }
  let body: React.ReactNode;
  if (history.data) {
    const earlier = earlierAnswers(history.data.entries);
    body =
      history.data.entries.length === 0 ? (
        <Text size="sm" c="dimmed">
          Nothing done here through the portal yet.
        </Text>
      ) : (
        <Stack component="ol" gap="xs" style={{ listStyle: 'none', paddingLeft: 0, margin: 0 }}>
          {history.data.entries.map((entry) => (
            <Entry
              key={entry.id}
              entry={entry}
              earlier={earlier.get(entry.id)}
              showQuestion={ids.length > 1}
            />
          ))}
        </Stack>
      );
  } else if (history.error || me.error) {
    const described = describeError(history.error ?? me.error);
    body = (
      <Alert color="red" title="History could not be read">
        {described.message}{' '}
        <Button size="compact-sm" variant="light" onClick={() => void history.refetch()}>
          Retry
        </Button>
      </Alert>
    );
  } else {
    body = (
      <Text size="sm" c="dimmed">
        Loading history…
      </Text>
    );
  }
  return (
    <Stack component="section" aria-labelledby="question-history" gap="xs">
      {heading}
      {body}
    </Stack>
  );
}

export default QuestionHistory;
