// How the team is doing (docs/insights.md): how long agents waited, what was missed, where the
// work comes from and who did it, what waits now. Loaded only when opened; its figures come from
// the portal server (portal-api/insights), computed in its database.
import '@mantine/core/styles/Input.layer.css';
import '@mantine/core/styles/Card.layer.css';
import { Alert, Button, Group, NativeSelect, Stack, Text, TextInput, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { type FormEvent, useEffect, useMemo, useState } from 'react';
import { sourceLabel, useRuntimeConfig } from '@/config/runtime-config';
import { isApiError } from '@/lib/api-client';
import { describeError } from '@/lib/describe-error';
import { markFirstScreenShown } from '@/lib/idle';
import { insightsQueries } from '../api/queries';
import { insightsCsvHref } from '../api/requests';
import type { CsvFigure, InsightsQuery } from '../api/schemas';
import { formatWait } from '../utils/format';
import {
  type InsightsParams,
  queryFor,
  RANGE_LABELS,
  RANGES,
  type Range,
  readerTimeZone,
  readParams,
  writeParams,
} from '../utils/range';
import { OutcomeChart, WaitChart } from './charts';
import classes from './insights-page.module.css';
import { Counts, MissedList, NowFigures, Section } from './sections';

/** The minute now: the range moves with it (and the figures are read again). */
function useMinute(): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 60_000);
    return () => clearInterval(timer);
  }, []);
  return now;
}

function Filters({
  value,
  onApply,
  sources,
}: {
  value: InsightsParams;
  onApply: (next: InsightsParams) => void;
  sources: { value: string; label: string }[];
}) {
  const [range, setRange] = useState<Range>(value.range);
  const apply = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const text = (name: string) => String(form.get(name) ?? '').trim() || undefined;
    onApply({
      range,
      from: text('from'),
      to: text('to'),
      source: text('source'),
      tag: text('tag'),
      agent: text('agent'),
    });
  };
  return (
    <form onSubmit={apply} aria-label="Filter the figures">
      <Group align="end" gap="sm" wrap="wrap">
        <NativeSelect
          label="Range"
          name="range"
          value={range}
          onChange={(event) => setRange(event.currentTarget.value as Range)}
          data={RANGES.map((r) => ({ value: r, label: RANGE_LABELS[r] }))}
        />
        {range === 'custom' && (
          <>
            <TextInput
              label="From"
              name="from"
              type="date"
              defaultValue={value.from ?? ''}
              required
            />
            <TextInput label="To" name="to" type="date" defaultValue={value.to ?? ''} required />
          </>
        )}
        <NativeSelect
          label="System"
          name="source"
          defaultValue={value.source ?? ''}
          data={[
            { value: '', label: 'Any' },
            ...sources,
            ...(value.source && !sources.some((s) => s.value === value.source)
              ? [{ value: value.source, label: value.source }]
              : []),
          ]}
        />
        <TextInput label="Tag" name="tag" defaultValue={value.tag ?? ''} />
        <TextInput label="Agent or user" name="agent" defaultValue={value.agent ?? ''} />
        <Button type="submit">Apply</Button>
      </Group>
    </form>
  );
}

