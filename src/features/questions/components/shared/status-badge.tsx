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

// A question answered "not applicable" is resolved for the server, not answered for the reviewer.
const notApplicableColour = {
  '--badge-bg': 'var(--mantine-color-orange-light)',
  '--badge-fg': 'var(--mantine-color-orange-light-color)',
} as CSSProperties;

/** Colour plus the status word, of the status the reviewer sees (`displayStatus`). */
export function StatusBadge({
  status,
  size = 'sm',
  notApplicable = false,
}: {
  status: QuestionStatus;
  size?: 'sm' | 'lg';
  /** Resolved as not applicable: its own badge, not "Resolved". */
  notApplicable?: boolean;
}) {
  const own = notApplicable && status === 'resolved';
  return (
    <span
      className={`status-badge ${classes.badge} ${classes.light} ${classes.upper} ${size === 'lg' ? classes.lg : ''}`}
      style={own ? notApplicableColour : colours[status]}
    >
      {own ? 'Not applicable' : statusMeta[status].label}
    </span>
  );
}
