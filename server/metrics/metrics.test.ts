// The scrape as Prometheus reads it: checked by Debian's promtool (CI installs the prometheus
// package), and its figures as the inputs give them.
import { execFileSync, spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { createMetrics } from './metrics';

const promtool = spawnSync('promtool', ['--version']).status === 0;

describe('the metrics', () => {
  const metrics = createMetrics({
    waiting: async () => [
      { sourceId: 'reflexio', pending: 12, oldestAgeSeconds: 340.5, expiringUnclaimed: 2 },
      { sourceId: 'bilby', pending: 0, oldestAgeSeconds: 0, expiringUnclaimed: 0 },
    ],
    watch: () => ({
      watching: true,
      systems: [
        { sourceId: 'reflexio', lagSeconds: 4.2, errors: 1, requests: 30 },
        { sourceId: 'bilby', lagSeconds: null, errors: 3, requests: 0 },
      ],
    }),
    openStreams: () => 7,
    notifyMessages: async () => [
      { receiver: 'oncall', status: 'failed', count: 2 },
      { receiver: 'oncall', status: 'sent', count: 40 },
    ],
  });
  metrics.upstream('reflexio', 'get', '2xx', 0.12);
  metrics.upstream('reflexio', 'post', '5xx', 1.3);
  metrics.auditWrite('ok');
  metrics.notifyDelivery('oncall', 'failed');

  it('gives each figure with its system', async () => {
    const text = await metrics.text();
    expect(text).toContain('qi_questions_pending{system="reflexio"} 12');
    expect(text).toContain('qi_question_oldest_pending_age_seconds{system="reflexio"} 340.5');
    expect(text).toContain('qi_questions_expiring_unclaimed{system="reflexio"} 2');
    expect(text).toContain('qi_watch_lag_seconds{system="reflexio"} 4.2');
    expect(text).not.toContain('qi_watch_lag_seconds{system="bilby"}');
    expect(text).toContain('qi_watch_read_errors{system="bilby"} 3');
    expect(text).toContain('qi_watch_leader 1');
    expect(text).toContain('qi_event_streams_open 7');
    expect(text).toContain(
      'qi_upstream_requests_total{system="reflexio",method="POST",outcome="5xx"} 1',
    );
    expect(text).toContain('qi_audit_writes_total{outcome="ok"} 1');
    expect(text).toContain('qi_notify_messages{receiver="oncall",status="failed"} 2');
    expect(text).toContain('qi_notify_deliveries_total{receiver="oncall",outcome="failed"} 1');
  });

  // CI has promtool (.ci/run installs prometheus); a laptop without it skips this one.
  it.skipIf(!promtool && !process.env.CI)('passes promtool check metrics', async () => {
    const text = await metrics.text();
    const out = execFileSync('promtool', ['check', 'metrics'], { input: text, encoding: 'utf8' });
    expect(out.trim()).toBe('');
  });
});
