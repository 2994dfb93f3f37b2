import { useMemo } from 'react';
import { sourceLabel, useRuntimeConfig } from '@/config/runtime-config';

/** The configured sources as the Source filter offers them: id and label (default the system's name). */
export function useSourceOptions(): { value: string; label: string }[] {
  const { sources } = useRuntimeConfig();
  return useMemo(
    () =>
      sources.map((source) => ({
        value: source.id,
        label: sourceLabel(source),
      })),
    [sources],
  );
}
