import { useLayoutEffect, useMemo, useRef } from 'react';
import { serverNow, useClock } from '@/lib/clock';
import { formatDuration, formatExact } from '@/lib/format-time';
import { urgency } from '../../utils/status';
import classes from './countdown.module.css';

const sizes = { xs: classes.xs, sm: classes.sm, md: classes.md };

type Level = 'calm' | 'warning' | 'danger' | 'expired';

function read(
  expiresAt: number,
  createdAt: number | null,
  now: number,
): { text: string; level: Level } {
  const left = expiresAt - now;
  const life = createdAt === null ? null : expiresAt - createdAt;
  return left <= 0
    ? { text: 'expired', level: 'expired' }
    : { text: `expires in ${formatDuration(left)}`, level: urgency(left, life) };
}

/**
 * "expires in 4m 12s" by the clock of the question's own server, driven by the page's one shared
 * clock. Each tick writes the new text into
 * the span directly: no React render of the row, and the span has a fixed size and is contained,
 * so the browser lays out and paints that span alone, not the list.
 */
export function Countdown({
  expiresAt,
  createdAt = null,
  sourceId,
  size = 'sm',
}: {
  expiresAt: number;
  /** The question's source (`question.source.id`): its server's clock decides. */
  sourceId: string;
  /** When it was asked: a question near the end of a long life is urgent sooner (see urgency). */
  createdAt?: number | null;
  size?: 'xs' | 'sm' | 'md';
}) {
  const clock = useClock();
  const ref = useRef<HTMLSpanElement>(null);
  const title = useMemo(() => `Expires ${formatExact(expiresAt)}`, [expiresAt]);
  useLayoutEffect(() => {
    const span = ref.current;
    if (!span) return;
    const text = document.createTextNode('');
    span.replaceChildren(text);
    const update = () => {
      const next = read(expiresAt, createdAt, serverNow(clock, sourceId));
      if (text.data !== next.text) text.data = next.text;
      if (span.dataset.urgency !== next.level) span.dataset.urgency = next.level;
    };
    update();
    return clock.subscribe(update);
  }, [clock, expiresAt, createdAt, sourceId]);
  // Rendered without children: the text node belongs to the effect, never to React.
  return <span ref={ref} className={`${classes.countdown} ${sizes[size]}`} title={title} />;
}
