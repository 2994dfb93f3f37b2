import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { renderThemeCss } from './theme-css';

describe('theme.generated.css', () => {
  it('is what MantineProvider would inject for the current theme (run `npm run theme:css` after changing theme.ts)', () => {
    const committed = readFileSync(path.resolve('src/styles/theme.generated.css'), 'utf8');
    expect(committed).toBe(renderThemeCss());
    expect(committed).toContain(
      '--mantine-primary-color-filled: var(--mantine-color-indigo-filled)',
    );
  });
});
