import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { handleExpectContinue } from './body-limit';

export type NodeHandler = (request: IncomingMessage, response: ServerResponse) => void;

/** The Node HTTP server in front of the portal app (start.ts and the tests use this one). */
export function createPortalServer(
  handler: NodeHandler,
  options: { maxBodyBytes: number },
): Server {
  const server = createServer(handler);
  handleExpectContinue(server, options.maxBodyBytes, handler);
  return server;
}
