import { createVertesiaMock } from '@mock/vertesia/app';
import { screen, waitFor, within } from '@testing-library/react';
import { HttpResponse, http } from 'msw';
import { describe, expect, it } from 'vitest';
import { mountedFetch } from '@/features/questions/sources/test-support';
import { listRows } from '@/test/inbox';
import { getMockApi, mockControl, TEST_ORIGIN, useExtraHandlers } from '@/test/mock-api';
import { renderApp } from '@/test/render';

const MINUTE = 60_000;

const sources = [
  { id: 'reflexio', kind: 'reflexio', apiBaseUrl: 'api' },
  { id: 'vertesia', kind: 'vertesia', apiBaseUrl: 'vertesia/api/v1', apiVersion: '20260803' },
] as const;

/**
 * The real Vertesia mock under `/vertesia`, on the test's clock, and the handler that serves it
 * with a `Date` header `dateShiftMs` off the real time.
 */
function vertesiaMock(dateShiftMs = 0) {
  const mock = createVertesiaMock({ clock: getMockApi().clock, seed: 'empty' });
  const mounted = mountedFetch(mock.app, '/vertesia');
  const handler = http.all(`${TEST_ORIGIN}/vertesia/*`, async ({ request }) => {
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
  return { mock, handler };
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

const near = (actual: number, expected: number) =>
  expect(Math.abs(actual - expected)).toBeLessThanOrEqual(1_100);

describe('each system’s own server time', () => {
  it('every source’s responses feed its own estimate, keyed by the source’s id', async () => {
    useExtraHandlers(
      vertesiaMock(10 * MINUTE).handler,
      http.get(`${TEST_ORIGIN}/bilby/api/v1/conversations`, () =>
        HttpResponse.json(
          { conversations: [], nextCursor: null },
          { headers: { date: new Date(Date.now() - 3 * MINUTE).toUTCString() } },
        ),
      ),
    );
    const { services, mock } = renderApp({
      config: {
        sources: [...sources, { id: 'bilby', kind: 'bilby', apiBaseUrl: 'bilby/api/v1' }],
      },
    });
    await listRows();
    await waitFor(() => near(services.serverTime.offsetMs('vertesia'), 10 * MINUTE));
    await waitFor(() => near(services.serverTime.offsetMs('bilby'), -3 * MINUTE));
    // The Reflexio mock's Date is its own (manual) clock's.
    near(services.serverTime.offsetMs('reflexio'), mock.clock.now() - Date.now());
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
    await waitFor(async () => expect(await listRows()).toHaveLength(2));
    const rows = await listRows();
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
    expect(document.title).toBe('(2) Expiring soon · Questions');
    advance(5 * MINUTE);
    expect(within(vertesiaRow).getByText('Expired')).toBeInTheDocument();
    expect(within(reflexioRow).getByText('expires in 9m 59s')).toBeInTheDocument();
    expect(screen.getByRole('radio', { name: /^Pending/ })).toBeChecked();
  });
});
