// Chromium trace capture over CDP and the main-thread accounting of one countdown tick.
import type { CDPSession } from '@playwright/test';

export const TRACE_CATEGORIES = ['devtools.timeline', 'disabled-by-default-devtools.timeline'];

export interface TraceEvent {
  name: string;
  cat?: string;
  ph: string;
  ts: number;
  dur?: number;
  pid: number;
  tid: number;
  args?: { name?: string; data?: Record<string, unknown> };
}

export type Bucket = 'script' | 'layoutPaint';

// Names as Chromium 156 writes them with the categories above (dumped with --trace-summary).
// Garbage collection during a task counts as script, as DevTools counts it.
const SCRIPT = new Set([
  'FunctionCall',
  'TimerFire',
  'FireAnimationFrame',
  'FireIdleCallback',
  'RunMicrotasks',
  'EvaluateScript',
  'EventDispatch',
  'XHRReadyStateChange',
  'XHRLoad',
  'CacheScript',
  'MinorGC',
  'MajorGC',
  'GCEvent',
]);
const SCRIPT_PREFIXES = ['v8.', 'V8.', 'BlinkGC.', 'CppGC.'];
const LAYOUT_PAINT = new Set([
  'ScheduleStyleRecalculation',
  'UpdateLayoutTree',
  'RecalculateStyles',
  'ParseAuthorStyleSheet',
  'Layout',
  'HitTest',
  'ComputeIntersections',
  'IntersectionObserverController::computeIntersections',
  'PrePaint',
  'Paint',
  'PaintImage',
  'PaintSetup',
  'Decode Image',
  'ImageDecodeTask',
  'Layerize',
  'UpdateLayer',
  'UpdateLayerTree',
  'CompositeLayers',
  'Commit',
  'ScrollLayer',
]);

/** The bucket an event's own (exclusive) time belongs to; null: inherit from the enclosing event. */
export function bucketOf(name: string): Bucket | null {
  if (SCRIPT.has(name) || SCRIPT_PREFIXES.some((prefix) => name.startsWith(prefix))) {
    return 'script';
  }
  return LAYOUT_PAINT.has(name) ? 'layoutPaint' : null;
}

/** Records a CDP trace of `durationMs` on the page's session and returns its events. */
export async function recordTrace(cdp: CDPSession, durationMs: number): Promise<TraceEvent[]> {
  const events: TraceEvent[] = [];
  const collect = (params: { value: object[] }) => {
    events.push(...(params.value as TraceEvent[]));
  };
  cdp.on('Tracing.dataCollected', collect);
  const complete = new Promise<void>((resolve) => {
    cdp.once('Tracing.tracingComplete', () => resolve());
  });
  await cdp.send('Tracing.start', {
    transferMode: 'ReportEvents',
    traceConfig: { includedCategories: TRACE_CATEGORIES },
  });
  await new Promise((resolve) => setTimeout(resolve, durationMs));
  await cdp.send('Tracing.end');
  await complete;
  cdp.off('Tracing.dataCollected', collect);
  return events;
}

export interface Thread {
  pid: number;
  tid: number;
}

/** The CrRendererMain thread of the renderer that holds the page's main frame at `pageUrl`. */
export function rendererMainThread(events: TraceEvent[], pageUrl: string): Thread | null {
  const started = events.find((event) => event.name === 'TracingStartedInBrowser');
  const frames = (started?.args?.data?.frames ?? []) as {
    url?: string;
    processId?: number;
    parent?: string;
  }[];
  const main =
    frames.find((frame) => !frame.parent && frame.url === pageUrl) ??
    frames.find((frame) => !frame.parent && frame.url?.startsWith(new URL(pageUrl).origin));
  const mains = events.filter(
    (event) =>
      event.ph === 'M' && event.name === 'thread_name' && event.args?.name === 'CrRendererMain',
  );
  const thread = mains.find((event) => event.pid === main?.processId);
  return thread ? { pid: thread.pid, tid: thread.tid } : null;
}

/** Trace-clock span covered by the events, in ms. */
export function traceWindowMs(events: TraceEvent[]): number {
  let start = Number.POSITIVE_INFINITY;
  let end = Number.NEGATIVE_INFINITY;
  for (const event of events) {
    if (event.ph === 'M' || !event.ts) continue;
    start = Math.min(start, event.ts);
    end = Math.max(end, event.ts + (event.dur ?? 0));
  }
  return end > start ? (end - start) / 1000 : 0;
}

