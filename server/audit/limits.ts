// What keeps one reviewer, or a few heavy reads, from taking the trail (and with the embedded
// engine, the whole server's event loop) for themselves. No Node built-ins: the static demo's
// Service Worker runs it too.

export const DEFAULT_WRITES_PER_MINUTE = 600;

/**
 * A token bucket per reviewer: `perMinute` entries, refilled evenly over the minute, so a bulk
 * action on 200 questions goes through at once and a script posting without end is held to the
 * rate. Returns 0 when `count` entries may be written now, else the seconds to wait.
 */
export function writeRate(perMinute: number, now: () => number = Date.now) {
  const buckets = new Map<string, { tokens: number; at: number }>();
  const perMs = perMinute / 60_000;
  return (reviewer: string, count: number): number => {
    const at = now();
    const bucket = buckets.get(reviewer) ?? { tokens: perMinute, at };
    const tokens = Math.min(perMinute, bucket.tokens + (at - bucket.at) * perMs);
    if (tokens >= count) {
      buckets.set(reviewer, { tokens: tokens - count, at });
      if (buckets.size > 10_000) {
        // Reviewers whose bucket has filled again are as if never seen.
        for (const [key, value] of buckets) {
          if (value.tokens + (at - value.at) * perMs >= perMinute) buckets.delete(key);
        }
      }
      return 0;
    }
    buckets.set(reviewer, { tokens, at });
    return Math.max(1, Math.ceil((Math.min(count, perMinute) - tokens) / perMs / 1000));
  };
}

export class ReadsBusy extends Error {
  override readonly name = 'ReadsBusy';
}

/**
 * At most `running` reads of the trail at once and `waiting` more in line; past that a read is
 * refused (ReadsBusy) rather than queued without end. With `nextTask`, each read starts on a task
 * of its own, so whatever else the server has to answer (`/healthz`, an answer on its way) gets
 * its turn between two reads even where the database runs on this thread (PGlite).
 */
export function readGate(options: {
  running: number;
  waiting: number;
  nextTask?: () => Promise<void>;
}) {
  let active = 0;
  const line: (() => void)[] = [];
  const nextTask = options.nextTask ?? (() => Promise.resolve());
  return async <T>(work: () => Promise<T>): Promise<T> => {
    if (active >= options.running) {
      if (line.length >= options.waiting) throw new ReadsBusy('too many reads of the trail');
      await new Promise<void>((resolve) => line.push(resolve));
    } else {
      active++;
    }
    try {
      await nextTask();
      return await work();
    } finally {
      const next = line.shift();
      if (next) next();
      else active--;
    }
  };
}
