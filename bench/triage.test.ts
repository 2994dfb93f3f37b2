import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { getRequestListener } from '@hono/node-server';
import { afterEach, describe, expect, it } from 'vitest';
import { createMockBackend, type MockBackend, TENANT_HEADER } from '../mock/app';
import { quickAnswers } from '../src/features/questions/utils/answer-format';
import { seedTriageTenant, triagePlan } from './triage';

describe('the triage figure’s inbox', () => {
  let mock: MockBackend | null = null;
  let server: Server | null = null;
  afterEach(async () => {
    mock?.close();
    await new Promise((resolve) => server?.close(resolve) ?? resolve(null));
  });

  it('plans 50 asks: 5 groups of 4 look-alikes and 30 singles, quick answers on 25', () => {
    const plan = triagePlan();
    expect(plan).toHaveLength(35);
    expect(plan.reduce((sum, row) => sum + row.asks, 0)).toBe(50);
    expect(plan.filter((row) => row.asks === 4)).toHaveLength(5);
    const quickAsks = plan.filter((row) => quickAnswers(row.format).length > 0);
    expect(quickAsks.reduce((sum, row) => sum + row.asks, 0)).toBe(25);
    // Each quick answer is the option its number picks.
    for (const row of quickAsks) {
      expect(quickAnswers(row.format)[(row.quick as number) - 1]).toBe(row.answer);
    }
    expect(new Set(plan.map((row) => row.text)).size).toBe(35);
  });

  it('seeds them through the mock as agents ask: each group one dedup key, spread through the list', async () => {
    mock = createMockBackend({ seed: 'empty', simulatorIntervalMs: 0, latencyMs: 0 });
    server = createServer(getRequestListener(mock.app.fetch));
    await new Promise<void>((resolve) => server?.listen(0, '127.0.0.1', resolve));
    const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const rows = await seedTriageTenant(origin, 'triage-test');

    const response = await fetch(`${origin}/api/pending_tool_calls?status=pending&limit=500`, {
      headers: { [TENANT_HEADER]: 'triage-test' },
    });
    const { pending_tool_calls: calls } = (await response.json()) as {
      pending_tool_calls: {
        id: string;
        dedup_key: string;
        scope_hash: string;
        expires_at: string;
      }[];
    };
    expect(calls).toHaveLength(50);
    const byId = new Map(calls.map((call) => [call.id, call]));
    for (const row of rows) {
      expect(row.ids).toHaveLength(row.asks);
      const keys = new Set(
        row.ids.map((id) => `${byId.get(id)?.scope_hash} ${byId.get(id)?.dedup_key}`),
      );
      expect(keys.size).toBe(1);
    }
    // Soonest expiry first, a group's first ask is where the group sits: not all at one end.
    const order = [...calls].sort((a, b) => a.expires_at.localeCompare(b.expires_at));
    const firstAsks = rows.map((row) => row.ids[0]);
    const rowsInView = order.filter((call) => firstAsks.includes(call.id));
    const groupPlaces = rowsInView
      .map((call, place) => (rows.find((row) => row.ids[0] === call.id)?.asks === 4 ? place : -1))
      .filter((place) => place >= 0);
    expect(groupPlaces).toEqual([1, 8, 15, 22, 29]);
  });
});
