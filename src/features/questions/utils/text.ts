/** Agent-written text can be megabytes long; previews show a bounded slice of it. */
export function truncateText(text: string, max: number): string {
  if (text.length <= max) return text;
  return `${text.slice(0, max).trimEnd()}…`;
}

export function formatBytes(length: number): string {
  if (length < 1024) return `${length} characters`;
  if (length < 1024 * 1024) return `${(length / 1024).toFixed(0)} KB`;
  return `${(length / (1024 * 1024)).toFixed(1)} MB`;
}

/** React keys for agent-written values that may repeat (the same tag twice): value, then value#2… */
export function repeatKeys(values: string[]): string[] {
  const seen = new Map<string, number>();
  return values.map((value) => {
    const n = (seen.get(value) ?? 0) + 1;
    seen.set(value, n);
    return n === 1 ? value : `${value}\u0000${n}`;
  });
}
