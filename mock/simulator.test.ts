import { afterEach, describe, expect, it, vi } from 'vitest';
import { createMockBackend } from './app';
import { createManualClock } from './clock';
import { createSimulator, simulatorTemplates } from './simulator';
import { createCallStore, type PendingToolCallRecord } from './store';
import { MINUTE, START } from './test-support';

type List = { pending_tool_calls: PendingToolCallRecord[] };

afterEach(() => {
  vi.useRealTimers();
});

describe('simulator templates', () => {
  it('about 15 realistic templates with varied tags, users, formats and expiries of 3 min to 24 h', () => {
    expect(simulatorTemplates.length).toBeGreaterThanOrEqual(12);
    const expiries = simulatorTemplates.map((t) => t.expiresInSeconds ?? 0);
    expect(Math.min(...expiries)).toBe(180);
    expect(Math.max(...expiries)).toBe(86_400);
    expect(new Set(simulatorTemplates.flatMap((t) => t.tags)).size).toBeGreaterThanOrEqual(5);
    expect(new Set(simulatorTemplates.map((t) => t.userId)).size).toBeGreaterThanOrEqual(3);
    expect(new Set(simulatorTemplates.map((t) => t.answerFormat)).size).toBeGreaterThanOrEqual(4);
  });
});

describe('createSimulator', () => {
  it('tick() asks a template question through the store (dedup applies)', () => {
    const clock = createManualClock(START);
    const store = createCallStore(() => clock.now());
    const simulator = createSimulator({ intervalMs: 0, ask: (input) => store.create(input) });
    const results = Array.from({ length: 30 }, () => simulator.tick());
    const created = results.filter((r) => r.created);
    expect(created.length).toBeGreaterThan(3);
    // Without the clock moving, repeats attach to the first pending copy.
    expect(created.length).toBe(new Set(results.map((r) => r.call.id)).size);
    expect(results.some((r) => !r.created)).toBe(true);
    for (const { call } of results) {
      expect(call.tool_name).toBe('ask_human');
      expect(call.args).toEqual({
        question: call.question_text,
        answer_format: call.answer_format,
      });
    }
  });

  it('is deterministic for a given seed', () => {
    const run = () => {
      const store = createCallStore(() => START);
      const simulator = createSimulator({ intervalMs: 0, ask: (input) => store.create(input) });
      return Array.from({ length: 10 }, () => simulator.tick().call.question_text);
    };
    expect(run()).toEqual(run());
  });
});

describe('simulator in the backend', () => {
  it('feeds the default tenant every simulatorIntervalMs, and stops on close()', async () => {
    vi.useFakeTimers();
    const clock = createManualClock(START);
    const backend = createMockBackend({
      clock,
      seed: 'empty',
      sweepIntervalMs: 0,
      simulatorIntervalMs: 1000,
    });
    const count = async (tenant = 'default') => {
      const response = await backend.app.request('/api/pending_tool_calls', {
        headers: { 'x-mock-tenant': tenant },
      });
      return ((await response.json()) as List).pending_tool_calls.length;
    };
    expect(await count()).toBe(0);
    for (let i = 0; i < 4; i += 1) {
      clock.advance(10 * MINUTE);
      vi.advanceTimersByTime(1000);
    }
    expect(await count()).toBe(4);
    expect(await count('other')).toBe(0);
    backend.close();
    clock.advance(10 * MINUTE);
    vi.advanceTimersByTime(5000);
    expect(await count()).toBe(4);
  });

  it('is off by default', async () => {
    vi.useFakeTimers();
    const backend = createMockBackend({ clock: createManualClock(START), seed: 'empty' });
    vi.advanceTimersByTime(60_000);
    const response = await backend.app.request('/api/pending_tool_calls');
    expect(((await response.json()) as List).pending_tool_calls).toEqual([]);
    backend.close();
  });
});
