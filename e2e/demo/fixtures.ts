import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, rm, symlink } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { test as base, expect, type Page } from '@playwright/test';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** dist-demo/ on a plain static file server, under the sub-path /qi-demo/ as GitHub Pages would. */
export interface DemoSite {
  url: string;
  /** Stops the server: from then on only the browser's Service Worker can answer. */
  stop(): Promise<void>;
}

async function startStaticHost(
  folder: string,
  plain: boolean,
): Promise<{ port: number; process: ChildProcess }> {
  // Plain: Python's own http.server, which answers an address it has no file for with its own
  // 404 page (no 404.html), as many static hosts do.
  const args = plain
    ? ['-m', 'http.server', '0', '--bind', '127.0.0.1', '--directory', folder]
    : [path.join(repo, 'e2e/demo/static-host.py'), folder, '0'];
  const child = spawn('python3', ['-u', ...args], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const port = await new Promise<number>((resolve, reject) => {
    let out = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const match = /port (\d+)/.exec(out);
      if (match) resolve(Number(match[1]));
    });
    child.once('exit', (code) => reject(new Error(`static host exited (${code})`)));
    child.once('error', (error: NodeJS.ErrnoException) =>
      reject(
        error.code === 'ENOENT'
          ? new Error(
              'The demo journeys serve dist-demo/ with python3: sudo apt-get install python3',
            )
          : error,
      ),
    );
  });
  return { port, process: child };
}

function stopProcess(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once('exit', () => resolve());
    child.kill();
  });
}

export const test = base.extend<{
  demoSite: DemoSite;
  plainStaticHost: boolean;
  colleague: Colleague;
}>({
  plainStaticHost: [false, { option: true }],
  demoSite: async ({ plainStaticHost }, use) => {
    const folder = await mkdtemp(path.join(os.tmpdir(), 'qi-demo-host-'));
    await symlink(path.join(repo, 'dist-demo'), path.join(folder, 'qi-demo'));
    const host = await startStaticHost(folder, plainStaticHost);
    await use({
      url: `http://127.0.0.1:${host.port}/qi-demo/`,
      stop: () => stopProcess(host.process),
    });
    await stopProcess(host.process);
    await rm(folder, { recursive: true, force: true });
  },
  baseURL: async ({ demoSite }, use) => use(demoSite.url),
  // Sam, the demo's simulated colleague, does only what a journey tells him (demo/portal.ts):
  // on his own he would open and claim questions the journeys answer.
  context: async ({ context, demoSite }, use) => {
    await context.addCookies([{ name: 'qi_demo_colleague', value: 'driven', url: demoSite.url }]);
    await use(context);
  },
  colleague: async ({ page }, use) => {
    await use({
      async act(action, question) {
        const answer = await page.evaluate(
          async ({ action, question }) => {
            const response = await fetch('portal-api/__demo/colleague', {
              method: 'POST',
              headers: { 'content-type': 'application/json' },
              body: JSON.stringify({ action, question }),
            });
            return { status: response.status, body: (await response.json()) as unknown };
          },
          { action, question },
        );
        expect(answer.status, JSON.stringify(answer.body)).toBe(200);
        return answer.body;
      },
    });
  },
});

/** Sam, the demo's simulated colleague, told what to do through the page's Service Worker. */
export interface Colleague {
  act(
    action: 'open' | 'type' | 'claim' | 'release' | 'leave',
    question?: { source: string; id: string },
  ): Promise<unknown>;
}

export { expect };

export function row(page: Page, id: string) {
  return page.locator(`[data-question-id="${id}"]`);
}

export function drawer(page: Page) {
  return page.getByRole('dialog', { name: 'Question' });
}

/** A question as the demo's mock holds it, asked through the Service Worker like the page asks. */
export async function demoCall(page: Page, id: string) {
  return page.evaluate(async (wanted) => {
    const response = await fetch('__mock/state');
    const state = (await response.json()) as {
      calls: Array<{ id: string; status: string; result: unknown }>;
    };
    return state.calls.find((call) => call.id === wanted);
  }, id);
}

export interface VertesiaDemoState {
  asks: Array<{ askId: string; status: string; response?: string }>;
}

export interface BilbyDemoState {
  conversations: Array<{
    id: string;
    status: 'idle' | 'running';
    pendingQuestions: Array<{ toolCallId: string }>;
    answered: Array<{ toolCallId: string; output: { status: string; summary: string } }>;
  }>;
}

/** The Vertesia or Bilby mock's state, asked through the Service Worker like the page asks. */
export async function systemState<S extends 'vertesia' | 'bilby'>(
  page: Page,
  system: S,
): Promise<S extends 'vertesia' ? VertesiaDemoState : BilbyDemoState> {
  return page.evaluate(async (name) => (await fetch(`${name}/__mock/state`)).json(), system);
}
