// The flood's clients (bench/flood.ts), in a process of their own so the bench's own timings are
// not theirs: event streams opened from raw sockets that read the status line and never another
// byte, and presence from many reviewers, against one portal server on loopback, for a bounded
// time. Prints what the server answered as one JSON line, then closes everything and exits.
//
//   node --import tsx bench/flood-client.ts '{"port":5300,"streams":1000,…}'
import http from 'node:http';
import net from 'node:net';

export interface FloodClientOptions {
  port: number;
  /** Event streams to open, from raw sockets that never read past the status line. */
  streams: number;
  /** Reviewers the streams are spread over (a reviewer may hold only a few). */
  streamIdentities: number;
  /** Reviewers sending presence, each a new question (or typing) every time. */
  names: number;
  presencePerSecond: number;
  seconds: number;
  header: string;
}

export interface FloodClientReport {
  /** Streams answered 200 (held, never read). */
  held: number;
  /** Streams refused, by status (429: the reviewer's cap; 503: the server's). */
  refused: Record<string, number>;
  /** Streams that failed before any status (reset, refused connection, timeout). */
  streamErrors: number;
  /** The slowest and the 99th percentile of status lines, ms from connecting. */
  streamStatusP99Ms: number | null;
  /** Presence requests by status, and `error` for those with none. */
  presence: Record<string, number>;
  /** Presence requests not sent because 256 were already waiting (the server was slow). */
  presenceSkipped: number;
  presenceP99Ms: number | null;
}

const STATUS_TIMEOUT_MS = 10_000;
const IN_FLIGHT_MAX = 256;

function p99(values: number[]): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil(sorted.length * 0.99) - 1)] as number;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function openStreams(options: FloodClientOptions, sockets: net.Socket[]) {
  const refused: Record<string, number> = {};
  const statusTimes: number[] = [];
  let held = 0;
  let errors = 0;
  const one = (i: number) =>
    new Promise<void>((resolve) => {
      const started = performance.now();
      const socket = net.connect(options.port, '127.0.0.1');
      sockets.push(socket);
      let settled = false;
      const settle = (outcome: () => void) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        outcome();
        resolve();
      };
      const timer = setTimeout(
        () =>
          settle(() => {
            errors += 1;
            socket.destroy();
          }),
        STATUS_TIMEOUT_MS,
      );
      socket.once('connect', () => {
        socket.write(
          `GET /portal-api/team/events HTTP/1.1\r\nHost: 127.0.0.1:${options.port}\r\n${options.header}: flood-stream-${i % options.streamIdentities}@example.com\r\nAccept: text/event-stream\r\n\r\n`,
        );
      });
      socket.once('data', (chunk: Buffer) => {
        // The status line, and from then on not a byte: the socket is paused for good.
        socket.pause();
        const status = /^HTTP\/1\.1 (\d{3})/.exec(chunk.toString('latin1'))?.[1] ?? 'bad';
        settle(() => {
          statusTimes.push(performance.now() - started);
          if (status === '200') held += 1;
          else {
            refused[status] = (refused[status] ?? 0) + 1;
            socket.destroy();
          }
        });
      });
      socket.on('error', () =>
        settle(() => {
          errors += 1;
        }),
      );
    });
  // A hundred at a time: a thousand connections at once would meet the listen backlog, not
  // the portal.
  for (let from = 0; from < options.streams; from += 100) {
    await Promise.all(
      Array.from({ length: Math.min(100, options.streams - from) }, (_, k) => one(from + k)),
    );
  }
  return { held, refused, errors, statusP99: p99(statusTimes) };
}

async function floodPresence(options: FloodClientOptions, until: number) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });
  const statuses: Record<string, number> = {};
  const times: number[] = [];
  let inFlight = 0;
  let skipped = 0;
  let sent = 0;
  const post = (name: number, step: number) => {
    if (inFlight >= IN_FLIGHT_MAX) {
      skipped += 1;
      return;
    }
    inFlight += 1;
    const started = performance.now();
    const body = JSON.stringify({
      tab: 'flood',
      question: { source: 'reflexio', id: `flood-${(name + step) % 500}` },
      typing: step % 2 === 0,
    });
    const request = http.request(
      {
        host: '127.0.0.1',
        port: options.port,
        method: 'POST',
        path: '/portal-api/team/presence',
        agent,
        headers: {
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(body),
          [options.header]: `flood-name-${name}@example.com`,
        },
      },
      (response) => {
        response.resume();
        response.once('end', () => {
          inFlight -= 1;
          times.push(performance.now() - started);
          const key = String(response.statusCode);
          statuses[key] = (statuses[key] ?? 0) + 1;
        });
      },
    );
    request.setTimeout(STATUS_TIMEOUT_MS, () => request.destroy(new Error('timeout')));
    request.once('error', () => {
      inFlight -= 1;
      statuses.error = (statuses.error ?? 0) + 1;
    });
    request.end(body);
  };
  const started = Date.now();
  // Every 20 ms, the requests due by then: round-robin over the names.
  while (Date.now() < until) {
    const due = Math.floor(((Date.now() - started) * options.presencePerSecond) / 1000);
    while (sent < due) {
      post(sent % options.names, Math.floor(sent / options.names));
      sent += 1;
    }
    await sleep(20);
  }
  while (inFlight > 0) await sleep(20);
  agent.destroy();
  return { statuses, skipped, p99: p99(times) };
}

export async function runFloodClient(options: FloodClientOptions): Promise<FloodClientReport> {
  const sockets: net.Socket[] = [];
  const until = Date.now() + options.seconds * 1000;
  try {
    const [streams, presence] = await Promise.all([
      openStreams(options, sockets),
      floodPresence(options, until),
    ]);
    // The streams stay open, unread, to the end of the window.
    while (Date.now() < until) await sleep(100);
    return {
      held: streams.held,
      refused: streams.refused,
      streamErrors: streams.errors,
      streamStatusP99Ms: streams.statusP99,
      presence: presence.statuses,
      presenceSkipped: presence.skipped,
      presenceP99Ms: presence.p99,
    };
  } finally {
    for (const socket of sockets) socket.destroy();
  }
}

if (process.argv[1] && /flood-client\.ts$/.test(process.argv[1])) {
  const options = JSON.parse(process.argv[2] ?? '{}') as FloodClientOptions;
  const report = await runFloodClient(options);
  process.stdout.write(`${JSON.stringify(report)}\n`);
  process.exit(0);
}
