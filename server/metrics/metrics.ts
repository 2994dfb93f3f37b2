// What operators scrape (`GET /metrics`, Prometheus' text format, prom-client): the questions
// waiting per system and how close they are to expiring, how the watcher keeps up, what the
// systems are asked and how fast they answer, open event streams, and the audit trail's writes.
// Figures that live in the database are read when scraped, never kept here.
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { Counter, Gauge, Histogram, Registry } from 'prom-client';

/** What one scrape reads of the questions waiting, per system. */
export interface WaitingFigures {
  sourceId: string;
  pending: number;
  /** Seconds since the oldest waiting question was first seen; 0 when none waits. */
  oldestAgeSeconds: number;
  /** Waiting, nobody's claim on it, and expiring within 10 minutes. */
  expiringUnclaimed: number;
}

export interface WatchFigures {
  sourceId: string;
  /** Seconds since the last successful read; null before the first. */
  lagSeconds: number | null;
  errors: number;
  requests: number;
}

export interface MetricsInputs {
  waiting(): Promise<WaitingFigures[]>;
  watch(): { watching: boolean; systems: WatchFigures[] };
  openStreams(): number;
  /** Notification messages per receiver and status, every replica's (server/notify/). */
  notifyMessages?(): Promise<{ receiver: string; status: string; count: number }[]>;
}

export type UpstreamOutcome = '2xx' | '3xx' | '4xx' | '5xx' | 'error';

export interface Metrics {
  readonly contentType: string;
  /** One request to a system (a browser's through the proxy, or the watcher's own). */
  upstream(system: string, method: string, outcome: UpstreamOutcome, seconds: number): void;
  auditWrite(outcome: 'ok' | 'failed'): void;
  /** One try of a notification message on this replica: sent, to retry, failed for good, dropped. */
  notifyDelivery(receiver: string, outcome: 'sent' | 'retry' | 'failed' | 'dropped'): void;
  text(): Promise<string>;
}

export function outcomeOf(status: number | null): UpstreamOutcome {
  if (status === null || status === 0) return 'error';
  if (status >= 500) return '5xx';
  if (status >= 400) return '4xx';
  if (status >= 300) return '3xx';
  return '2xx';
}

