/**
 * How long to wait before the next poll: the configured interval while things change or someone
 * types, then twice as long after each further poll that changed nothing, up to `maxMs`.
 */
export interface PollScheduleInput {
  baseMs: number;
  maxMs: number;
  /** Polls in a row whose answer was the same as the one before. */
  unchangedPolls: number;
  /** The reviewer typed within the last `baseMs`. */
  typing: boolean;
  /** Polls that change nothing before the schedule starts to slow down. */
  calmAfter?: number;
}

export function nextPollDelay({
  baseMs,
  maxMs,
  unchangedPolls,
  typing,
  calmAfter = 3,
}: PollScheduleInput): number {
  if (typing || unchangedPolls < calmAfter) return baseMs;
  const slowed = baseMs * 2 ** (unchangedPolls - calmAfter + 1);
  return Math.max(baseMs, Math.min(maxMs, slowed));
}
