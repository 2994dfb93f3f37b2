import type { CSSProperties } from 'react';
import type { QuestionStatus } from '../../api/schemas';
import { statusMeta } from '../../utils/question-policy';
import classes from './badge.module.css';

// The colour comes from statusMeta: the badge's CSS reads these two variables. Set through the
// CSSOM by React, which the page's CSP (style-src 'self') allows; one object per status.
const colours = Object.fromEntries(
  Object.entries(statusMeta).map(([status, { color }]) => [
    status,
    {
      '--badge-bg': `var(--mantine-color-${color}-light)`,
      '--badge-fg': `var(--mantine-color-${color}-light-color)`,
    } as CSSProperties,
  ]),
) as Record<QuestionStatus, CSSProperties>;

/** Colour plus the status word, of the status the reviewer sees (`displayStatus`). */
export function StatusBadge({
  status,
  size = 'sm',
}: {
  status: QuestionStatus;
  size?: 'sm' | 'lg';
}) {
  return (
    <span
      className={`status-badge ${classes.badge} ${classes.light} ${classes.upper} ${size === 'lg' ? classes.lg : ''}`}
      style={colours[status]}
    >
      {statusMeta[status].label}
    </span>
  );
}
