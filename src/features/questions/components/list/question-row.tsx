import { Text } from '@mantine/core';
import { IconPencil } from '@tabler/icons-react';
import { memo, useId } from 'react';
import { TimeAgo } from '@/components/time-ago';
import type { Question } from '../../api/schemas';
import { useStatusNow } from '../../hooks/use-status-now';
import { displayStatus } from '../../utils/question-policy';
import { isAskHuman, isNotApplicable, resultSummary } from '../../utils/status';
import { truncateText } from '../../utils/text';
import badge from '../shared/badge.module.css';
import { Countdown } from '../shared/countdown';
import { StatusBadge } from '../shared/status-badge';
import classes from './question-row.module.css';

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
  /** `div` inside a virtualized list's own `<li>` slot. */
  as?: 'li' | 'div';
}

export const QuestionRow = memo(function QuestionRow({
  question,
  isNew,
  hasDraft,
  isOpen,
  href,
  as: Element = 'li',
}: QuestionRowProps) {
  const status = displayStatus(question, useStatusNow(question));
  const closed = status !== 'pending';
  const summary = resultSummary(question);
  // Status, tags, user and countdown describe the row's link for screen readers.
  const domId = `q-${useId()}`;
  return (
    <Element
      className={classes.row}
      data-question-id={question.id}
      data-open={isOpen || undefined}
      data-closed={closed || undefined}
    >
      <div className={classes.top} id={`${domId}-top`}>
        <StatusBadge status={status} />
        {isNew && <span className={`${badge.badge} ${badge.filled} ${badge.upper}`}>New</span>}
        {hasDraft && (
          <span className={`${badge.badge} ${badge.outline} ${badge.upper}`}>
            <IconPencil size={12} aria-hidden />
            Draft
          </span>
        )}
        {!isAskHuman(question) && (
          <span className={`${badge.badge} ${badge.mono}`}>
            {truncateText(question.toolName, 60)}
          </span>
        )}
        {question.tags.map((tag) => (
          <span key={tag} className={`${badge.badge} ${badge.light}`}>
            {truncateText(tag, 60)}
          </span>
        ))}
      </div>
      <a
        href={href}
        className={classes.link}
        data-row-link
        aria-describedby={`${domId}-top ${domId}-meta`}
      >
        <span className={classes.text} dir="auto">
          {truncateText(question.questionText, 400) || <em>(no question text)</em>}
        </span>
      </a>
      <div className={classes.meta} id={`${domId}-meta`}>
        {question.userId && (
          <span className={classes.user} title={question.userId}>
            {truncateText(question.userId, 80)}
          </span>
        )}
        {question.createdAt !== null && <TimeAgo at={question.createdAt} prefix="asked" />}
        {question.status === 'pending' && question.expiresAt !== null && (
          <Countdown expiresAt={question.expiresAt} />
        )}
        {summary !== null && (
          <Text component="span" size="sm" className={classes.answer} dir="auto">
            {isNotApplicable(question) ? (
              <em>Not applicable</em>
            ) : (
              `Answer: ${truncateText(summary, 200)}`
            )}
          </Text>
        )}
      </div>
    </Element>
  );
});
