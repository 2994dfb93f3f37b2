import { Anchor, Button, CopyButton, Group, Stack, Text, Title } from '@mantine/core';
import { type ReactNode, useState } from 'react';
import { Link, useLocation } from 'react-router';
import { JsonBlock } from '@/components/json-block';
import { PartBoundary } from '@/components/part-boundary';
import { TimeAgo } from '@/components/time-ago';
import { formatExact } from '@/lib/format-time';
import { usePainted } from '@/lib/use-painted';
import type { Question } from '../../api/schemas';
import { questionPath } from '../../utils/paths';
import { displayText, repeatKeys } from '../../utils/text';
import badge from '../shared/badge.module.css';
import classes from './question-detail.module.css';

/** Tags in the drawer: a good many, all of them on request (an agent may send thousands). */
const DRAWER_TAGS = 50;

function Tags({ tags }: { tags: string[] }) {
  const [all, setAll] = useState(false);
  if (tags.length === 0) return <>—</>;
  const shown = all ? tags.slice(0, ALL_TAGS) : tags.slice(0, DRAWER_TAGS);
  const keys = repeatKeys(shown);
  return (
    <Group gap={4}>
      {shown.map((tag, index) => (
        <span key={keys[index]} className={`${badge.badge} ${badge.light} ${classes.tag}`}>
          {displayText(tag, 200)}
        </span>
      ))}
      {tags.length > shown.length &&
        (all ? (
          <Text span size="sm" c="dimmed">
            and {(tags.length - shown.length).toLocaleString('en')} more
          </Text>
        ) : (
          <Anchor component="button" type="button" size="sm" onClick={() => setAll(true)}>
            Show all {tags.length.toLocaleString('en')} tags
          </Anchor>
        ))}
    </Group>
  );
}

/** "Show all" stops here: 10,000 badges are as many as a page can lay out at once. */
const ALL_TAGS = 10_000;

function Timestamp({
  at,
  sourceId,
  none = '—',
}: {
  at: number | null;
  /** Whose clock `at` is by (the question's source). */
  sourceId: string;
  none?: string;
}) {
  if (at === null)
    return (
      <Text span c="dimmed">
        {none}
      </Text>
    );
  return (
    <>
      {formatExact(at)} (<TimeAgo at={at} sourceKey={sourceId} />)
    </>
  );
}

/** To the question that replaced this one, keeping the list's view and history behind it. */
export function SupersededLink({
  id,
  children,
  ...style
}: {
  id: string;
  children: ReactNode;
  ff?: string;
  size: string;
}) {
  const location = useLocation();
  return (
    <Anchor
      component={Link}
      to={{ pathname: questionPath(id), search: location.search }}
      state={location.state}
      replace
      {...style}
    >
      {children}
    </Anchor>
  );
}

/**
 * Where the question comes from and when: source, tags, user, tool, times, id, arguments. Below
 * the answer form, and filled in once the question has painted: the reviewer reads the question
 * first, and these held up its first paint.
 */
export function QuestionDetails({ question }: { question: Question }) {
  const painted = usePainted();
  return (
    <Stack gap="sm">
      <Title order={3} size="h5">
        Details
      </Title>
      {painted && (
        <>
          <PartBoundary what="The details of this question" resetKey={question}>
            <dl className={classes.details}>
              <dt>Source</dt>
              <dd>{question.source.label}</dd>
              <dt>Tags</dt>
              <dd>
                <Tags tags={question.tags} />
              </dd>
              <dt>User</dt>
              <dd>{question.userId === null ? '—' : displayText(question.userId, 1000)}</dd>
              <dt>Tool</dt>
              <dd>
                <Text span ff="monospace" size="sm">
                  {displayText(question.toolName, 1000)}
                </Text>
              </dd>
              <dt>Answer format</dt>
              <dd>
                {question.answerFormat === null ? '—' : displayText(question.answerFormat, 1000)}
              </dd>
              <dt>Asked</dt>
              <dd>
                <Timestamp at={question.createdAt} sourceId={question.source.id} />
              </dd>
              <dt>Expires</dt>
              <dd>
                <Timestamp
                  at={question.expiresAt}
                  sourceId={question.source.id}
                  none="No deadline"
                />
              </dd>
              <dt>Resolved</dt>
              <dd>
                <Timestamp at={question.resolvedAt} sourceId={question.source.id} />
              </dd>
              <dt>Answer valid until</dt>
              <dd>
                <Timestamp at={question.validUntil} sourceId={question.source.id} />
              </dd>
              {question.supersededBy && (
                <>
                  <dt>Superseded by</dt>
                  <dd>
                    <SupersededLink id={question.supersededBy} ff="monospace" size="sm">
                      {question.supersededBy}
                    </SupersededLink>
                  </dd>
                </>
              )}
              <dt>ID</dt>
              <dd>
                <Group gap={6} wrap="nowrap">
                  <Text span ff="monospace" size="sm" className={classes.id}>
                    {question.id}
                  </Text>
                  <CopyButton value={question.id}>
                    {({ copied, copy }) => (
                      <Button
                        size="compact-xs"
                        variant="subtle"
                        onClick={copy}
                        className={classes.copy}
                      >
                        {copied ? 'Copied' : 'Copy'}
                      </Button>
                    )}
                  </CopyButton>
                </Group>
              </dd>
            </dl>
          </PartBoundary>
          {(
            [
              ['Arguments', 'The arguments of this question', question.args],
              ['Scope', 'The scope of this question', question.scope],
            ] as const
          ).map(
            ([label, what, value]) =>
              value && (
                <div key={label} className={classes.json}>
                  <Text size="sm" c="dimmed" mb={4}>
                    {label}
                  </Text>
                  <PartBoundary what={what} resetKey={value}>
                    <JsonBlock value={value} label={label} />
                  </PartBoundary>
                </div>
              ),
          )}
        </>
      )}
    </Stack>
  );
}
