// Mantine's styles for what this page draws (the first screen's are in src/app/mantine-styles.ts):
// without them its fields, picker and table were drawn as bare browser controls.
import '@mantine/core/styles/Input.layer.css';
import '@mantine/core/styles/ScrollArea.layer.css';
import '@mantine/core/styles/Table.layer.css';
import {
  Alert,
  Anchor,
  Button,
  Group,
  NativeSelect,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { type FormEvent, useEffect, useMemo } from 'react';
import { Link } from 'react-router';
import { QUESTIONS_PATH } from '@/config/routes';
import { sourceLabel, useRuntimeConfig } from '@/config/runtime-config';
import { describeError } from '@/lib/describe-error';
import { formatExact } from '@/lib/format-time';
import { markFirstScreenShown } from '@/lib/idle';
import { showBidiControls } from '@/lib/show-bidi';
import { activityQueries } from '../api/queries';
import { activityCsvHref } from '../api/requests';
import { type ActivityFilter, activityActions } from '../api/schemas';
import {
  ACTION_LABELS,
  accepted,
  isSnippetEntry,
  reviewerText,
  snippetOf,
} from '../utils/describe';

/** Characters of what a question asked shown in its row (the whole slice opens with it). */
const ASKED_SHOWN = 160;

const FIELDS = ['reviewer', 'source', 'action', 'from', 'to', 'q'] as const;

/** `YYYY-MM-DD` in the URL; the server takes any ISO time. `to` is the whole day. */
function toServer(filter: ActivityFilter): ActivityFilter {
  const out = { ...filter };
  if (out.to && /^\d{4}-\d{2}-\d{2}$/.test(out.to)) {
    out.to = new Date(Date.parse(`${out.to}T00:00:00`) + 86_400_000).toISOString();
  }
  if (out.from && /^\d{4}-\d{2}-\d{2}$/.test(out.from)) {
    out.from = new Date(Date.parse(`${out.from}T00:00:00`)).toISOString();
  }
  return out;
}

/** The Activity page: who did what through the portal, filtered by what its URL says. */
export function ActivityPage({
  params,
  setParams,
}: {
  /** The page's query string and its setter: the route gives them (see header-tools.tsx on why). */
  params: URLSearchParams;
  setParams: (next: URLSearchParams) => void;
}) {
  const filter = useMemo(() => {
    const out: ActivityFilter = {};
    for (const field of FIELDS) {
      const value = params.get(field);
      if (value) out[field] = value;
    }
    return out;
  }, [params]);
  const cursor = Number(params.get('cursor')) || null;
  const { sources } = useRuntimeConfig();
  const me = useQuery(activityQueries.me());
  // This page is the first screen here: the header's parts wait for it, not for a list.
  useEffect(markFirstScreenShown, []);
  const page = useQuery({
    ...activityQueries.page(toServer(filter), cursor),
    enabled: me.data != null,
    placeholderData: keepPreviousData,
  });

  const apply = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const next = new URLSearchParams();
    for (const field of FIELDS) {
      const value = String(form.get(field) ?? '').trim();
      if (value) next.set(field, value);
    }
    setParams(next);
  };
  const goTo = (next: number | null) => {
    const copy = new URLSearchParams(params);
    if (next) copy.set('cursor', String(next));
    else copy.delete('cursor');
    setParams(copy);
  };

  if (me.data === null) {
    return (
      <Stack maw={960} mx="auto" p="md">
        <Title order={2}>Activity</Title>
        <Text>
          No activity here: this deployment serves the portal without its server, which is what
          records who did what.
        </Text>
      </Stack>
    );
  }

  const entries = page.data?.entries;
  const labels = new Map(sources.map((source) => [source.id, sourceLabel(source)]));
  // The inbox's id of a question: the first Reflexio source's ids as they are, the others'
  // `<source>:<id>` (inboxRouting, features/questions/sources/lazy-source.ts).
  const plain = sources.find((source) => source.kind === 'reflexio')?.id;
  const questionLink = (entry: { sourceId: string; questionId: string }) =>
    `${QUESTIONS_PATH}/${encodeURIComponent(
      entry.sourceId === plain ? entry.questionId : `${entry.sourceId}:${entry.questionId}`,
    )}`;
  return (
    <Stack maw={1200} mx="auto" p="md" gap="md">
      <Title order={2}>Activity</Title>
      <form onSubmit={apply} key={params.toString()} aria-label="Filter the activity">
        <Group align="end" gap="sm" wrap="wrap">
          <TextInput
            label="Reviewer"
            name="reviewer"
            description="Part of an address or name"
            defaultValue={filter.reviewer ?? ''}
          />
          <NativeSelect
            label="Source"
            name="source"
            defaultValue={filter.source ?? ''}
            data={[
              { value: '', label: 'Any' },
              ...sources.map((source) => ({ value: source.id, label: sourceLabel(source) })),
              // A source the URL names that config.json no longer lists stays choosable.
              ...(filter.source && !sources.some((source) => source.id === filter.source)
                ? [{ value: filter.source, label: filter.source }]
                : []),
            ]}
          />
          <NativeSelect
            label="Action"
            name="action"
            defaultValue={filter.action ?? ''}
            data={[
              { value: '', label: 'Any' },
              ...activityActions.map((value) => ({ value, label: ACTION_LABELS[value] ?? value })),
            ]}
          />
          <TextInput label="From" name="from" type="date" defaultValue={filter.from ?? ''} />
          <TextInput label="To" name="to" type="date" defaultValue={filter.to ?? ''} />
          <TextInput
            label="Search"
            name="q"
            description="Question, answer, reviewer or id"
            defaultValue={filter.q ?? ''}
          />
          <Button type="submit">Apply</Button>
          <Anchor href={activityCsvHref(toServer(filter))} download="activity.csv">
            Download CSV
          </Anchor>
        </Group>
      </form>
      {me.error || (page.error && !entries) ? (
        <Alert color="red" title="The activity could not be read">
          {describeError(me.error ?? page.error).message}{' '}
          <Button size="compact-sm" variant="light" onClick={() => void page.refetch()}>
            Retry
          </Button>
        </Alert>
      ) : !entries ? (
        <Text>Loading the activity…</Text>
      ) : entries.length === 0 ? (
        <Text>
          {Object.keys(filter).length
            ? 'Nothing matches these filters.'
            : 'Nothing has been done through the portal yet.'}
        </Text>
      ) : (
        <Table.ScrollContainer minWidth={720}>
          <Table striped aria-label="Activity, newest first">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Time</Table.Th>
                <Table.Th>Reviewer</Table.Th>
                <Table.Th>Action</Table.Th>
                <Table.Th>Source</Table.Th>
                <Table.Th>Question</Table.Th>
                <Table.Th>Outcome</Table.Th>
                <Table.Th>Answer sent</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {entries.map((entry) => {
                const ok = accepted(entry);
                // A change to the team's snippets names the snippet, not a question to open.
                const snippet = isSnippetEntry(entry) ? snippetOf(entry) : null;
                return (
                  <Table.Tr key={entry.id}>
                    <Table.Td>
                      <time dateTime={entry.at}>{formatExact(Date.parse(entry.at))}</time>
                    </Table.Td>
                    <Table.Td>
                      {reviewerText(entry)}
                      {entry.selfNamed && (
                        <Text
                          span
                          size="xs"
                          c="dimmed"
                          title="Named in the browser, not by the SSO proxy"
                        >
                          {' '}
                          (self-named)
                        </Text>
                      )}
                    </Table.Td>
                    <Table.Td>{ACTION_LABELS[entry.action] ?? entry.action}</Table.Td>
                    <Table.Td>{labels.get(entry.sourceId) ?? entry.sourceId}</Table.Td>
                    <Table.Td style={{ overflowWrap: 'anywhere' }}>
                      {isSnippetEntry(entry) ? (
                        <Text size="sm">
                          {snippet
                            ? `Team snippet “${showBidiControls(snippet.title)}”`
                            : 'Team snippet'}
                        </Text>
                      ) : (
                        <Link
                          to={questionLink(entry)}
                          title={`Open the question (${entry.questionId})`}
                        >
                          {entry.asked
                            ? showBidiControls(
                                entry.asked.length > ASKED_SHOWN
                                  ? `${entry.asked.slice(0, ASKED_SHOWN - 1)}…`
                                  : entry.asked,
                              )
                            : '(question text not seen)'}
                        </Link>
                      )}
                      <Text size="xs" c="dimmed" style={{ wordBreak: 'break-all' }}>
                        {showBidiControls(entry.questionId)}
                      </Text>
                    </Table.Td>
                    <Table.Td>
                      {ok === null
                        ? 'not recorded'
                        : ok
                          ? `done (${entry.status})`
                          : `refused (${entry.status})`}
                    </Table.Td>
                    <Table.Td style={{ whiteSpace: 'pre-wrap' }}>
                      {showBidiControls(snippet ? snippet.text : (entry.answer ?? ''))}
                    </Table.Td>
                  </Table.Tr>
                );
              })}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
      <Group gap="sm">
        {cursor !== null && (
          <Button variant="default" onClick={() => goTo(null)}>
            Newest
          </Button>
        )}
        {page.data?.nextCursor != null && (
          <Button variant="default" onClick={() => goTo(page.data?.nextCursor ?? null)}>
            Older
          </Button>
        )}
      </Group>
    </Stack>
  );
}

export default ActivityPage;
