import { useLocalStorage } from '@mantine/hooks';

/**
 * A reviewer's on/off choice, remembered in this browser. Every component using the same key sees
 * a change at once (Mantine syncs them); a browser that refuses storage keeps it for the session.
 */
export function useSwitchPreference(key: string, defaultValue: boolean) {
  return useLocalStorage<boolean>({
    key: `qi:${key}`,
    defaultValue,
    getInitialValueInEffect: false,
    serialize: (value) => (value ? 'on' : 'off'),
    deserialize: (value) => (value === undefined || value === null ? defaultValue : value === 'on'),
  });
}
