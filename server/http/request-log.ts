import type { IncomingMessage, ServerResponse } from 'node:http';
import { logJson } from '../lib/log';

type Listener = (req: IncomingMessage, res: ServerResponse) => void;

/** The path of a request target without its query string or fragment (they may carry tokens). */
export function pathOnly(target: string | undefined): string {
  const raw = target ?? '/';
  const end = raw.search(/[?#]/);
  const pathname = end === -1 ? raw : raw.slice(0, end);
  return pathname.length > 2048 ? `${pathname.slice(0, 2048)}…` : pathname;
}

/**
 * Wraps a Node request listener so every request ends in one log line: method, path (no query),
 * status, duration in ms and the body bytes sent on the wire (after compression). Requests the
 * client abandoned are logged too, with `aborted: true`.
 */
export function withRequestLog(
  listener: Listener,
  log: (fields: Record<string, unknown>) => void = logJson,
): Listener {
  return (req, res) => {
    const started = process.hrtime.bigint();
    let bytes = 0;
    const count = (chunk: unknown, encoding?: unknown) => {
      if (typeof chunk === 'string') {
        bytes += Buffer.byteLength(
          chunk,
          typeof encoding === 'string' ? (encoding as BufferEncoding) : 'utf8',
        );
      } else if (chunk instanceof Uint8Array) {
        bytes += chunk.byteLength;
      }
    };
    const write = res.write;
    const end = res.end;
    res.write = function (this: ServerResponse, chunk: unknown, ...rest: unknown[]) {
      count(chunk, rest[0]);
      return (write as (...args: unknown[]) => boolean).call(this, chunk, ...rest);
    } as typeof res.write;
    res.end = function (this: ServerResponse, ...args: unknown[]) {
      if (args.length > 0 && typeof args[0] !== 'function') count(args[0], args[1]);
      return (end as (...a: unknown[]) => ServerResponse).apply(this, args);
    } as typeof res.end;
    let logged = false;
    const done = () => {
      if (logged) return;
      logged = true;
      log({
        method: req.method,
        path: pathOnly(req.url),
        status: res.statusCode,
        ms: Math.round(Number(process.hrtime.bigint() - started) / 1e5) / 10,
        bytes,
        ...(res.writableEnded ? {} : { aborted: true }),
      });
    };
    res.once('finish', done);
    res.once('close', done);
    listener(req, res);
  };
}
