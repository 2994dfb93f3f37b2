/**
 * The version of the portal server's copy a list says it shows (`copyVersion`, beside the
 * system's own fields, where the server watches that system); null from the system itself.
 */
export function copyVersion(body: unknown): number | null {
  const value =
    typeof body === 'object' && body !== null
      ? (body as { copyVersion?: unknown }).copyVersion
      : null;
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0 ? value : null;
}
