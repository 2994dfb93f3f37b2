import { useStoredValue } from './stored-value';

const onOff = (value: boolean) => (value ? 'on' : 'off');

/**
 * A reviewer's on/off choice, remembered in this browser: every component using the same key sees
 * a change at once, in every tab; a browser that refuses storage keeps it for the session. The
 * server's render shows the default (see useStoredValue).
 */
export function useSwitchPreference(key: string, defaultValue: boolean) {
  return useStoredValue(`qi:${key}`, {
    parse: (raw) => (raw === null ? defaultValue : raw === 'on'),
    serialize: onOff,
    serverValue: defaultValue,
  });
}
