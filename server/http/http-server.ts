import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { handleExpectContinue } from './body-limit';

export type NodeHandler = (request: IncomingMessage, response: ServerResponse) => void;

/** The Node HTTP server in front of the portal app (start.ts and the tests use this one). */
export function createPortalServer(
  handler: NodeHandler,
  options: {
    maxBodyBytes: number;
    /**
     * Wraps every way a request comes in (the request log): the handler, and the answer to
     * `Expect: 100-continue`, whose 413 for a body declared too large never reaches the handler.
     */
    wrap?: (listener: NodeHandler) => NodeHandler;
    /** Headers a request may carry once at most: the identity headers (a second is refused, 400). */
    singleHeaders?: readonly string[];
  },
): Server {
  const wrap = options.wrap ?? ((listener: NodeHandler) => listener);
  const guarded = refuseRepeated(handler, options.singleHeaders ?? []);
  const server = createServer(wrap(guarded));
  handleExpectContinue(server, options.maxBodyBytes, guarded, wrap);
  return server;
}

/**
 * Node joins repeated headers with ", " before anything else sees them: two X-Forwarded-Email
 * headers became the one reviewer "alice@…, mallory@…". Only here are they still two.
 */
function refuseRepeated(handler: NodeHandler, names: readonly string[]): NodeHandler {
  if (names.length === 0) return handler;
  return (request, response) => {
    const repeated = names.find((name) => (request.headersDistinct[name]?.length ?? 0) > 1);
    if (!repeated) return handler(request, response);
    const body = JSON.stringify({
      detail: `Refused: the request has more than one ${repeated} header, and the portal takes one reviewer per request. Check the proxy in front of the portal.`,
    });
    response.writeHead(400, {
      'content-type': 'application/json',
      'content-length': Buffer.byteLength(body),
      'cache-control': 'no-store',
      'x-content-type-options': 'nosniff',
    });
    response.end(body);
  };
}