/** URLs the renderer requested during the trace (ResourceSendRequest). */
export function requestsInTrace(events: TraceEvent[]): string[] {
  return events
    .filter((event) => event.name === 'ResourceSendRequest')
    .map((event) => String(event.args?.data?.url ?? ''));
}

interface Span {
  name: string;
  start: number;
  end: number;
  children: number;
}

/** Complete spans of one thread: 'X' events as they are, 'B'/'E' pairs joined, open 'B' cut at `end`. */
function spansOf(events: TraceEvent[], thread: Thread): Span[] {
  const own = events
    .filter((event) => event.pid === thread.pid && event.tid === thread.tid)
    .sort((a, b) => a.ts - b.ts);
  const last = own.reduce((max, event) => Math.max(max, event.ts + (event.dur ?? 0)), 0);
  const spans: Span[] = [];
  const open: TraceEvent[] = [];
  for (const event of own) {
    if (event.ph === 'X') {
      spans.push({
        name: event.name,
        start: event.ts,
        end: event.ts + (event.dur ?? 0),
        children: 0,
      });
    } else if (event.ph === 'B') {
      open.push(event);
    } else if (event.ph === 'E') {
      const begin = open.pop();
      if (begin) spans.push({ name: begin.name, start: begin.ts, end: event.ts, children: 0 });
    }
  }
  for (const begin of open)
    spans.push({ name: begin.name, start: begin.ts, end: last, children: 0 });
  return spans;
}

export interface ThreadTime {
  /** Exclusive time in ms per bucket; `other` is task overhead and work of neither kind. */
  script: number;
  layoutPaint: number;
  other: number;
  /** Sum of the top-level spans: the thread's busy time; equals script + layoutPaint + other. */
  busy: number;
  byName: Map<string, { bucket: Bucket | 'other'; count: number; self: number }>;
}

/**
 * Exclusive (self) time of every span on the thread, by bucket. A span's self time is its
 * duration minus its direct children's, so nested work is counted once, where it happens: a
 * forced Layout inside a FunctionCall is layout, not script. A span of neither kind (RunTask, or
 * a name not listed) passes its self time to the nearest enclosing span that has a bucket, else
 * to `other`.
 */
export function threadTime(events: TraceEvent[], thread: Thread): ThreadTime {
  const spans = spansOf(events, thread).sort((a, b) => a.start - b.start || b.end - a.end);
  const result: ThreadTime = { script: 0, layoutPaint: 0, other: 0, busy: 0, byName: new Map() };
  const stack: { span: Span; bucket: Bucket | null }[] = [];
  const settle = (entry: { span: Span; bucket: Bucket | null }) => {
    const self = Math.max(0, entry.span.end - entry.span.start - entry.span.children) / 1000;
    const bucket = entry.bucket ?? 'other';
    result[bucket] += self;
    const named = result.byName.get(entry.span.name) ?? { bucket, count: 0, self: 0 };
    named.count += 1;
    named.self += self;
    result.byName.set(entry.span.name, named);
  };
  for (const span of spans) {
    while (stack.length > 0 && (stack.at(-1) as { span: Span }).span.end <= span.start) {
      settle(stack.pop() as { span: Span; bucket: Bucket | null });
    }
    const parent = stack.at(-1);
    if (parent) {
      // A child that overruns its parent (clock rounding) is cut to the parent's end.
      span.end = Math.min(span.end, parent.span.end);
      parent.span.children += span.end - span.start;
    } else {
      result.busy += (span.end - span.start) / 1000;
    }
    stack.push({ span, bucket: bucketOf(span.name) ?? parent?.bucket ?? null });
  }
  while (stack.length > 0) settle(stack.pop() as { span: Span; bucket: Bucket | null });
  return result;
}

/** Per-name table of a thread's time, for checking the accounting against the trace by eye. */
export function describeThreadTime(time: ThreadTime, windowMs: number): string {
  const rows = [...time.byName]
    .filter(([, entry]) => entry.self >= 0.01)
    .sort((a, b) => b[1].self - a[1].self)
    .map(
      ([name, entry]) =>
        `    ${name.padEnd(40)} ${entry.bucket.padEnd(11)} ${String(entry.count).padStart(5)} × ${entry.self.toFixed(2).padStart(9)} ms self`,
    );
  const check = time.script + time.layoutPaint + time.other;
  return [
    `    window ${windowMs.toFixed(0)} ms; busy ${time.busy.toFixed(2)} ms = script ${time.script.toFixed(2)} + layout/paint ${time.layoutPaint.toFixed(2)} + other ${time.other.toFixed(2)} (sum ${check.toFixed(2)})`,
    ...rows,
  ].join('\n');
}
