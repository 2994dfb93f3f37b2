// Runs the Playwright suite, or explains how to get a browser when there is none.
import { spawnSync } from 'node:child_process';
import { findChromium, playwrightHasOwnChromium } from './find-chromium.ts';

const browser = findChromium();
if (!browser && !(await playwrightHasOwnChromium())) {
  const message = [
    'No Chromium found for the end-to-end tests.',
    '  Debian/Ubuntu: sudo apt-get install -y chromium',
    '  Elsewhere:     npx playwright install chromium',
    '  Or point CHROMIUM_PATH at a Chromium or Chrome binary.',
  ].join('\n');
  if (process.env.CI) {
    console.error(`\n${message}\nCI needs the browser: failing.\n`);
    process.exit(1);
  }
  console.warn(`\n${message}\nSkipping the end-to-end tests on this machine.\n`);
  process.exit(0);
}

const result = spawnSync('npx', ['playwright', 'test', ...process.argv.slice(2)], {
  stdio: 'inherit',
});
process.exit(result.status ?? 1);
