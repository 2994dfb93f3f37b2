/** The first line of an error's message, for a log line or a plain-words reply. */
export function message(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).split('\n')[0] ?? 'unknown error';
}
