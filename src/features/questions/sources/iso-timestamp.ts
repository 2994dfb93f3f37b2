import * as z from 'zod/mini';
import { lazySchema } from '@/lib/lazy-schema';

/** An ISO 8601 time on the wire (Reflexio, Bilby) → epoch ms; null or missing → null. */
export const isoTimestamp = lazySchema(() =>
  z.pipe(
    z.nullish(z.string()),
    z.transform((value, ctx) => {
      if (value == null) return null;
      const ms = Date.parse(value);
      if (Number.isNaN(ms)) {
        ctx.issues.push({
          code: 'custom',
          message: `not a date: ${value.slice(0, 40)}`,
          input: value,
        });
        return z.NEVER;
      }
      return ms;
    }),
  ),
);
