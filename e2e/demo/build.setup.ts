import { spawnSync } from 'node:child_process';
import { test as setup } from '@playwright/test';

// The demo project's tests run against what `npm run build:demo` makes.
setup('build dist-demo/', () => {
  setup.setTimeout(180_000);
  const result = spawnSync('npx', ['vite', 'build', '--config', 'vite.demo.config.ts'], {
    encoding: 'utf8',
  });
  if (result.status !== 0) {
    throw new Error(`npm run build:demo failed:\n${result.stdout}\n${result.stderr}`);
  }
});
