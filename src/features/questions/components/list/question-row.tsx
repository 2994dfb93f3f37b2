import { Text } from '@mantine/core';
import { IconPencil } from '@tabler/icons-react';
import { memo, useId } from 'react';
import { LoadBoundary } from '@/components/load-boundary';
import { TimeAgo } from '@/components/time-ago';
import { useShell } from '@/config/shell-context';
import type { Question, QuestionStatus } from '../../api/schemas';
import { useStatusNow } from '../../hooks/use-status-now';
import { askersSpanned } from '../../utils/lookalikes';
import { displayStatus } from '../../utils/question-policy';
import { isAskHuman, isNotApplicable, resultSummary } from '../../utils/status';
import { displayText, repeatKeys } from '../../utils/text';
import badge from '../shared/badge.module.css';
import { Countdown } from '../shared/countdown';
import { StatusBadge } from '../shared/status-badge';
import { LookalikeMembers, type RowGroup } from './lookalike-members';
import classes from './question-row.module.css';

/** Tags shown in a row; the rest are counted ("+4,990"): one record must not make a row pages tall. */
export const ROW_TAGS = 10;

export interface QuestionRowProps {
  question: Question;
  isNew: boolean;
  hasDraft: boolean;
  isOpen: boolean;
  /**
   * The question's href (with the list's query string, so closing the drawer returns to the same
   * view). A plain link: the list opens the drawer in the app on a click (see question-list.tsx).
   */
  href: string;
  /** Its place among records with the same id (1 unless the server sent duplicates). */
  copy?: number;
  /** `div` inside a virtualized list's own `<li>` slot. */
  as?: 'li' | 'div';
  /** Several sources are configured: the row says which system asked. */
  showSource?: boolean;
  /** Ticked for a bulk action; no checkbox without `onToggle`. */
  selected?: boolean;
  onToggle?: (id: string, range: boolean) => void;
  /** The row stands for a look-alike group ("3 asks"), expandable to its members. */
  group?: RowGroup;
  /** One line: status, source, countdown and the question text, cut short. */
  compact?: boolean;
  /** The view shows this status only: a row in it says its status only when it differs (expired in time). */
  viewStatus?: QuestionStatus | null;
}

const ignoreChange = () => undefined;

