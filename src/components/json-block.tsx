import { Code } from '@mantine/core';
import { useMemo } from 'react';

const MAX_CHARS = 20_000;

/** Agent-written JSON shown as readable, indented text (never as HTML), bounded in size. */
export function JsonBlock({ value, label }: { value: unknown; label: string }) {
  const text = useMemo(() => {
    const full = JSON.stringify(value, null, 2) ?? String(value);
    return full.length > MAX_CHARS
      ? `${full.slice(0, MAX_CHARS)}\n… (${full.length - MAX_CHARS} more characters)`
      : full;
  }, [value]);
  return (
    <Code block aria-label={label} className="json-block" tabIndex={0}>
      {text}
    </Code>
  );
}
