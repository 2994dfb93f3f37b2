import type { CSSProperties } from 'react';

// Inline, not a CSS module: a stylesheet of its own would add a file to what the first screen's
// code lists for this part.
export const button: CSSProperties = {
  font: 'inherit',
  fontSize: 'var(--mantine-font-size-sm)',
  padding: '2px 10px',
  borderRadius: 'var(--mantine-radius-sm)',
  border: '1px solid var(--mantine-color-default-border)',
  background: 'var(--mantine-color-default)',
  color: 'var(--mantine-color-text)',
  cursor: 'pointer',
};

export const primary: CSSProperties = {
  ...button,
  borderColor: 'transparent',
  background: 'var(--mantine-primary-color-filled)',
  color: 'var(--mantine-color-white)',
};

export const ask: CSSProperties = {
  padding: 'var(--mantine-spacing-sm)',
  borderRadius: 'var(--mantine-radius-sm)',
  background: 'var(--mantine-color-orange-light)',
};

export const label: CSSProperties = { fontSize: 'var(--mantine-font-size-sm)' };
