import { useLayoutEffect, useRef, useState } from 'react';
import { firstScreenServerNow, serverNow, useClock } from '@/lib/clock';
import { formatDuration } from '@/lib/format-time';
import { useExactTime } from '@/lib/use-exact-time';
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
 * clock. Each tick writes the new text into the span's text node directly: no React render of the
 * row, and the span has a fixed size and is contained, so the browser lays out and paints that
 * span alone, not the list. React renders the first reading once (the server's render of the first
 * screen shows it, and the browser's takes it over as it is) and never changes it after: the
 * children stay the same string, so React leaves the node to the effect.
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
  const exact = useExactTime(expiresAt);
  const title = exact === undefined ? undefined : `Expires ${exact}`;
  // The server's reading where the page came with its first screen: what its HTML says, for the
  // browser to take over as it is, whenever this part of the page is taken over. A countdown
  // mounted later renders it too, and the layout effect below writes the live reading before the
  // page is painted: so nothing re-renders every countdown once the page is taken over (with a
  // hook telling the two apart, that re-render held the first click back).
  const [first] = useState(() => read(expiresAt, createdAt, firstScreenServerNow(clock, sourceId)));
  useLayoutEffect(() => {
    const span = ref.current;
    if (!span) return;
    const text =
      span.firstChild instanceof Text && span.childNodes.length === 1
        ? span.firstChild
        : span.appendChild(document.createTextNode(''));
    const update = () => {
      const next = read(expiresAt, createdAt, serverNow(clock, sourceId));
      if (text.data !== next.text) text.data = next.text;
      if (span.dataset.urgency !== next.level) span.dataset.urgency = next.level;
    };
    update();
    return clock.subscribe(update);
  }, [clock, expiresAt, createdAt, sourceId]);
  return (
    <span
      ref={ref}
      className={`${classes.countdown} ${sizes[size]}`}
      title={title}
      data-urgency={first.level}
    >
      {first.text}
    </span>
  );
}
