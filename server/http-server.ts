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
  },
): Server {
  const wrap = options.wrap ?? ((listener: NodeHandler) => listener);
  const server = createServer(wrap(handler));
  handleExpectContinue(server, options.maxBodyBytes, handler, wrap);
  return server;
}
