import { useMemo } from 'react';
import { useRuntimeConfig } from '@/config/runtime-config';
import { SOURCE_NAMES } from '../sources/types';

/** The configured sources as the Source filter offers them: id and label (default the system's name). */
export function useSourceOptions(): { value: string; label: string }[] {
  const { sources } = useRuntimeConfig();
  return useMemo(
    () =>
      sources.map((source) => ({
        value: source.id,
        label: source.label ?? SOURCE_NAMES[source.kind],
      })),
    [sources],
  );
}
