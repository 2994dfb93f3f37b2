import { existsSync } from 'node:fs';

/** Debian's Chromium (or CHROMIUM_PATH); null means "let Playwright use its own browser if installed". */
export function findChromium(): string | null {
  const candidates = [process.env.CHROMIUM_PATH, '/usr/bin/chromium', '/usr/bin/chromium-browser'];
  return candidates.find((candidate) => candidate && existsSync(candidate)) ?? null;
}

export async function playwrightHasOwnChromium(): Promise<boolean> {
  try {
    const { chromium } = await import('@playwright/test');
    return existsSync(chromium.executablePath());
  } catch {
    return false;
  }
}
