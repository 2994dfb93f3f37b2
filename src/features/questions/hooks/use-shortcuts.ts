import { useLayoutEffect, useRef } from 'react';
import { useSwitchPreference } from '@/lib/preferences';

/** Single-key shortcuts can be turned off (WCAG 2.1.4); remembered in this browser. */
export function useSingleKeyShortcuts() {
  return useSwitchPreference('single-key-shortcuts', true);
}

const NOT_TEXT_INPUTS = new Set([
  'button',
  'checkbox',
  'color',
  'file',
  'image',
  'radio',
  'range',
  'reset',
  'submit',
]);

/** Where a key typed goes into text: a shortcut letter there is the reviewer's text, not a command. */
export function isTextField(element: Element | null): boolean {
  if (!element) return false;
  if (element instanceof HTMLTextAreaElement || element instanceof HTMLSelectElement) return true;
  if (element instanceof HTMLInputElement) return !NOT_TEXT_INPUTS.has(element.type);
  return element instanceof HTMLElement && element.isContentEditable;
}

/** A dialog over the page (a confirmation, the shortcuts help) takes the keys while it is open. */
export function dialogOpen(): boolean {
  return document.querySelector('.mantine-Modal-content') !== null;
}

export type KeyBindings = Record<string, (event: KeyboardEvent) => void>;

/**
 * Single-key shortcuts (`j`, `x`, `1`, `?`…): they never fire while the cursor is in a text field
 * or a dialog is open, with Ctrl, ⌘ or Alt held, or when the reviewer turned them off. Keys are
 * matched on `event.key`; the handler runs with the latest bindings.
 */
export function useKeys(bindings: KeyBindings, active = true) {
  const [enabled] = useSingleKeyShortcuts();
  const latest = useRef(bindings);
  latest.current = bindings;
  // Attached as the rows are committed, not a task later: a key pressed as soon as the list shows
  // (a fast reviewer; a journey on a loaded machine, once) was otherwise lost.
  useLayoutEffect(() => {
    if (!active || !enabled) return;
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.defaultPrevented || event.ctrlKey || event.metaKey || event.altKey) return;
      if (event.isComposing || isTextField(document.activeElement) || dialogOpen()) return;
      const handler = latest.current[event.key];
      if (!handler) return;
      handler(event);
    };
    document.addEventListener('keydown', onKeyDown);
    return () => document.removeEventListener('keydown', onKeyDown);
  }, [active, enabled]);
}