export function InsightsPage({
  params,
  setParams,
}: {
  params: URLSearchParams;
  setParams: (next: URLSearchParams) => void;
}) {
  const config = useRuntimeConfig();
  const filters = useMemo(() => readParams(params), [params]);
  const minute = Math.floor(useMinute() / 60_000);
  const timeZone = useMemo(readerTimeZone, []);
  // biome-ignore lint/correctness/useExhaustiveDependencies: the range moves once a minute, not on every render
  const query: InsightsQuery | null = useMemo(
    () => queryFor(filters, Date.now(), timeZone),
    [filters, minute, timeZone],
  );
  const figures = useQuery({
    ...insightsQueries.figures(query ?? { from: '', to: '', tz: timeZone }),
    enabled: query !== null,
  });
  useEffect(markFirstScreenShown, []);

  const names = new Map(config.sources.map((source) => [source.id, sourceLabel(source)]));
  const sourceName = (id: string) => names.get(id) ?? id;
  const csv = (figure: CsvFigure) => (query ? insightsCsvHref(query, figure) : null);
  const data = figures.data;
  const showReviewers = config.insightsPerReviewer && data?.perReviewer !== false;

  let body: React.ReactNode;
  if (query === null) {
    body = <Text>Choose the first and last day of the range, then Apply.</Text>;
  } else if (data) {
    const { total } = data;
    const bucket = data.filter.bucket;
    body = (
      <Stack gap="md">
        {figures.error && (
          <Alert color="yellow" title="These figures may be out of date">
            {describeError(figures.error).message}
          </Alert>
        )}
        <Section id="insights-now" title="Now" csv={csv('pending')}>
          <NowFigures now={data.now} sourceName={sourceName} />
        </Section>
        <Section id="insights-waits" title="How long agents waited" csv={csv('days')}>
          <Text size="sm" mb="xs" data-testid="wait-summary">
            {total.responded === 0
              ? 'No question first seen in this range has had a reviewer’s action yet.'
              : `Median ${formatWait(total.medianWaitSeconds)}, 90th percentile ${formatWait(total.p90WaitSeconds)}, over ${total.responded} of ${total.asked} questions answered through the portal.`}
            {config.responseTargetMinutes !== undefined &&
              ` Target: ${config.responseTargetMinutes} min.`}
          </Text>
          <WaitChart
            buckets={data.buckets}
            bucket={bucket}
            targetMinutes={config.responseTargetMinutes}
          />
        </Section>
        <Section id="insights-outcomes" title="What became of the questions" csv={csv('days')}>
          <Text size="sm" mb="xs" data-testid="outcome-summary">
            {`${total.asked} asked: ${total.responded} answered, ${total.missed} missed (expired with nobody acting), ${total.closedOtherwise} closed otherwise, ${total.waiting} still waiting.`}
          </Text>
          <OutcomeChart buckets={data.buckets} bucket={bucket} />
        </Section>
        <Section id="insights-missed" title="Last missed questions" csv={csv('missed')}>
          <MissedList missed={data.missed} sourceName={sourceName} />
        </Section>
        <div className={classes.pair}>
          <Section id="insights-systems" title="Questions per system" csv={csv('systems')}>
            <Counts
              label="System"
              empty="No question in this range."
              rows={data.bySystem.map((c) => ({ name: sourceName(c.key), value: c.questions }))}
            />
          </Section>
          <Section id="insights-agents" title="Questions per agent or user" csv={csv('agents')}>
            <Counts
              label="Agent or user"
              empty="No question in this range."
              others={data.byAgent.others}
              rows={data.byAgent.top.map((c) => ({
                name: c.key || '(not named)',
                value: c.questions,
              }))}
            />
          </Section>
          <Section id="insights-tags" title="Questions per tag" csv={csv('tags')}>
            <Counts
              label="Tag"
              empty="No question in this range."
              others={data.byTag.others}
              rows={data.byTag.top.map((c) => ({ name: c.key || '(no tag)', value: c.questions }))}
            />
          </Section>
          {showReviewers && data.reviewers && (
            <Section id="insights-reviewers" title="Actions per reviewer" csv={csv('reviewers')}>
              <Counts
                label="Reviewer"
                empty="Nobody did anything through the portal in this range."
                others={data.reviewers.others}
                rows={data.reviewers.top.map((r) => ({
                  name: r.reviewerName ? `${r.reviewerName} (${r.reviewer})` : r.reviewer,
                  value: r.total,
                }))}
              />
            </Section>
          )}
        </div>
      </Stack>
    );
  } else if (figures.error) {
    const noServer = isApiError(figures.error) && figures.error.status === 404;
    body = (
      <Alert color="red" title="The figures could not be read">
        {noServer
          ? 'This deployment serves the portal without its server, which is what keeps these figures.'
          : describeError(figures.error).message}{' '}
        {!noServer && (
          <Button size="compact-sm" variant="light" onClick={() => void figures.refetch()}>
            Retry
          </Button>
        )}
      </Alert>
    );
  } else {
    body = <Text>Loading the figures…</Text>;
  }

  return (
    <Stack maw={1200} mx="auto" p="md" gap="md">
      <Title order={2}>Insights</Title>
      <Filters
        key={params.toString()}
        value={filters}
        onApply={(next) => setParams(writeParams(next))}
        sources={config.sources.map((s) => ({ value: s.id, label: sourceLabel(s) }))}
      />
      {body}
    </Stack>
  );
}

export default InsightsPage;
