/**
 * One JSON object per line on stdout, for a log collector. Callers pass only what is safe to keep:
 * never headers, cookies, keys, query strings or bodies.
 */
export function logJson(fields: Record<string, unknown>): void {
  process.stdout.write(`${JSON.stringify({ time: new Date().toISOString(), ...fields })}\n`);
}
