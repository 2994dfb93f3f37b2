const KEY = 'questions-inbox:embed';

/**
 * Compact view without the app header, for embedding in another portal: `embed: true` in
 * config.json, or `?embed=1` on the first URL (remembered for the tab, since filter changes
 * rewrite the query string).
 */
export function resolveEmbed(configEmbed: boolean, search: string): boolean {
  if (configEmbed) return true;
  const asked = new URLSearchParams(search).get('embed');
  try {
    if (asked === '1' || asked === 'true') window.sessionStorage.setItem(KEY, '1');
    if (asked === '0' || asked === 'false') window.sessionStorage.removeItem(KEY);
    return window.sessionStorage.getItem(KEY) === '1';
  } catch {
    return asked === '1' || asked === 'true';
  }
}
