// The team's Server-Sent Events streams (`portal-api/team/events`), with their memory bounded
// however their readers behave. Every stream is sent the same bytes (one encoded frame per change,
// not one per stream), and a stream holds at most one frame its reader has not taken: while one
// waits, newer states replace it (the reader gets the latest when it reads again). A reader that
// takes nothing for STALL_MS, or falls behind by more than BEHIND_MAX_BYTES of states, is closed
// (a browser's EventSource opens a fresh stream and gets the whole state). Streams are capped per
// reviewer and in all. No Node built-ins: the static demo's Service Worker runs this too.
//
// Two kinds of frame: a state (the team's snapshot: the latest replaces one waiting) and a change
// (the watcher's copy of the lists: each one counts, so those waiting are kept in order, up to
// CHANGES_WAITING_MAX_BYTES; past it they go, and the reader is told to read the lists again).

/** Streams one reviewer may hold (each browser holds one however many tabs it has open). */
export const STREAMS_PER_REVIEWER = 20;
/** A stream whose reader has taken nothing for this long, with a state waiting, is closed. */
export const STALL_MS = 30_000;
/** A stream whose reader has skipped this many bytes of states without reading is closed. */
export const BEHIND_MAX_BYTES = 4 * 1024 * 1024;
const HEARTBEAT_MS = 15_000;
/** Changes kept for a reader that is behind; past this it reads the lists again instead. */
export const CHANGES_WAITING_MAX_BYTES = 1024 * 1024;
/** Sent in place of the changes a slow reader missed: every list is read again. */
export const RELOAD_ALL_FRAME =
  'event: questions\ndata: {"source":"*","version":0,"reload":true}\n\n';

export type FrameKind = 'state' | 'change';

export type Refusal = { status: 429 | 503; detail: string };

export interface StreamHub {
  /**
   * A new stream for `reviewer` starting with `first` (an SSE frame; the same string for streams
   * opened together is encoded once), or why there is none.
   */
  open(reviewer: string, first: string, signal: AbortSignal, lists?: boolean): Response;
  /**
   * Sends `frame` (an SSE frame) to every stream: a `state` (default) or a `change`. Streams
   * opened without lists get no change, and `listless` instead of a state where it is given.
   */
  send(frame: string, kind?: FrameKind, listless?: string): void;
  /** Streams open now. */
  size(): number;
  /** Ends every stream (shutdown). */
  close(): void;
}

interface Stream {
  reviewer: string;
  /** Whether its browser reads the server's copy of the lists (and so hears their changes). */
  lists: boolean;
  controller: ReadableStreamDefaultController<Uint8Array>;
  /** The latest state, when a newer one came while the reader had not taken the last. */
  waiting: Uint8Array | null;
  /** Changes that came while the reader had not taken the last frame, in order. */
  changes: Uint8Array[];
  changeBytes: number;
  /** Changes dropped past CHANGES_WAITING_MAX_BYTES: the reader is told to read the lists again. */
  changesDropped: boolean;
  /** Since when its queue has held something the reader did not take (null: it keeps up). */
  stuckSince: number | null;
  /** Bytes of frames that went by while one was waiting. */
  behindBytes: number;
  end(): void;
}

function unref(timer: ReturnType<typeof setInterval>): void {
  (timer as { unref?: () => void }).unref?.();
}

function refusal(status: number, detail: string, retryAfterSeconds: number): Response {
  return new Response(JSON.stringify({ detail }), {
    status,
    headers: {
      'content-type': 'application/json',
      'cache-control': 'no-store',
      'retry-after': String(retryAfterSeconds),
    },
  });
}

