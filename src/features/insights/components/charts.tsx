// The two charts (Recharts through @mantine/charts: this file and its libraries load only with
// the Insights page). Each is a picture for the eye, hidden from screen readers, with the same
// numbers in a table they read instead.
import '@mantine/charts/styles.layer.css';
import { BarChart, LineChart } from '@mantine/charts';
import type { ReactNode } from 'react';
import type { InsightsBucket } from '../api/schemas';
import { formatBucket, formatWait } from '../utils/format';

const minutes = (seconds: number | null) =>
  seconds === null ? null : Math.round((seconds / 60) * 10) / 10;

/** The chart's numbers as a table only screen readers see. */
function ScreenReaderTable({
  caption,
  head,
  rows,
}: {
  caption: string;
  head: string[];
  rows: ReactNode[][];
}) {
  return (
    <table className="visually-hidden">
      <caption>{caption}</caption>
      <thead>
        <tr>
          {head.map((cell) => (
            <th key={cell} scope="col">
              {cell}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {rows.map((row, index) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: rows are the buckets, in order, never reordered
          <tr key={index}>
            {row.map((cell, column) =>
              column === 0 ? (
                <th key={head[column]} scope="row">
                  {cell}
                </th>
              ) : (
                <td key={head[column]}>{cell}</td>
              ),
            )}
          </tr>
        ))}
      </tbody>
    </table>
  );
}

// Recharts' keyboard layer makes the picture a focusable "application": hidden from screen
// readers, it must not take focus either (they read the table).
const noKeyboardLayer = { accessibilityLayer: false } as const;

export function WaitChart({
  buckets,
  bucket,
  targetMinutes,
}: {
  buckets: InsightsBucket[];
  bucket: 'hour' | 'day';
  targetMinutes: number | undefined;
}) {
  const data = buckets.map((b) => ({
    when: formatBucket(b.label, bucket),
    median: minutes(b.medianWaitSeconds),
    p90: minutes(b.p90WaitSeconds),
  }));
  return (
    <>
      <div aria-hidden="true" data-testid="wait-chart">
        <LineChart
          h={240}
          data={data}
          dataKey="when"
          unit=" min"
          connectNulls={false}
          series={[
            { name: 'median', label: 'Median', color: 'blue.6' },
            { name: 'p90', label: '90th percentile', color: 'orange.6' },
          ]}
          referenceLines={
            targetMinutes === undefined
              ? []
              : [{ y: targetMinutes, label: `Target ${targetMinutes} min`, color: 'red.6' }]
          }
          withLegend
          lineChartProps={noKeyboardLayer}
        />
      </div>
      <ScreenReaderTable
        caption={`Time agents waited per ${bucket}${targetMinutes === undefined ? '' : ` (target ${targetMinutes} minutes)`}`}
        head={[bucket === 'day' ? 'Day' : 'Hour', 'Answered', 'Median wait', '90th percentile']}
        rows={buckets.map((b) => [
          formatBucket(b.label, bucket),
          b.responded,
          formatWait(b.medianWaitSeconds),
          formatWait(b.p90WaitSeconds),
        ])}
      />
    </>
  );
}

export function OutcomeChart({
  buckets,
  bucket,
}: {
  buckets: InsightsBucket[];
  bucket: 'hour' | 'day';
}) {
  const data = buckets.map((b) => ({
    when: formatBucket(b.label, bucket),
    responded: b.responded,
    missed: b.missed,
    closedOtherwise: b.closedOtherwise,
    waiting: b.waiting,
  }));
  return (
    <>
      <div aria-hidden="true" data-testid="outcome-chart">
        <BarChart
          h={240}
          data={data}
          dataKey="when"
          type="stacked"
          series={[
            { name: 'responded', label: 'Answered', color: 'teal.6' },
            { name: 'missed', label: 'Missed', color: 'red.6' },
            { name: 'closedOtherwise', label: 'Closed otherwise', color: 'gray.6' },
            { name: 'waiting', label: 'Still waiting', color: 'yellow.6' },
          ]}
          withLegend
          barChartProps={noKeyboardLayer}
        />
      </div>
      <ScreenReaderTable
        caption={`Questions per ${bucket}, by what became of them`}
        head={[
          bucket === 'day' ? 'Day' : 'Hour',
          'Asked',
          'Answered',
          'Missed',
          'Closed otherwise',
          'Still waiting',
        ]}
        rows={buckets.map((b) => [
          formatBucket(b.label, bucket),
          b.asked,
          b.responded,
          b.missed,
          b.closedOtherwise,
          b.waiting,
        ])}
      />
    </>
  );
}
