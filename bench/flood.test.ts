import { describe, expect, it } from 'vitest';
import { type FloodRun, judgeFlood } from './flood';

const MB = 1024 * 1024;

function run(overrides: Partial<FloodRun> = {}): FloodRun {
  return {
    seconds: 60,
    rssBeforeA: 90 * MB,
    rssBeforeB: 90 * MB,
    rssGrowthA: 40 * MB,
    rssGrowthB: 5 * MB,
    rssAfterA: 30 * MB,
    healthzQuietP99: 10,
    healthzFloodP99: 80,
    answerQuietMedian: 10,
    answerFloodMedian: 14,
    answerFloodP95: 30,
    answers: 240,
    errors: 0,
    client: {
      held: 500,
      refused: { '503': 500 },
      streamErrors: 0,
      streamStatusP99Ms: 20,
      presence: { '200': 12_000, '503': 12_000 },
      presenceSkipped: 0,
      presenceP99Ms: 40,
    },
    closedStalled: 0,
    linkFailures: 0,
    uptime: 'load 1.00 1.00 1.00',
    ...overrides,
  };
}

const statuses = (runs: FloodRun[]) =>
  Object.fromEntries(judgeFlood(runs).map((verdict) => [verdict.id, verdict.status]));

describe('judgeFlood', () => {
  it('passes a run within every bound', () => {
    expect(Object.values(statuses([run()])).every((status) => status === 'PASS')).toBe(true);
  });

  it('fails growth, a slow /healthz, slow answers and any error, each on its own line', () => {
    expect(statuses([run({ rssGrowthA: 101 * MB })]).floodRssGrowthA).toBe('FAIL');
    expect(statuses([run({ rssGrowthB: 101 * MB })]).floodRssGrowthB).toBe('FAIL');
    expect(statuses([run({ healthzFloodP99: 201 })]).floodHealthzP99).toBe('FAIL');
    expect(statuses([run({ answerFloodMedian: 15.1 })]).floodAnswerTime).toBe('FAIL');
    expect(statuses([run({ errors: 1 })]).floodErrors).toBe('FAIL');
  });

  it('fails when one run of three had errors, or a run flooded nothing', () => {
    expect(statuses([run(), run({ errors: 2 }), run()]).floodEveryRunClean).toBe('FAIL');
    const idle = run({ client: { ...run().client, held: 0 } });
    expect(statuses([idle]).floodEveryRunClean).toBe('FAIL');
    expect(statuses([]).floodEveryRunClean).toBe('FAIL');
  });
});
