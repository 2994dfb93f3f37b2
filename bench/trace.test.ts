import { describe, expect, it } from 'vitest';
import { rendererMainThread, type TraceEvent, threadTime, traceWindowMs } from './trace';

const main = { pid: 7, tid: 7 };
const x = (name: string, ts: number, dur: number, thread = main): TraceEvent => ({
  name,
  ph: 'X',
  ts: ts * 1000,
  dur: dur * 1000,
  ...thread,
});
const mark = (name: string, ph: 'B' | 'E', ts: number): TraceEvent => ({
  name,
  ph,
  ts: ts * 1000,
  ...main,
});

describe('threadTime', () => {
  it('counts nested work once, where it happens', () => {
    const events = [
      // A tick: a timer calls script that forces a layout and triggers a scavenge.
      x('RunTask', 0, 10),
      x('TimerFire', 0.5, 9),
      x('FunctionCall', 1, 8),
      x('Layout', 2, 3),
      mark('MinorGC', 'B', 6),
      mark('MinorGC', 'E', 7),
      // The frame that follows.
      x('RunTask', 20, 6),
      x('UpdateLayoutTree', 20.5, 1),
      x('Layout', 21.5, 1),
      x('PrePaint', 22.5, 0.5),
      x('Paint', 23, 1),
      x('Commit', 24, 1.5),
      // Another renderer's work is not this page's.
      x('FunctionCall', 0, 50, { pid: 8, tid: 8 }),
    ];
    const time = threadTime(events, main);
    expect(time.layoutPaint).toBeCloseTo(3 + 1 + 1 + 0.5 + 1 + 1.5);
    // TimerFire (9 - 8) + FunctionCall (8 - 3 - 1) + MinorGC 1.
    expect(time.script).toBeCloseTo(1 + 4 + 1);
    // RunTask self time: 10 - 9 and 6 - 5.
    expect(time.other).toBeCloseTo(1 + 1);
    expect(time.script + time.layoutPaint + time.other).toBeCloseTo(time.busy);
    expect(time.busy).toBeCloseTo(16);
  });

  it('gives unknown work to the enclosing bucket and cuts an open span at the end', () => {
    const events = [
      x('FunctionCall', 0, 4),
      x('SomethingNew', 1, 2),
      x('RunTask', 10, 1),
      mark('RunTask', 'B', 20),
      x('FunctionCall', 20, 2),
    ];
    const time = threadTime(events, main);
    expect(time.script).toBeCloseTo(4 + 2);
    expect(time.other).toBeCloseTo(1);
    expect(time.byName.get('SomethingNew')?.bucket).toBe('script');
  });
});

describe('rendererMainThread', () => {
  it('picks the CrRendererMain of the process that holds the page', () => {
    const events: TraceEvent[] = [
      { name: 'thread_name', ph: 'M', ts: 0, pid: 3, tid: 3, args: { name: 'CrRendererMain' } },
      { name: 'thread_name', ph: 'M', ts: 0, pid: 5, tid: 5, args: { name: 'CrRendererMain' } },
      {
        name: 'TracingStartedInBrowser',
        ph: 'I',
        ts: 1,
        pid: 1,
        tid: 1,
        args: { data: { frames: [{ url: 'http://localhost:1/questions', processId: 5 }] } },
      },
      x('RunTask', 1, 1),
      x('RunTask', 4000, 1),
    ];
    expect(rendererMainThread(events, 'http://localhost:1/questions')).toEqual({ pid: 5, tid: 5 });
    expect(traceWindowMs(events)).toBeCloseTo(4001, 1);
  });
});