export function createMetrics(inputs: MetricsInputs): Metrics {
  const registry = new Registry();
  processMetrics(registry);
  const system = ['system'] as const;

  // One read of the database per scrape, shared by the three figures it gives.
  let scrape: Promise<WaitingFigures[]> | null = null;
  const waiting = () => {
    scrape ??= inputs.waiting().finally(() => {
      scrape = null;
    });
    return scrape;
  };
  const fromWaiting = (pick: (figures: WaitingFigures) => number) =>
    async function collect(this: Gauge<'system'>) {
      this.reset();
      for (const figures of await waiting()) this.set({ system: figures.sourceId }, pick(figures));
    };

  new Gauge({
    name: 'qi_questions_pending',
    help: 'Questions waiting for a reviewer, per system (the watcher’s copy).',
    labelNames: system,
    registers: [registry],
    collect: fromWaiting((f) => f.pending),
  });
  new Gauge({
    name: 'qi_question_oldest_pending_age_seconds',
    help: 'Seconds since the oldest waiting question was first seen, per system (0 when none).',
    labelNames: system,
    registers: [registry],
    collect: fromWaiting((f) => f.oldestAgeSeconds),
  });
  new Gauge({
    name: 'qi_questions_expiring_unclaimed',
    help: 'Waiting questions that expire within 10 minutes and that nobody has claimed, per system.',
    labelNames: system,
    registers: [registry],
    collect: fromWaiting((f) => f.expiringUnclaimed),
  });
  new Gauge({
    name: 'qi_watch_lag_seconds',
    help: 'Seconds since the watcher last read the system successfully (on the watching replica).',
    labelNames: system,
    registers: [registry],
    collect() {
      this.reset();
      for (const figures of inputs.watch().systems) {
        if (figures.lagSeconds !== null) this.set({ system: figures.sourceId }, figures.lagSeconds);
      }
    },
  });
  new Gauge({
    name: 'qi_watch_read_errors',
    help: 'Reads of the system that failed since this replica started (a counter that restarts at 0).',
    labelNames: system,
    registers: [registry],
    collect() {
      this.reset();
      for (const figures of inputs.watch().systems) {
        this.set({ system: figures.sourceId }, figures.errors);
      }
    },
  });
  new Gauge({
    name: 'qi_watch_leader',
    help: '1 on the replica that watches the systems now, 0 on the others.',
    registers: [registry],
    collect() {
      this.set(inputs.watch().watching ? 1 : 0);
    },
  });
  new Gauge({
    name: 'qi_event_streams_open',
    help: 'Browsers’ live event streams open on this replica.',
    registers: [registry],
    collect() {
      this.set(inputs.openStreams());
    },
  });
  const requests = new Counter({
    name: 'qi_upstream_requests_total',
    help: 'Requests to each system (browsers’ through the proxy, and the watcher’s), by outcome.',
    labelNames: ['system', 'method', 'outcome'] as const,
    registers: [registry],
  });
  const latency = new Histogram({
    name: 'qi_upstream_request_duration_seconds',
    help: 'How long each system took to answer (until its headers).',
    labelNames: ['system', 'method'] as const,
    buckets: [0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
    registers: [registry],
  });
  const auditWrites = new Counter({
    name: 'qi_audit_writes_total',
    help: 'Entries the audit trail wrote, or failed to (a failed write stops the action).',
    labelNames: ['outcome'] as const,
    registers: [registry],
  });

  const notifyTries = new Counter({
    name: 'qi_notify_deliveries_total',
    help: 'Tries of notification messages on this replica, per receiver and outcome (sent, retry, failed after the last try, dropped because its questions closed).',
    labelNames: ['receiver', 'outcome'] as const,
    registers: [registry],
  });
  const { notifyMessages } = inputs;
  if (notifyMessages) {
    new Gauge({
      name: 'qi_notify_messages',
      help: 'Notification messages in the outbox per receiver and status (pending, sent, failed, dropped), from the database.',
      labelNames: ['receiver', 'status'] as const,
      registers: [registry],
      async collect() {
        this.reset();
        for (const row of await notifyMessages()) {
          this.set({ receiver: row.receiver, status: row.status }, row.count);
        }
      },
    });
  }

  return {
    contentType: registry.contentType,
    notifyDelivery(receiver, outcome) {
      notifyTries.inc({ receiver, outcome });
    },
    upstream(name, method, outcome, seconds) {
      const verb = method.toUpperCase();
      requests.inc({ system: name, method: verb, outcome });
      latency.observe({ system: name, method: verb }, seconds);
    },
    auditWrite(outcome) {
      auditWrites.inc({ outcome });
    },
    text: () => registry.metrics(),
  };
}

/**
 * The process's own figures. Not prom-client's default set: three of its gauges end in `_total`,
 * which `promtool check metrics` refuses.
 */
function processMetrics(registry: Registry): void {
  const started = Date.now() / 1000;
  const delay = monitorEventLoopDelay({ resolution: 20 });
  delay.enable();
  new Gauge({
    name: 'process_resident_memory_bytes',
    help: 'Resident memory size in bytes.',
    registers: [registry],
    collect() {
      this.set(process.memoryUsage.rss());
    },
  });
  new Gauge({
    name: 'process_start_time_seconds',
    help: 'Start time of the process since the Unix epoch, in seconds.',
    registers: [registry],
    collect() {
      this.set(started);
    },
  });
  new Counter({
    name: 'process_cpu_seconds_total',
    help: 'User and system CPU time spent, in seconds.',
    registers: [registry],
    collect() {
      const { user, system } = process.cpuUsage();
      this.reset();
      this.inc((user + system) / 1e6);
    },
  });
  new Gauge({
    name: 'nodejs_heap_used_bytes',
    help: 'V8 heap in use, in bytes.',
    registers: [registry],
    collect() {
      this.set(process.memoryUsage().heapUsed);
    },
  });
  new Gauge({
    name: 'nodejs_eventloop_delay_p99_seconds',
    help: 'The 99th percentile of the event loop delay since the last scrape, in seconds.',
    registers: [registry],
    collect() {
      this.set(delay.percentile(99) / 1e9);
      delay.reset();
    },
  });
}
