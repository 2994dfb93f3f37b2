import { afterEach, describe, expect, it } from 'vitest';
import { createMockBackend, type MockBackend, TENANT_HEADER } from '../mock/app';
import { countingMock, judgeTabs, perMinute, type TabsResult, type TrafficRecord } from './tabs';

const result = (tabs: number, activity: 'idle' | 'answering', requests: number, kb: number) =>
  ({
    tabs,
    activity,
    windowSeconds: 60,
    largestKb: 4,
    requestsPerMinute: requests,
    listRequestsPerMinute: requests,
    kbPerMinute: kb,
    visibleTabs: tabs,
    answered: 0,
  }) satisfies TabsResult;

describe('counting at the mock', () => {
  let mock: MockBackend | null = null;
  afterEach(() => mock?.close());

  it('notes the measured tenant’s /api/ requests with the bytes the mock sent, nothing else', async () => {
    mock = createMockBackend({ seed: 'empty', simulatorIntervalMs: 0, latencyMs: 0 });
    const counted = countingMock(mock.app);
    const origin = 'http://127.0.0.1';
    const asTenant = (tenant: string) => ({
      cookie: `theme=dark; mock_tenant=${tenant}`,
      [TENANT_HEADER]: tenant,
    });
    await counted.fetch(
      new Request(`${origin}/__mock/questions`, {
        method: 'POST',
        headers: { ...asTenant('tabs-1-idle'), 'content-type': 'application/json' },
        body: JSON.stringify({ question: 'Counted?', expires_in_seconds: 600 }),
      }),
    );
    const list = await counted.fetch(
      new Request(`${origin}/api/pending_tool_calls?status=pending`, {
        headers: asTenant('tabs-1-idle'),
      }),
    );
    const body = await list.text();
    await counted.fetch(
      new Request(`${origin}/api/pending_tool_calls`, { headers: asTenant('bench') }),
    );

    expect(body).toContain('Counted?');
    expect(counted.records).toHaveLength(1);
    expect(counted.records[0]).toMatchObject({
      tenant: 'tabs-1-idle',
      list: true,
      bytes: new TextEncoder().encode(body).byteLength,
    });
  });
});

describe('per-minute figures and budgets', () => {
  it('counts one tenant within the window', () => {
    const records: TrafficRecord[] = [
      { tenant: 'a', at: 0, list: true, bytes: 1024 },
      { tenant: 'a', at: 29_999, list: false, bytes: 2048 },
      { tenant: 'a', at: 30_000, list: true, bytes: 1024 },
      { tenant: 'b', at: 10, list: true, bytes: 1024 },
    ];
    expect(perMinute(records, 'a', 0, 30_000)).toEqual({
      largestKb: 2,
      requestsPerMinute: 4,
      listRequestsPerMinute: 2,
      kbPerMinute: 6,
    });
  });

  it('passes 3 tabs within 1.2 × one tab and fails them beyond it', () => {
    const verdicts = judgeTabs([
      result(1, 'idle', 2, 10),
      result(3, 'idle', 2.4, 12),
      result(1, 'answering', 10, 40),
      result(3, 'answering', 12.5, 40),
    ]);
    const status = (id: string) => verdicts.find((v) => v.id === id)?.status;
    expect(status('tabs-idle-requestsPerMinute')).toBe('PASS');
    expect(status('tabs-idle-kbPerMinute')).toBe('PASS');
    expect(status('tabs-answering-requestsPerMinute')).toBe('FAIL');
    expect(status('tabs-answering-kbPerMinute')).toBe('PASS');
    expect(status('tabs-idle-list')).toBe('PASS');
  });

  it('passes 3 tabs within one poll of one tab (counts are whole polls), and says so', () => {
    // 120 s windows: 1 poll against 2 is 0.5/min against 1/min.
    const slow = (tabs: number, requests: number) => ({
      ...result(tabs, 'idle', requests, requests * 4),
      windowSeconds: 120,
    });
    const verdicts = judgeTabs([slow(1, 0.5), slow(3, 1)]);
    const requests = verdicts.find((v) => v.id === 'tabs-idle-requestsPerMinute');
    expect(requests).toMatchObject({
      status: 'PASS',
      note: expect.stringContaining('one request'),
    });
    expect(verdicts.find((v) => v.id === 'tabs-idle-kbPerMinute')?.status).toBe('PASS');
    // Two polls more is no longer the window's phase.
    expect(
      judgeTabs([slow(1, 0.5), slow(3, 1.5)]).find((v) => v.id === 'tabs-idle-requestsPerMinute')
        ?.status,
    ).toBe('FAIL');
  });

  it('fails one idle tab over 6 list requests a minute, and what was not measured', () => {
    expect(
      judgeTabs([result(1, 'idle', 7, 1)]).find((v) => v.id === 'tabs-idle-list'),
    ).toMatchObject({ status: 'FAIL' });
    expect(judgeTabs([]).every((v) => v.status === 'FAIL')).toBe(true);
  });
});
