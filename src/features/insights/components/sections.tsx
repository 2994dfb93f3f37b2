// The page's figures other than the charts: the missed questions (each opens its History), where
// the work comes from, who did it, and what waits now.
import '@mantine/core/styles/Overlay.layer.css';
import '@mantine/core/styles/ModalBase.layer.css';
import '@mantine/core/styles/Modal.layer.css';
// The charts' legends draw their colours with it.
import '@mantine/core/styles/ColorSwatch.layer.css';
import { BarsList } from '@mantine/charts';
import { Anchor, Card, Group, Modal, Stack, Text, Title, UnstyledButton } from '@mantine/core';
import { type ReactNode, useState } from 'react';
import { LoadBoundary } from '@/components/load-boundary';
import { type AuditSubject, useShell } from '@/config/shell-context';
import { formatDuration, formatExact } from '@/lib/format-time';
import type { Insights, MissedQuestion } from '../api/schemas';
import classes from './insights-page.module.css';

/** A figure's heading with its CSV beside it. */
export function Section({
  id,
  title,
  csv,
  children,
}: {
  id: string;
  title: string;
  /** The CSV of this figure (null: none). */
  csv: string | null;
  children: ReactNode;
}) {
  return (
    <Card withBorder component="section" aria-labelledby={id} padding="md">
      <Group justify="space-between" align="baseline" mb="sm" wrap="wrap" gap="xs">
        <Title order={3} size="h4" id={id}>
          {title}
        </Title>
        {csv && (
          <Anchor href={csv} download size="sm" aria-label={`Download “${title}” as CSV`}>
            Download CSV
          </Anchor>
        )}
      </Group>
      {children}
    </Card>
  );
}

/** The id the inbox gives a question (its History and its link use it). */
function subject(question: { sourceId: string; kind: string; questionId: string }): AuditSubject {
  return {
    id:
      question.kind === 'reflexio'
        ? question.questionId
        : `${question.sourceId}:${question.questionId}`,
    status: 'expired',
    source: { id: question.sourceId, kind: question.kind },
  };
}

export function MissedList({
  missed,
  sourceName,
}: {
  missed: MissedQuestion[];
  sourceName: (id: string) => string;
}) {
  const [open, setOpen] = useState<MissedQuestion | null>(null);
  const History = useShell().audit?.History;
  if (missed.length === 0) {
    return (
      <Text size="sm">
        None in this range: every question that expired had a reviewer’s action.
      </Text>
    );
  }
  return (
    <>
      <Stack component="ol" gap={4} style={{ listStyle: 'none', paddingLeft: 0, margin: 0 }}>
        {missed.map((question) => (
          <li key={`${question.sourceId}:${question.questionId}`}>
            <UnstyledButton
              onClick={() => setOpen(question)}
              style={{ display: 'block', width: '100%' }}
              aria-haspopup="dialog"
            >
              <Text size="sm" fw={600} lineClamp={2} style={{ wordBreak: 'break-word' }}>
                {question.asked || '(no text)'}
              </Text>
              <Text size="xs" c="dimmed">
                {sourceName(question.sourceId)}
                {question.agent ? ` · ${question.agent}` : ''} · expired{' '}
                <time dateTime={question.closedSeen}>
                  {formatExact(Date.parse(question.closedSeen))}
                </time>
              </Text>
            </UnstyledButton>
          </li>
        ))}
      </Stack>
      <Modal
        opened={open !== null}
        onClose={() => setOpen(null)}
        title="Missed question"
        size="lg"
        closeButtonProps={{ 'aria-label': 'Close' }}
      >
        {open && (
          <Stack gap="sm">
            <Text style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-word' }}>{open.asked}</Text>
            <Text size="sm" c="dimmed">
              {sourceName(open.sourceId)} · {open.questionId} · first seen{' '}
              {formatExact(Date.parse(open.firstSeen))}
              {open.expiresAt ? ` · expired ${formatExact(Date.parse(open.expiresAt))}` : ''}
            </Text>
            {History ? (
              <LoadBoundary what="The history of this question" parts={[History]}>
                <History questions={[subject(open)]} />
              </LoadBoundary>
            ) : null}
          </Stack>
        )}
      </Modal>
    </>
  );
}

/** Counts as bars with their numbers (plain HTML: screen readers read it as it is). */
export function Counts({
  rows,
  others,
  label,
  empty,
}: {
  rows: { name: string; value: number }[];
  others?: number;
  label: string;
  empty: string;
}) {
  if (rows.length === 0) return <Text size="sm">{empty}</Text>;
  return (
    <BarsList
      data={[...rows, ...(others ? [{ name: '(all others)', value: others }] : [])].map((row) => ({
        ...row,
        color: 'blue.2',
        textColor: 'dark.9',
      }))}
      barsLabel={label}
      valueLabel="Count"
    />
  );
}

export function NowFigures({
  now,
  sourceName,
}: {
  now: Insights['now'];
  sourceName: (id: string) => string;
}) {
  const pending = now.bySystem.reduce((sum, s) => sum + s.pending, 0);
  const expiring = now.bySystem.reduce((sum, s) => sum + s.expiringUnclaimed, 0);
  const oldest = now.oldest;
  return (
    <div className={classes.now}>
      <div>
        <Text size="xl" fw={700} data-testid="now-pending">
          {pending}
        </Text>
        <Text size="sm">waiting now</Text>
        <Text size="xs" c="dimmed">
          {now.bySystem.length === 0
            ? 'in no system'
            : now.bySystem.map((s) => `${sourceName(s.sourceId)} ${s.pending}`).join(' · ')}
        </Text>
      </div>
      <div>
        <Text size="xl" fw={700} data-testid="now-oldest">
          {oldest ? formatDuration(Date.parse(now.at) - Date.parse(oldest.firstSeen)) : '–'}
        </Text>
        <Text size="sm">the oldest has waited</Text>
        {oldest && (
          <Text size="xs" c="dimmed" lineClamp={2} style={{ wordBreak: 'break-word' }}>
            {sourceName(oldest.sourceId)}: {oldest.asked}
          </Text>
        )}
      </div>
      <div>
        <Text
          size="xl"
          fw={700}
          data-testid="now-expiring"
          c={
            expiring > 0
              ? 'light-dark(var(--mantine-color-red-8), var(--mantine-color-red-4))'
              : undefined
          }
        >
          {expiring}
        </Text>
        <Text size="sm">expire within 10 minutes, nobody’s claim on them</Text>
      </div>
    </div>
  );
}