export function createStreamHub(options: {
  /** MAX_EVENT_STREAMS: streams this server holds in all. */
  max: number;
  now: () => number;
  log: (line: string) => void;
}): StreamHub {
  const { now } = options;
  const encoder = new TextEncoder();
  const streams = new Set<Stream>();
  const perReviewer = new Map<string, number>();
  const keepAlive = encoder.encode(': keep-alive\n\n');
  let firstBytes: { text: string; bytes: Uint8Array } | null = null;
  const encodeFirst = (text: string) => {
    if (firstBytes?.text !== text) firstBytes = { text, bytes: encoder.encode(text) };
    return firstBytes.bytes;
  };

  /** Bytes the stream's own queue holds (frames handed over are the HTTP layer's). */
  const queued = (stream: Stream) => -(stream.controller.desiredSize ?? 0);

  const stalled = (stream: Stream, at: number) =>
    stream.stuckSince !== null &&
    (at - stream.stuckSince >= STALL_MS || stream.behindBytes > BEHIND_MAX_BYTES);
  let closedStalled = 0;
  const closeIfStalled = (stream: Stream, at: number) => {
    if (!stalled(stream, at)) return;
    stream.end();
    closedStalled += 1;
  };

  const reloadAll = encoder.encode(RELOAD_ALL_FRAME);
  const caughtUp = (stream: Stream) => {
    stream.waiting = null;
    stream.changes = [];
    stream.changeBytes = 0;
    stream.changesDropped = false;
    stream.stuckSince = null;
    stream.behindBytes = 0;
  };
  /** What waits for the reader, as one chunk: the latest state, then the changes in order. */
  const waitingChunk = (stream: Stream): Uint8Array | null => {
    const parts = [
      ...(stream.waiting ? [stream.waiting] : []),
      ...(stream.changesDropped ? [reloadAll] : stream.changes),
    ];
    if (parts.length === 0) return null;
    if (parts.length === 1) return parts[0] as Uint8Array;
    const out = new Uint8Array(parts.reduce((sum, part) => sum + part.byteLength, 0));
    let at = 0;
    for (const part of parts) {
      out.set(part, at);
      at += part.byteLength;
    }
    return out;
  };

  /** Hands `frame` over now if the reader took all it was given, or keeps it waiting. */
  const deliver = (stream: Stream, frame: Uint8Array, kind: FrameKind, at: number) => {
    if (queued(stream) === 0) {
      stream.controller.enqueue(frame);
      caughtUp(stream);
      return;
    }
    if (kind === 'state') {
      if (stream.waiting) stream.behindBytes += stream.waiting.byteLength;
      stream.waiting = frame;
    } else if (!stream.changesDropped) {
      stream.changes.push(frame);
      stream.changeBytes += frame.byteLength;
      if (stream.changeBytes > CHANGES_WAITING_MAX_BYTES) {
        stream.behindBytes += stream.changeBytes;
        stream.changes = [];
        stream.changeBytes = 0;
        stream.changesDropped = true;
      }
    } else stream.behindBytes += frame.byteLength;
    stream.stuckSince ??= at;
    closeIfStalled(stream, at);
  };

  const heartbeat = setInterval(() => {
    const at = now();
    for (const stream of [...streams]) {
      if (queued(stream) === 0) {
        stream.controller.enqueue(waitingChunk(stream) ?? keepAlive);
        caughtUp(stream);
      } else {
        stream.stuckSince ??= at;
        closeIfStalled(stream, at);
      }
    }
    if (closedStalled > 0) {
      options.log(`[team] closed ${closedStalled} event streams whose readers stopped reading`);
      closedStalled = 0;
    }
  }, HEARTBEAT_MS);
  unref(heartbeat);

  return {
    open(reviewer, first, signal, lists = true) {
      if ((perReviewer.get(reviewer) ?? 0) >= STREAMS_PER_REVIEWER) {
        return refusal(
          429,
          `Too many open event streams for this reviewer (at most ${STREAMS_PER_REVIEWER}): close the inbox in other browsers.`,
          30,
        );
      }
      if (streams.size >= options.max) {
        return refusal(
          503,
          'This server holds as many live connections as it can: your browser will try again shortly.',
          30,
        );
      }
      let stream: Stream | null = null;
      const stop = () => {
        if (!stream || !streams.delete(stream)) return;
        const left = (perReviewer.get(reviewer) ?? 1) - 1;
        if (left > 0) perReviewer.set(reviewer, left);
        else perReviewer.delete(reviewer);
      };
      const body = new ReadableStream<Uint8Array>(
        {
          start(controller) {
            const made: Stream = {
              reviewer,
              lists,
              controller,
              waiting: null,
              changes: [],
              changeBytes: 0,
              changesDropped: false,
              stuckSince: null,
              behindBytes: 0,
              end() {
                stop();
                // With something queued, an error, not a close: a close would wait for the queue
                // to drain, and its reader is the one not reading.
                try {
                  if (-(controller.desiredSize ?? 0) === 0) controller.close();
                  else controller.error(new Error('event stream ended'));
                } catch {}
              },
            };
            stream = made;
            streams.add(made);
            perReviewer.set(reviewer, (perReviewer.get(reviewer) ?? 0) + 1);
            controller.enqueue(encodeFirst(first));
            signal.addEventListener('abort', () => made.end());
          },
          pull(controller) {
            // The reader took everything queued: what waited (the latest state, changes) goes now.
            const chunk = stream ? waitingChunk(stream) : null;
            if (!stream || !chunk) return;
            controller.enqueue(chunk);
            caughtUp(stream);
          },
          cancel: stop,
        },
        // Nothing is queued ahead of the reader: frames go when it asks (pull) or nothing waits.
        { highWaterMark: 0, size: (chunk) => chunk.byteLength },
      );
      return new Response(body, {
        headers: {
          'content-type': 'text/event-stream; charset=utf-8',
          'cache-control': 'no-store',
          'x-accel-buffering': 'no',
        },
      });
    },
    send(frame, kind = 'state', listless) {
      const bytes = encoder.encode(frame);
      const other = listless === undefined ? bytes : encoder.encode(listless);
      const at = now();
      for (const stream of [...streams]) {
        if (stream.lists) deliver(stream, bytes, kind, at);
        else if (kind === 'state') deliver(stream, other, kind, at);
      }
    },
    size: () => streams.size,
    close() {
      clearInterval(heartbeat);
      for (const stream of [...streams]) stream.end();
    },
  };
}
