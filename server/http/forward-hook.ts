// The hook every forward to a system passes through (PortalOptions.around): the audit trail
// records around it (server/audit/core.ts); the portal knows only its shape.

/** One write on its way to a system, as the portal server's forward sees it. */
export interface ForwardCall {
  request: Request;
  body: Uint8Array | null;
  source: { id: string; kind: string };
  /** The path the system sees, e.g. `/api/pending_tool_calls/x/resolve`. */
  targetPath: string;
}

export type Send = (request: Request) => Promise<Response>;

/** The hook portal.ts runs every forward through (see PortalOptions.around). */
export type ForwardHook = (call: ForwardCall, send: Send) => Promise<Response>;