export const QuestionRow = memo(function QuestionRow({
  question,
  isNew,
  hasDraft,
  isOpen,
  href,
  copy = 1,
  as: Element = 'li',
  showSource = false,
  selected = false,
  onToggle,
  group,
  compact = false,
  viewStatus = null,
}: QuestionRowProps) {
  const status = displayStatus(question, useStatusNow(question));
  const ActedBy = useShell().audit?.ActedBy;
  const closed = status !== 'pending';
  const summary = resultSummary(question);
  const rowTags = question.tags.slice(0, ROW_TAGS);
  const tagKeys = repeatKeys(rowTags);
  // Status, tags, user and countdown describe the row's link for screen readers.
  const domId = `q-${useId()}`;
  const asks = group?.members.length ?? 0;
  const spanned = group ? askersSpanned(group.members) : null;
  const groupTicked = group ? group.selectedCount === asks : false;
  const countdown =
    question.status === 'pending' &&
    (question.expiresAt !== null ? (
      <Countdown
        expiresAt={question.expiresAt}
        sourceId={question.source.id}
        createdAt={question.createdAt}
      />
    ) : (
      <span>no deadline</span>
    ));
  // A compact row's marks follow its text, so that every row's text starts at the same place.
  const marks = (
    <>
      {group && (
        <span className={`${badge.badge} ${badge.filled}`} data-testid="asks">
          {asks} asks{spanned ? ` ${spanned}` : ''}
        </span>
      )}
      {isNew && <span className={`${badge.badge} ${badge.filled} ${badge.upper}`}>New</span>}
      {hasDraft && (
        <span className={`${badge.badge} ${badge.outline} ${badge.upper}`}>
          <IconPencil size={12} aria-hidden />
          Draft
        </span>
      )}
      {!isAskHuman(question) && (
        <span className={`${badge.badge} ${badge.mono}`}>{displayText(question.toolName, 60)}</span>
      )}
    </>
  );
  const link = (
    <a
      href={href}
      className={classes.link}
      data-row-link
      aria-current={isOpen || undefined}
      aria-describedby={`${domId}-top ${domId}-meta${compact ? ` ${domId}-marks` : ''}`}
    >
      <span className={classes.text} dir="auto">
        {displayText(question.questionText, 400) || <em>(no question text)</em>}
      </span>
    </a>
  );
  return (
    <Element
      className={compact ? `${classes.row} ${classes.compact}` : classes.row}
      data-question-id={question.id}
      data-group={group ? asks : undefined}
      data-copy={copy > 1 ? copy : undefined}
      data-open={isOpen || undefined}
      data-closed={closed || undefined}
      data-selected={selected || undefined}
    >
      <div className={classes.top} id={`${domId}-top`}>
        {(group ? group.onToggle : onToggle) && (
          <input
            type="checkbox"
            className={classes.select}
            aria-label={`Select${group ? ` ${asks} asks` : ''}: ${displayText(question.questionText, 120) || question.id}`}
            checked={group ? groupTicked : selected}
            ref={(box) => {
              if (box && group) box.indeterminate = group.selectedCount > 0 && !groupTicked;
            }}
            // Ticked on click (Space too), where Shift is known; the change itself is React's.
            onChange={ignoreChange}
            onClick={(event) =>
              group
                ? group.onToggle?.(
                    group.members.map((m) => m.id),
                    !groupTicked,
                  )
                : onToggle?.(question.id, event.shiftKey)
            }
          />
        )}
        {(status !== viewStatus || isNotApplicable(question)) && (
          <StatusBadge status={status} notApplicable={isNotApplicable(question)} />
        )}
        {ActedBy && (
          <LoadBoundary what="Who acted" parts={[ActedBy]} quiet>
            <ActedBy question={question} />
          </LoadBoundary>
        )}
        {showSource && (
          <span className={`${badge.badge} ${badge.outline}`} data-source={question.source.id}>
            {question.source.label}
          </span>
        )}
        {!compact && marks}
        {!compact && question.askerName && (
          <span className={`${badge.badge} ${badge.light}`}>
            {displayText(question.askerName, 60)}
          </span>
        )}
        {!compact &&
          rowTags.map((tag, index) => (
            <span key={tagKeys[index]} className={`${badge.badge} ${badge.light}`}>
              {displayText(tag, 60)}
            </span>
          ))}
        {!compact && question.tags.length > ROW_TAGS && (
          <span className={`${badge.badge} ${badge.outline}`} data-testid="more-tags">
            +{(question.tags.length - ROW_TAGS).toLocaleString('en')}
            <span className="visually-hidden"> more tags</span>
          </span>
        )}
      </div>
      {!compact && link}
      {/* Compact: one line, the countdown (or when it was asked) before the text. */}
      <div className={classes.meta} id={`${domId}-meta`}>
        {!compact && question.userId && (
          <span className={classes.user} title={question.userId}>
            {displayText(question.userId, 80)}
          </span>
        )}
        {(!compact || !countdown) && question.createdAt !== null && (
          <TimeAgo at={question.createdAt} prefix="asked" sourceKey={question.source.id} />
        )}
        {countdown}
        {!compact && summary !== null && (
          <Text component="span" size="sm" className={classes.answer} dir="auto">
            {isNotApplicable(question) ? (
              <em>Not applicable</em>
            ) : (
              `Answer: ${displayText(summary, 200)}`
            )}
          </Text>
        )}
      </div>
      {compact && link}
      {compact && (
        <span className={classes.marks} id={`${domId}-marks`}>
          {marks}
        </span>
      )}
      {group && <LookalikeMembers lead={question} group={group} />}
    </Element>
  );
});
