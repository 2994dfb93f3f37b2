import { createBilbyMock } from '@mock/bilby/app';
import { BILBY_ORGANIZATION_ID, bilbyDemoIds } from '@mock/bilby/seed';
import { createVertesiaMock } from '@mock/vertesia/app';
import { screen, waitFor, within } from '@testing-library/react';
import { http } from 'msw';
import { describe, expect, it } from 'vitest';
import { runtimeConfigSchema } from '@/config/runtime-config';
import { mountedFetch } from '@/features/questions/sources/test-support';
import { listRows } from '@/test/inbox';
import { getMockApi, mockControl, TEST_ORIGIN, useExtraHandlers } from '@/test/mock-api';
import { renderApp } from '@/test/render';
import { createServices } from './services';

const MINUTE = 60_000;

const sources = [
  { id: 'reflexio', kind: 'reflexio', apiBaseUrl: 'api' },
  { id: 'vertesia', kind: 'vertesia', apiBaseUrl: 'vertesia/api/v1', apiVersion: '20260803' },
] as const;

/** Serves a mock app under `prefix`, its `Date` header `dateShiftMs` off the real time. */
function servedAt(
  app: { fetch: (request: Request) => Response | Promise<Response> },
  prefix: string,
  dateShiftMs = 0,
) {
  const mounted = mountedFetch(app, prefix);
  return http.all(`${TEST_ORIGIN}${prefix}/*`, async ({ request }) => {
    const body = request.method === 'GET' ? undefined : await request.text();
    const response = await mounted(request.url, {
      method: request.method,
      headers: request.headers,
      ...(body === undefined ? {} : { body }),
    });
    const headers = new Headers(response.headers);
    headers.set('date', new Date(Date.now() + dateShiftMs).toUTCString());
    return new Response(await response.text(), { status: response.status, headers });
  });
}

/** The real Vertesia mock under `/vertesia`, on the test's clock, and the handler serving it. */
function vertesiaMock(dateShiftMs = 0) {
  const mock = createVertesiaMock({ clock: getMockApi().clock, seed: 'empty' });
  return { mock, handler: servedAt(mock.app, '/vertesia', dateShiftMs) };
}

async function askVertesia(mock: ReturnType<typeof createVertesiaMock>, question: string) {
  const response = await mock.app.fetch(
    new Request(`${TEST_ORIGIN}/__mock/asks`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ questions: [question], timeoutHours: 0.25 }),
    }),
  );
  expect(response.status).toBe(201);
}

function rowWith(rows: HTMLElement[], text: string): HTMLElement {
  const row = rows.find((candidate) => candidate.textContent?.includes(text));
  if (!row) throw new Error(`no row says ${text}`);
  return row;
}

const bilbySource = {
  id: 'bilby',
  kind: 'bilby',
  apiBaseUrl: 'bilby/api/v1',
  organizationId: BILBY_ORGANIZATION_ID,
} as const;

/** The portal's services for `sources`, talking to the mocks over HTTP (MSW). */
function servicesFor(sources: readonly object[]) {
  const config = runtimeConfigSchema().parse({ sources });
  return createServices(config, new URL(`${TEST_ORIGIN}/`), { retries: false });
}

// A Date header is whole seconds, and the estimate takes half the round trip: on a loaded shared
// machine that round trip alone has been over 200 ms (an error of 1.2 s seen). The offsets told
// apart here are minutes apart, so 5 s still fails any mix-up of sources.
const near = (actual: number, expected: number) =>
  expect(Math.abs(actual - expected)).toBeLessThanOrEqual(5_000);

describe('each system’s own server time', () => {
  it('every source’s responses feed its own estimate, keyed by the source’s id', async () => {
    const mock = getMockApi();
    const bilby = createBilbyMock({ clock: mock.clock, latencyMs: 0, runAfterAnswerMs: 0 });
    useExtraHandlers(vertesiaMock(10 * MINUTE).handler, servedAt(bilby.app, '/bilby', -3 * MINUTE));
    const services = servicesFor([...sources, bilbySource]);
    try {
      const list = await services.source.list({ status: 'pending', limit: 500 });
      expect(list.failures).toEqual([]);
      near(services.serverTime.offsetMs('vertesia'), 10 * MINUTE);
      near(services.serverTime.offsetMs('bilby'), -3 * MINUTE);
      // The Reflexio mock's Date is its own (manual) clock's.
      near(services.serverTime.offsetMs('reflexio'), mock.clock.now() - Date.now());
    } finally {
      bilby.close();
    }
  });

  it('a Vertesia ask counts down by Vertesia’s clock, a Reflexio question by its own', async () => {
    getMockApi({ seed: 'empty' });
    const vertesia = vertesiaMock();
    useExtraHandlers(vertesia.handler);
    await askVertesia(vertesia.mock, 'Ship the Vertesia release today?');
    await mockControl('questions', {
      question: 'Ship the Reflexio release today?',
      expires_in_seconds: 15 * 60,
    });
    const { clock, advance } = renderApp({ config: { sources: [...sources] } });
    // Both are due 15 minutes from now by the page's clock; Vertesia's server is 10 minutes ahead.
    clock.setOffset('vertesia', 10 * MINUTE);
    // One list of both systems (the inbox waits for every source's answer).
    const rows = await listRows();
    expect(rows).toHaveLength(2);
    const vertesiaRow = rowWith(rows, 'Ship the Vertesia release today?');
    const reflexioRow = rowWith(rows, 'Ship the Reflexio release today?');
    expect(within(vertesiaRow).getByText('expires in 5m 00s')).toHaveAttribute(
      'data-urgency',
      'warning',
    );
    expect(within(reflexioRow).getByText('expires in 15m 00s')).toHaveAttribute(
      'data-urgency',
      'calm',
    );
    // The tab turns urgent for the Vertesia ask (under 5 minutes left by its server), not later.
    advance(1_000);
    await waitFor(() => expect(document.title).toBe('(2) Expiring soon · Questions'));
    advance(5 * MINUTE);
    expect(within(vertesiaRow).getByText('Expired')).toBeInTheDocument();
    expect(within(reflexioRow).getByText('expires in 9m 59s')).toBeInTheDocument();
    expect(screen.getByRole('radio', { name: /^Pending/ })).toBeChecked();
  });

  it('a Bilby question dismissed here is stamped by Bilby’s clock, as its other times are', async () => {
    const bilby = createBilbyMock({ clock: getMockApi().clock, latencyMs: 0, runAfterAnswerMs: 0 });
    useExtraHandlers(servedAt(bilby.app, '/bilby', -3 * MINUTE));
    const services = servicesFor([bilbySource]);
    try {
      await services.source.list({ status: 'pending', limit: 500 });
      const dismissed = await services.source.markNotApplicable(
        `bilby:${bilbyDemoIds.database}:${bilbyDemoIds.databaseCall}`,
        {},
      );
      near(dismissed.resolvedAt ?? 0, Date.now() - 3 * MINUTE);
    } finally {
      bilby.close();
    }
  });
});
