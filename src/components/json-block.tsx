import { Anchor, Code, Stack, Text } from '@mantine/core';
import { useMemo, useState } from 'react';
import { jsonText } from '@/lib/bounded-json';
import { showBidiControls } from '@/lib/show-bidi';

const SHORT = { maxDepth: 10, maxChars: 20_000 };
/** "Show the whole …": everything up to these bounds (deeper than this is unreadable anyway). */
const WHOLE = { maxDepth: 200, maxChars: 2_000_000 };

/**
 * Agent-written JSON shown as readable, indented text (never as HTML), bounded in depth and size:
 * a value nested thousands of levels deep or megabytes long shows its first part and says so.
 */
export function JsonBlock({ value, label }: { value: unknown; label: string }) {
  const [whole, setWhole] = useState(false);
  const { text, cut } = useMemo(() => {
    const json = jsonText(value, { indent: 2, ...(whole ? WHOLE : SHORT) });
    // JSON leaves direction controls as they are: `"fdp.exe"` would read as `"exe.pdf"`.
    return { ...json, text: showBidiControls(json.text) };
  }, [value, whole]);
  return (
    <Stack gap={4}>
      <Code block aria-label={label} className="json-block" tabIndex={0}>
        {cut === 'length' ? `${text}\n…` : text}
      </Code>
      {cut === 'length' && (
        <Text size="xs" c="dimmed">
          Cut at {(whole ? WHOLE : SHORT).maxChars.toLocaleString('en')} characters.
        </Text>
      )}
      {cut !== null && !whole && (
        <Anchor component="button" type="button" size="sm" onClick={() => setWhole(true)}>
          Show the whole {label.toLowerCase()}
        </Anchor>
      )}
    </Stack>
  );
}
